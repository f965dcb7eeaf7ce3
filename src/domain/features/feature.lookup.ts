import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import { NotFoundError, ValidationError } from '../errors';
import { FEATURE_COLUMNS, toFeatureSummary, type FeatureSummary } from './feature.read-model';

/** Lookups shared by the feature services; each throws the error a missing thing deserves. */

/**
 * A feature by name in any project (archived ones only when asked for). Inside a transaction `lock` locks its row
 * (`true` is `update`: every change of a feature or of its environments, strategies and variants takes it first).
 */
export async function loadFeature(em: EntityManager, name: string, opts: { archived?: boolean; lock?: boolean | RowLock } = {}): Promise<FeatureSummary> {
  const lock = opts.lock === true ? 'update' : opts.lock || undefined;
  const rows = await em.execute(`select ${FEATURE_COLUMNS} from features where name = ?${lockClause(lock)}`, [name]);
  const feature = rows[0] ? toFeatureSummary(rows[0] as never) : undefined;
  if (!feature || (opts.archived === false && feature.archived) || (opts.archived === true && !feature.archived)) {
    throw new NotFoundError(`Could not find feature toggle with name ${name}`);
  }
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

/** A non-archived feature that must live in `project` (the project in the path). */
export async function loadProjectFeature(em: EntityManager, project: string, name: string, lock: boolean | RowLock = false): Promise<FeatureSummary> {
  const feature = await loadFeature(em, name, { archived: false, lock });
  if (feature.project !== project) throw new NotFoundError(`There's no feature named "${name}" in project "${project}".`);
  return feature;
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
