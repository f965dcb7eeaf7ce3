import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import { NotFoundError } from '../errors';
import { StrategyDefinitionSchema } from './strategy-definition.entity';
import { STRATEGY_COLUMNS, type StrategyDefinitionDbRow } from './strategy-definition.read-model';
import type { StrategyParameter } from './strategy-definition.shapes';

/** The writes and locks of strategy types (strategy-definition.service.ts says what each rule is for). */

/** The message of an unknown strategy type; feature strategies reuse it for their 400. */
export const strategyNotFoundMessage = (name: string) => `Could not find strategy type with name ${name}`;

/**
 * The row, or 404. `lock` (inside a change) takes a row lock so a change cannot interleave with another on the same
 * definition. SQL: its row is mapped like the one `insertDefinition` returns, and the changes that follow are statements.
 */
export async function loadStrategyDefinition(em: EntityManager, name: string, lock?: RowLock): Promise<StrategyDefinitionDbRow> {
  const rows: StrategyDefinitionDbRow[] = await em.execute(
    `select ${STRATEGY_COLUMNS} from strategies where name = ?${lockClause(lock)}`, [name]);
  if (rows.length === 0) throw new NotFoundError(strategyNotFoundMessage(name));
  return rows[0];
}

/** The texts and parameters of a custom definition. */
export interface DefinitionFields {
  displayName: string | null;
  title: string | null;
  description: string | null;
  parameters: StrategyParameter[];
}

/**
 * Inserts a custom definition; undefined when the name is taken. `on conflict do nothing` keeps a concurrent create of
 * the same name a 409 instead of a unique-violation 500.
 */
export async function insertDefinition(tx: EntityManager, name: string, d: DefinitionFields): Promise<StrategyDefinitionDbRow | undefined> {
  const rows: StrategyDefinitionDbRow[] = await tx.execute(
    `insert into strategies (name, display_name, title, description, parameters, built_in, deprecated)
          values (?, ?, ?, ?, ?::jsonb, false, false)
     on conflict (name) do nothing
     returning ${STRATEGY_COLUMNS}`,
    [name, d.displayName, d.title, d.description, JSON.stringify(d.parameters)],
  );
  return rows[0];
}

export async function updateDefinition(tx: EntityManager, name: string, d: DefinitionFields): Promise<void> {
  await tx.nativeUpdate(StrategyDefinitionSchema, { name }, { displayName: d.displayName, title: d.title, description: d.description, parameters: d.parameters });
}

export async function setDefinitionDeprecated(tx: EntityManager, name: string, deprecated: boolean): Promise<void> {
  await tx.nativeUpdate(StrategyDefinitionSchema, { name }, { deprecated });
}

/** Distinct features (archived included) whose strategies are of the type. */
export async function countFeaturesUsingDefinition(tx: EntityManager, name: string): Promise<number> {
  const [{ features }]: Array<{ features: number }> = await tx.execute(
    'select count(distinct feature_name)::int as features from feature_strategies where strategy_name = ?', [name]);
  return features;
}

export async function deleteDefinition(tx: EntityManager, name: string): Promise<void> {
  await tx.nativeDelete(StrategyDefinitionSchema, { name });
}
