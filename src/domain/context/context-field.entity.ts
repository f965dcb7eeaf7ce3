import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { LegalValue } from './context-field.shapes';

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

/**
 * Which features use which context field in their strategy constraints (migration 0003), kept by a trigger on
 * feature_strategies; `refs` counts the strategies of the feature that reference the field.
 */
export const ContextFieldUsageSchema = defineEntity({
  name: 'ContextFieldUsage',
  tableName: 'context_field_usage',
  properties: {
    contextName: p.text().primary(),
    featureName: p.text().primary(),
    project: p.text(),
    refs: p.integer(),
  },
});
export type ContextFieldUsageRow = InferEntity<typeof ContextFieldUsageSchema>;
