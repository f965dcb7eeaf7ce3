import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export interface LegalValue {
  value: string;
  description?: string;
}

export const ContextFieldSchema = defineEntity({
  name: 'ContextField',
  tableName: 'context_fields',
  properties: {
    name: p.text().primary(),
    description: p.text().nullable(),
    stickiness: p.boolean().default(false),
    sortOrder: p.integer().default(10),
    legalValues: p.json<LegalValue[]>().default('[]'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export type ContextFieldRow = InferEntity<typeof ContextFieldSchema>;
