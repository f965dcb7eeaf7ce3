import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, lockedFindOne, type RowLock } from '../change';
import { NotFoundError, ValidationError } from '../errors';
import type { ProjectRow } from '../projects/project.entity';
import type { TableRow } from '../rows';
import { FeatureTypeSchema, type FeatureTypeRow } from './feature.entity';
import { FEATURE_COLUMNS, toFeatureSummary, type FeatureDbRow, type FeatureEnvironmentDbRow } from './feature.read-model';
import type { FeatureSummary } from './feature.shapes';

/**
 * The SQL of a feature's row: loading it (or 404), locking features, creating one with its configuration in the
 * project's environments, and the writes of its metadata. Archiving, cloning, tags, dependencies, variants and
 * strategies have their own stores.
 */

// ---- load or 404, locks ------------------------------------------------------------------------------------------

/**
 * A feature by name in any project (archived ones only when asked for). Inside a transaction `lock` locks its row
 * (`true` is `update`: every change of a feature or of its environments, strategies and variants takes it first).
 */
export async function loadFeature(em: EntityManager, name: string, opts: { archived?: boolean; lock?: boolean | RowLock } = {}): Promise<FeatureSummary> {
  const lock = opts.lock === true ? 'update' : opts.lock || undefined;
  const rows: FeatureDbRow[] = await em.execute(`select ${FEATURE_COLUMNS} from features where name = ?${lockClause(lock)}`, [name]);
  const feature = rows[0] ? toFeatureSummary(rows[0]) : undefined;
  if (!feature || (opts.archived === false && feature.archived) || (opts.archived === true && !feature.archived)) {
    throw new NotFoundError(`Could not find feature toggle with name ${name}`);
  }
  return feature;
}

/** `loadFeature` of a non-archived feature that must live in `project` (the project in the path). */
export async function loadProjectFeature(em: EntityManager, project: string, name: string, lock: boolean | RowLock = false): Promise<FeatureSummary> {
  const feature = await loadFeature(em, name, { archived: false, lock });
  if (feature.project !== project) throw new NotFoundError(`There's no feature named "${name}" in project "${project}".`);
  return feature;
}

/**
 * Locks the rows of the named features (those that exist) for the rest of the transaction, in name order: changes
 * touching several features lock them all up front in one global order, so two of them can never deadlock.
 */
export async function lockFeatures(em: EntityManager, names: Iterable<string>): Promise<void> {
  const list = [...new Set(names)];
  if (list.length > 0) await em.execute(`select name from features where name in (?) order by name for update`, [list]);
}

/** The environment must exist and be linked to the project. */
export async function assertProjectEnvironment(em: EntityManager, project: string, environment: string): Promise<void> {
  const [{ linked }]: Array<{ linked: boolean | null }> = await em.execute(`select ${PROJECT_ENVIRONMENT_LINKED} as linked`, [project, environment]);
  checkProjectEnvironment(project, environment, linked);
}

/**
 * SQL for a select list: whether the environment (second parameter) is linked to the project (first parameter), null
 * when there is no such environment; `checkProjectEnvironment` judges it.
 */
export const PROJECT_ENVIRONMENT_LINKED = `(select exists (select 1 from project_environments where project_id = ? and environment_name = e.name) from environments e where e.name = ?)`;

/** Throws what `assertProjectEnvironment` throws, from `linked` as PROJECT_ENVIRONMENT_LINKED reads it. */
export function checkProjectEnvironment(project: string, environment: string, linked: boolean | null): void {
  if (linked === null) throw new NotFoundError(`Could not find environment ${environment}`);
  if (!linked) throw ValidationError.single('environment', `You have not added the environment "${environment}" to the project "${project}".`);
}

/** What audit events record of a feature (its row, Unleash's `data` for feature-created and metadata updates). */
export function featureEventData(f: FeatureSummary) {
  return {
    name: f.name, description: f.description, type: f.type, project: f.project, stale: f.stale, createdAt: f.createdAt,
    lastSeenAt: f.lastSeenAt, impressionData: f.impressionData, archivedAt: f.archivedAt, archived: f.archived,
  };
}

// ---- create ------------------------------------------------------------------------------------------------------

/** Whether a feature of that name exists: undefined when the name is free, else whether that feature is archived. */
export async function nameTaken(em: EntityManager, name: string): Promise<{ archived: boolean } | undefined> {
  const rows: Array<{ archived: boolean }> = await em.execute(`select archived_at is not null as archived from features where name = ?`, [name]);
  return rows[0];
}

/** What the create statement reads of the project, the name and the type. */
export type ProjectCheckRow = Pick<TableRow<ProjectRow>, 'feature_limit' | 'feature_naming_pattern' | 'feature_naming_example' | 'feature_naming_description'>
  & { name_taken: boolean | null; type_known: boolean };

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

// ---- metadata ----------------------------------------------------------------------------------------------------

/** Writes a feature's metadata (type, description, impression data, stale). */
export async function updateFeatureMetadata(
  tx: EntityManager, name: string, m: { type: string; description: string | null; impressionData: boolean; stale: boolean },
): Promise<void> {
  await tx.execute(`update features set type = ?, description = ?, impression_data = ?, stale = ? where name = ?`,
    [m.type, m.description, m.impressionData, m.stale, name]);
}

export async function setFeatureStale(tx: EntityManager, name: string, stale: boolean): Promise<void> {
  await tx.execute(`update features set stale = ? where name = ?`, [stale, name]);
}

/** A feature type, or 404; `lock` (inside a change) reads it `for update`, so concurrent changes of it take turns. */
export async function loadFeatureType(em: EntityManager, id: string, lock?: 'update'): Promise<FeatureTypeRow> {
  const row = lock ? await lockedFindOne(em, FeatureTypeSchema, { id }) : await em.findOne(FeatureTypeSchema, { id });
  if (!row) throw new NotFoundError(`Could not find feature type with id ${id}`);
  return row;
}
