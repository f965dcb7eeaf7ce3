import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The `strategies` table (migration 0001): the strategy types (definitions) that feature strategies name.
 * StrategyDefinitionService reads and writes it with SQL through the request's EntityManager (or the
 * transaction's). Built-in rows come from the seed.
 */

/** The parameter types a strategy definition may declare (Unleash's list). */
export const STRATEGY_PARAMETER_TYPES = ['string', 'percentage', 'list', 'number', 'boolean'] as const;
export type StrategyParameterType = (typeof STRATEGY_PARAMETER_TYPES)[number];

/** One declared parameter of a strategy definition. */
export interface StrategyParameter {
  name: string;
  type: StrategyParameterType;
  description: string;
  required: boolean;
}

/** A row of `strategies` as PostgreSQL returns it (jsonb parsed by the driver). */
export interface StrategyDefinitionRow {
  name: string;
  display_name: string | null;
  title: string | null;
  description: string | null;
  parameters: Array<Partial<StrategyParameter> & { name: string }> | null;
  built_in: boolean;
  deprecated: boolean;
  sort_order: number;
  created_at: Date;
}

/** The columns every read selects, in the order of `StrategyDefinitionRow`. */
export const STRATEGY_COLUMNS = 'name, display_name, title, description, parameters, built_in, deprecated, sort_order, created_at';

/** The order every list uses: sort order, then name. */
export const STRATEGY_ORDER = 'sort_order asc, name asc';

/** The table's columns (`StrategyDefinitionRow` is the row every read selects). */
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
export type StrategyDefinitionEntity = InferEntity<typeof StrategyDefinitionSchema>;
