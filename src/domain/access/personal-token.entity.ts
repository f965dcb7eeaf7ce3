import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Personal access tokens (migration 0005); the secret is stored only as its SHA-256 digest. */
export const PersonalAccessTokenSchema = defineEntity({
  name: 'PersonalAccessToken',
  tableName: 'personal_access_tokens',
  properties: {
    id: p.integer().primary(),
    userId: p.integer(),
    secretHash: p.text().unique('personal_access_tokens_secret_hash_key'),
    description: p.text(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
    seenAt: p.datetime().nullable(),
  },
});
export type PersonalAccessTokenRow = InferEntity<typeof PersonalAccessTokenSchema>;
