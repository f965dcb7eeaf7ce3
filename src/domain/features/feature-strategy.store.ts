import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors';
import type { ProjectEnvironmentRow, ProjectRow } from '../projects/project.entity';
import type { TableRow } from '../rows';
import type { SegmentSchema } from '../segments/segment.entity';
import type { FeatureStrategyRow } from './feature-strategy.entity';
import { FeatureReadModel } from './feature.read-model';
import type { FeatureStrategy } from './feature.shapes';
import { PROJECT_ENVIRONMENT_LINKED } from './feature.store';

/**
 * The SQL of strategies: loading one (or 404), inserting a strategy row and its segments, updating, ordering and
 * deleting strategies, and reading what a strategy refers to.
 */

/** A strategy of the feature in the environment, by id (its environment left out, as the doors show it). */
export async function loadStrategy(em: EntityManager, feature: string, environment: string, id: string): Promise<FeatureStrategy> {
  const found = (await new FeatureReadModel(em).strategiesById([id])).get(id);
  if (!found || found.featureName !== feature || found.environment !== environment) {
    throw new NotFoundError(`Could not find strategy with id ${id} for feature ${feature} in environment ${environment}`);
  }
  const { environment: _env, ...strategy } = found;
  return strategy;
}

/** What the audit log records of a strategy (Unleash's feature-strategy-add/update/remove data). */
export const strategyEventData = (s: FeatureStrategy) => ({
  id: s.id, name: s.name, title: s.title, disabled: s.disabled, constraints: s.constraints, parameters: s.parameters,
  variants: s.variants, sortOrder: s.sortOrder, segments: s.segments,
});

/**
 * The values of a strategy row for an insert (the columns of STRATEGY_COLUMNS), typed so they also serve an
 * `insert … select`. With `appendAfterLast` its sort order is one more than the largest of the feature's strategies in
 * the environment, read by the insert itself (after the feature's lock).
 */
export const STRATEGY_COLUMNS = 'id, feature_name, project, environment, strategy_name, title, parameters, constraints, variants, sort_order, disabled';
export function strategyValues(project: string, environment: string, strategy: FeatureStrategy, appendAfterLast: boolean): { sql: string; params: unknown[] } {
  const sortOrder = appendAfterLast ? '(select coalesce(max(sort_order) + 1, 0) from feature_strategies where feature_name = ? and environment = ?)' : '?::int';
  return {
    sql: `?::uuid, ?::text, ?::text, ?::text, ?::text, ?::text, ?::jsonb, ?::jsonb, ?::jsonb, ${sortOrder}, ?::boolean`,
    params: [strategy.id, strategy.featureName, project, environment, strategy.name, strategy.title, JSON.stringify(strategy.parameters),
      JSON.stringify(strategy.constraints), JSON.stringify(strategy.variants), ...(appendAfterLast ? [strategy.featureName, environment] : [strategy.sortOrder]), strategy.disabled],
  };
}

/**
 * Inserts a strategy already in stored form (validated, or copied from a stored one) with its segment links. Adding a
 * strategy and cloning a feature both go through here. Returns the strategy as stored (its sort order computed with
 * `appendAfterLast`, see strategyValues).
 */
export async function insertStrategy(tx: EntityManager, project: string, environment: string, strategy: FeatureStrategy, appendAfterLast = false): Promise<FeatureStrategy> {
  const values = strategyValues(project, environment, strategy, appendAfterLast);
  const [row]: Array<Pick<TableRow<FeatureStrategyRow>, 'sort_order'>> = await tx.execute(
    `insert into feature_strategies (${STRATEGY_COLUMNS}) values (${values.sql}) returning sort_order`, values.params);
  await writeSegments(tx, strategy.id, strategy.segments, false);
  return { ...strategy, sortOrder: row.sort_order };
}

export async function writeSegments(tx: EntityManager, id: string, segments: number[], replace: boolean): Promise<void> {
  if (replace) await tx.execute(`delete from feature_strategy_segments where feature_strategy_id = ?`, [id]);
  if (segments.length > 0) {
    await tx.execute(`insert into feature_strategy_segments (feature_strategy_id, segment_id) select ?::uuid, unnest(?::int[])`, [id, `{${segments.join(',')}}`]);
  }
}

/** A project environment's default-strategy setting and its project's default stickiness, as stored. */
export type DefaultStrategySetting = Pick<TableRow<ProjectEnvironmentRow>, 'default_strategy'> & Pick<TableRow<ProjectRow>, 'default_stickiness'>;

/** Reads the default-strategy settings of a project's environments, by environment name. */
export async function defaultStrategySettings(em: EntityManager, project: string, environments: readonly string[]): Promise<Map<string, DefaultStrategySetting>> {
  if (environments.length === 0) return new Map();
  const rows: Array<DefaultStrategySetting & { environment: string }> = await em.execute(
    `select pe.environment_name as environment, pe.default_strategy, p.default_stickiness from project_environments pe join projects p on p.id = pe.project_id
      where pe.project_id = ? and pe.environment_name in (?)`, [project, [...environments]]);
  return new Map(rows.map((r) => [r.environment, r]));
}

/** What `definitionsCheck` reads. */
export interface DefinitionsRow {
  definition: string | null;
  fields: Record<string, Array<{ value: string }> | null> | null;
  linked?: boolean | null;
}

/**
 * One select of what a strategy refers to: its definition (read `for key share`, rule 1 in change.ts), the legal values
 * of the context fields its constraints name, and, given `link`, whether the environment is linked to the project.
 */
export function definitionsCheck(data: { name: string; constraints?: Array<{ contextName: string }> }, link?: { project: string; environment: string }): { sql: string; params: unknown[] } {
  const fieldNames = [...new Set((data.constraints ?? []).map((c) => c.contextName))];
  return {
    sql: `select (select name from strategies where name = ? for key share) as definition,
              ${fieldNames.length === 0 ? 'null::jsonb' : '(select jsonb_object_agg(name, legal_values) from context_fields where name in (?))'} as fields
              ${link === undefined ? '' : `, ${PROJECT_ENVIRONMENT_LINKED} as linked`}`,
    params: [data.name, ...(fieldNames.length === 0 ? [] : [fieldNames]), ...(link === undefined ? [] : [link.project, link.environment])],
  };
}

/**
 * One statement that reads what `definitionsCheck` reads and inserts the strategy (in the values of `strategyValues`)
 * when its definition exists, `passed` (the checks that need no database passed) and, with `link`, the environment is
 * linked to the project; the inserted row's sort order is null when nothing was inserted.
 */
export async function insertStrategyWhenValid(
  tx: EntityManager, refers: { name: string; constraints?: Array<{ contextName: string }> }, link: { project: string; environment: string } | undefined,
  values: { sql: string; params: unknown[] }, passed: boolean,
): Promise<DefinitionsRow & { sort_order: number | null }> {
  const check = definitionsCheck(refers, link);
  const [row]: Array<DefinitionsRow & { sort_order: number | null }> = await tx.execute(
    `with chk as (${check.sql}),
       s as (insert into feature_strategies (${STRATEGY_COLUMNS}) select ${values.sql} from chk
              where chk.definition is not null${link !== undefined ? ' and chk.linked' : ''} and ${passed ? 'true' : 'false'} returning sort_order)
       select chk.*, (select sort_order from s) as sort_order from chk`,
    [...check.params, ...values.params]);
  return row;
}

/** What `definitionsCheck` reads, alone. */
export async function readDefinitions(tx: EntityManager, refers: { name: string; constraints?: Array<{ contextName: string }> }, link?: { project: string; environment: string }): Promise<DefinitionsRow> {
  const check = definitionsCheck(refers, link);
  const [row]: DefinitionsRow[] = await tx.execute(check.sql, check.params);
  return row;
}

/** The segments among `ids` (ascending, distinct) that exist, with their project, read `for share`. */
export async function lockSegments(tx: EntityManager, ids: number[]): Promise<Array<Pick<TableRow<InferEntity<typeof SegmentSchema>>, 'id' | 'project'>>> {
  return tx.execute(`select id, project from segments where id in (?) order by id for share`, [ids]);
}

/** Writes a strategy's row (its segments are written by `writeSegments`). */
export async function updateStrategy(tx: EntityManager, id: string, strategy: FeatureStrategy): Promise<void> {
  await tx.execute(
    `update feature_strategies set strategy_name = ?, title = ?, parameters = ?::jsonb, constraints = ?::jsonb, variants = ?::jsonb, sort_order = ?, disabled = ? where id = ?`,
    [strategy.name, strategy.title, JSON.stringify(strategy.parameters), JSON.stringify(strategy.constraints), JSON.stringify(strategy.variants), strategy.sortOrder, strategy.disabled, id]);
}

export async function setStrategySortOrder(tx: EntityManager, id: string, sortOrder: number): Promise<void> {
  await tx.execute(`update feature_strategies set sort_order = ? where id = ?`, [sortOrder, id]);
}

export async function enableStrategy(tx: EntityManager, id: string): Promise<void> {
  await tx.execute(`update feature_strategies set disabled = false where id = ?`, [id]);
}

export async function deleteStrategy(tx: EntityManager, id: string): Promise<void> {
  await tx.execute(`delete from feature_strategies where id = ?`, [id]);
}
