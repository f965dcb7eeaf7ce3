import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Public signup tokens (migration 0010), keyed by their secret. */
export const PublicSignupTokenSchema = defineEntity({
  name: 'PublicSignupToken',
  tableName: 'public_signup_tokens',
  properties: {
    secret: p.text().primary(),
    name: p.text(),
    roleId: p.integer(),
    enabled: p.boolean().default(true),
    expiresAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
    createdBy: p.text().nullable(),
  },
});
export type PublicSignupTokenRow = InferEntity<typeof PublicSignupTokenSchema>;

/** The users who signed up with a public signup token (migration 0010). */
export const PublicSignupTokenUserSchema = defineEntity({
  name: 'PublicSignupTokenUser',
  tableName: 'public_signup_token_users',
  properties: {
    secret: p.text().primary(),
    userId: p.integer().primary(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type PublicSignupTokenUserRow = InferEntity<typeof PublicSignupTokenUserSchema>;
