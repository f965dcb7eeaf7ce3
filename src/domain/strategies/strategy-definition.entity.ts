import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StrategyParameter } from './strategy-definition.shapes';

/**
 * The `strategies` table (migration 0001): the strategy types (definitions) that feature strategies name.
 * StrategyDefinitionService reads and writes it with SQL through the request's EntityManager (or the
 * transaction's). Built-in rows come from the seed. A stored parameter may lack what the API fills in
 * (strategy-definition.read-model.ts, `toParameter`).
 */
export const StrategyDefinitionSchema = defineEntity({
  name: 'StrategyDefinition',
  tableName: 'strategies',
  properties: {
    name: p.text().primary(),
    displayName: p.text().nullable(),
    title: p.text().nullable(),
    description: p.text().nullable(),
    parameters: p.json<Array<Partial<StrategyParameter> & { name: string }>>().default('[]'),
    builtIn: p.boolean().default(false),
    deprecated: p.boolean().default(false),
    sortOrder: p.integer().default(9999),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type StrategyDefinitionRow = InferEntity<typeof StrategyDefinitionSchema>;
