import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Password reset and invite links (migration 0008), keyed by the SHA-256 digest of the token. Valid while
 * `expires_at > now()` and `used_at` is null.
 */
export const ResetTokenSchema = defineEntity({
  name: 'ResetToken',
  tableName: 'reset_tokens',
  properties: {
    tokenHash: p.text().primary(),
    userId: p.integer(),
    createdBy: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type ResetTokenRow = InferEntity<typeof ResetTokenSchema>;
