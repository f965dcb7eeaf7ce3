import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** API tokens (migration 0001; expiry and creator from 0005). The secret is stored only as its SHA-256 digest. */
export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.integer().primary(),
    secretHash: p.text().unique('api_tokens_secret_hash_key'),
    tokenName: p.text(),
    type: p.enum(['admin', 'client', 'frontend']),
    projects: p.array().default(['*']),
    environment: p.text().default('*'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    seenAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
    createdBy: p.text().nullable(),
    createdByUserId: p.integer().nullable(),
  },
});
export type ApiTokenRow = InferEntity<typeof ApiTokenSchema>;
