import type { EntityManager } from '@mikro-orm/postgresql';
import { FEATURE_COLUMNS, type FeatureDbRow, type FeatureEnvironmentDbRow } from './feature.read-model';

/** The SQL of creating a feature: its row and its configuration in the project's environments, in one statement. */

/** What the create statement reads of the project, the name and the type. */
export interface ProjectCheckRow {
  feature_limit: number | null;
  feature_naming_pattern: string | null;
  feature_naming_example: string | null;
  feature_naming_description: string | null;
  name_taken: boolean | null;
  type_known: boolean;
}

export type InsertedFeatureRow = FeatureDbRow & { environments: FeatureEnvironmentDbRow[] };

/**
 * The CTEs `f` (the feature row, from the 8 values of a create, inserted when `source` (a FROM and WHERE over other
 * CTEs, or nothing) gives a row) and `fe` (its disabled configuration in every environment linked to the project).
 */
const insertFeatureCtes = (source: string) => `f as (
         insert into features (name, project, type, description, stale, impression_data, created_at, created_by_user_id)
         select ?::text, ?::text, ?::text, ?::text, ?::boolean, ?::boolean, ?::timestamptz, ?::int ${source}
         on conflict (name) do nothing returning ${FEATURE_COLUMNS}),
       fe as (
         insert into feature_environments (feature_name, environment, enabled)
         select f.name, pe.environment_name, false from f join project_environments pe on pe.project_id = f.project
         returning feature_name, environment, enabled, variants, last_seen_at)`;

/** The environment rows `fe` inserted, as the read model shows them: switched-on environments, in order, no strategies. */
const INSERTED_ENVIRONMENTS = `coalesce((select json_agg(json_build_object('feature_name', fe.feature_name, 'environment', fe.environment,
         'enabled', fe.enabled, 'variants', fe.variants, 'last_seen_at', fe.last_seen_at, 'type', e.type, 'sort_order', e.sort_order,
         'strategy_count', 0, 'enabled_count', 0) order by e.sort_order, e.name)
         from fe join environments e on e.name = fe.environment and e.enabled), '[]')`;

/**
 * One statement: the project read `for share` (none: no project), whether `name` is taken (null: free; true: by an
 * archived feature) and whether `type` exists, and the feature inserted with its environment rows when none of these
 * refuses it and the project has no feature limit (`values`: name, project, type, description, stale, impression data,
 * created at, created by; `inserted` absent when it was not).
 */
export async function checkAndInsertFeature(tx: EntityManager, project: string, type: string, values: unknown[]): Promise<(ProjectCheckRow & { inserted?: InsertedFeatureRow }) | undefined> {
  const [row]: Array<ProjectCheckRow & Partial<InsertedFeatureRow>> = await tx.execute(
    `with p as (
       select p.id, p.feature_limit, p.feature_naming_pattern, p.feature_naming_example, p.feature_naming_description,
              (select archived_at is not null from features where name = ?) as name_taken,
              exists (select 1 from feature_types where id = ?) as type_known
         from projects p where p.id = ? for share of p),
     ${insertFeatureCtes('from p where p.name_taken is null and p.type_known and p.feature_limit is null')}
     select p.feature_limit, p.feature_naming_pattern, p.feature_naming_example, p.feature_naming_description, p.name_taken, p.type_known,
            f.*, ${INSERTED_ENVIRONMENTS} as environments
       from p left join f on true`,
    [values[0], type, project, ...values]);
  if (!row) return undefined;
  return { ...row, inserted: row.name === null || row.name === undefined ? undefined : row as InsertedFeatureRow };
}

/** The insert alone (the same `values`), for a create that had to count the project's features first. */
export async function insertFeatureRows(tx: EntityManager, values: unknown[]): Promise<InsertedFeatureRow | undefined> {
  const [row]: InsertedFeatureRow[] = await tx.execute(`with ${insertFeatureCtes('')} select f.*, ${INSERTED_ENVIRONMENTS} as environments from f`, values);
  return row;
}

/**
 * The project's active features, counted under the lock every change of that count takes (rule 2 in change.ts): an
 * advisory lock per project, since creating a feature only shares the project row. Creating a feature in a limited
 * project and moving one into it both count through here, so concurrent ones take turns and see each other's rows.
 */
export async function countActiveFeaturesForLimit(tx: EntityManager, project: string): Promise<number> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`features.limit:${project}`]);
  const [{ count }]: Array<{ count: number }> = await tx.execute(`select count(*)::int as count from features where project = ? and archived_at is null`, [project]);
  return count;
}
