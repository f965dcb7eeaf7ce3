import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import { StrategyDefinitionSchema, type StrategyDefinitionRow } from './strategy-definition.entity';
import type { StrategyDefinition, StrategyParameter } from './strategy-definition.shapes';

/** The reads of strategy types (definitions) and the mapping of their rows into what both doors return. */

/** The columns every read of a definition selects (`StrategyDefinitionDbRow`). */
export const STRATEGY_COLUMNS = 'name, display_name, title, description, parameters, built_in, deprecated, sort_order, created_at';

/** A row of `strategies` as every read selects it (STRATEGY_COLUMNS). */
export type StrategyDefinitionDbRow = Pick<TableRow<StrategyDefinitionRow>,
  'name' | 'display_name' | 'title' | 'description' | 'parameters' | 'built_in' | 'deprecated' | 'sort_order' | 'created_at'>;

/** The order every list uses: sort order, then name. */
const STRATEGY_ORDER = 'sort_order asc, name asc';

export const toParameter = (p: Partial<StrategyParameter> & { name: string }): StrategyParameter => ({
  name: p.name,
  type: p.type ?? 'string',
  description: p.description ?? '',
  required: p.required ?? false,
});

export const toDefinition = (r: StrategyDefinitionDbRow): StrategyDefinition => ({
  name: r.name,
  displayName: r.display_name ?? null,
  title: r.title ?? null,
  description: r.description ?? null,
  editable: !r.built_in,
  deprecated: r.deprecated,
  parameters: (r.parameters ?? []).map(toParameter),
});

/** Every definition, by sort order then name (SQL: its rows are mapped like those the store loads and inserts). */
export async function listDefinitions(em: EntityManager): Promise<StrategyDefinition[]> {
  const rows: StrategyDefinitionDbRow[] = await em.execute(`select ${STRATEGY_COLUMNS} from strategies order by ${STRATEGY_ORDER}`);
  return rows.map(toDefinition);
}

/** Whether a definition of that name exists (deprecated ones included). */
export async function definitionExists(em: EntityManager, name: string): Promise<boolean> {
  return (await em.count(StrategyDefinitionSchema, { name })) > 0;
}
