import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Sign-in sessions (migration 0005), keyed by the SHA-256 digest of the session id. */
export const UserSessionSchema = defineEntity({
  name: 'UserSession',
  tableName: 'user_sessions',
  properties: {
    sidHash: p.text().primary(),
    userId: p.integer(),
    createdAt: p.datetime().defaultRaw('now()'),
    expiresAt: p.datetime(),
  },
});
export type UserSessionRow = InferEntity<typeof UserSessionSchema>;
