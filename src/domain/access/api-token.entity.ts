import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.integer().primary(),
    secretHash: p.text().unique(),
    tokenName: p.text(),
    type: p.text(),
    projects: p.array().default(['*']),
    environment: p.text().default('*'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    seenAt: p.datetime().nullable(),
  },
});
export type ApiToken = InferEntity<typeof ApiTokenSchema>;
