import type { EntityManager } from '@mikro-orm/postgresql';
import { STRATEGY_COLUMNS, STRATEGY_ORDER, type StrategyDefinitionRow, type StrategyParameter } from './strategy-definition.entity';

export type { StrategyParameter, StrategyParameterType } from './strategy-definition.entity';

/** The reads of strategy types (definitions) and the mapping of their rows into what both doors return. */

/** A strategy type as both doors return it (Unleash's strategy shape). */
export interface StrategyDefinition {
  name: string;
  displayName: string | null;
  title: string | null;
  description: string | null;
  /** False for the built-in definitions, which cannot be changed or deleted. */
  editable: boolean;
  deprecated: boolean;
  parameters: StrategyParameter[];
}

export const toParameter = (p: Partial<StrategyParameter> & { name: string }): StrategyParameter => ({
  name: p.name,
  type: p.type ?? 'string',
  description: p.description ?? '',
  required: p.required ?? false,
});

export const toDefinition = (r: StrategyDefinitionRow): StrategyDefinition => ({
  name: r.name,
  displayName: r.display_name ?? null,
  title: r.title ?? null,
  description: r.description ?? null,
  editable: !r.built_in,
  deprecated: r.deprecated,
  parameters: (r.parameters ?? []).map(toParameter),
});

/** Every definition, by sort order then name. */
export async function listDefinitions(em: EntityManager): Promise<StrategyDefinition[]> {
  const rows: StrategyDefinitionRow[] = await em.execute(`select ${STRATEGY_COLUMNS} from strategies order by ${STRATEGY_ORDER}`);
  return rows.map(toDefinition);
}

/** Whether a definition of that name exists (deprecated ones included). */
export async function definitionExists(em: EntityManager, name: string): Promise<boolean> {
  const [{ found }]: Array<{ found: boolean }> = await em.execute('select exists(select 1 from strategies where name = ?) as found', [name]);
  return found;
}
