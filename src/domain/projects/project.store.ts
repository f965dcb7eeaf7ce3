import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, lockedFindOne, type RowLock } from '../change';
import type { EnvironmentRow } from '../environments/environment.entity';
import { NotFoundError } from '../errors';
import { FeatureStrategySchema } from '../features/feature-strategy.entity';
import type { TableRow } from '../rows';
import { ProjectEnvironmentSchema, ProjectSchema, type ProjectEnvironmentRow, type ProjectRow } from './project.entity';

/** The writes and locks of projects and their environment links (project.service.ts says what each rule is for). */

/**
 * A project's row, or NotFoundError; the one lookup every service uses for the project in a path. Inside a change,
 * `lock` takes the row lock first and then reads the row afresh (never from the identity map): `update` to change or
 * delete it, `no key update` to change its environment links, `share` to create a feature in it (its naming rules,
 * limit and links stay as read), `key share` to make something else belong to it (it stays until commit).
 */
export async function loadProject(em: EntityManager, id: string, lock?: RowLock): Promise<ProjectRow> {
  // `for update` is the ORM's own lock (one statement); the weaker locks are not, so they are taken first in SQL.
  if (lock === 'update') {
    const locked = await lockedFindOne(em, ProjectSchema, { id });
    if (!locked) throw new NotFoundError(`Project with id ${id} does not exist`);
    return locked;
  }
  if (lock) {
    const locked: unknown[] = await em.execute(`select id from projects where id = ?${lockClause(lock)}`, [id]);
    if (locked.length === 0) throw new NotFoundError(`Project with id ${id} does not exist`);
  }
  const row = await em.findOne(ProjectSchema, { id }, lock ? { refresh: true } : {});
  if (!row) throw new NotFoundError(`Project with id ${id} does not exist`);
  return row;
}

/** Locks the environment links of the given projects (`no key update` on their rows, in id order, rule 3 in change.ts). */
export async function lockProjectLinks(em: EntityManager, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await em.execute(`select id from projects where id in (?) order by id for no key update`, [ids as string[]]);
}

/** The environments a new project starts with (every one switched on), by name, read `for share` so they stay on. */
export async function shareEnabledEnvironments(tx: EntityManager): Promise<string[]> {
  const environments: Array<Pick<TableRow<EnvironmentRow>, 'name'>> = await tx.execute(`select name from environments where enabled order by name for share`);
  return environments.map((env) => env.name);
}

/** Whether a project with this id exists. */
export async function projectExists(tx: EntityManager, id: string): Promise<boolean> {
  return (await tx.findOne(ProjectSchema, { id })) !== null;
}

/** The columns a new project is created with (createdAt comes from the database). */
export type NewProject = Pick<ProjectRow, 'id' | 'name' | 'description' | 'mode' | 'defaultStickiness' | 'featureLimit' | 'health'>;

/**
 * A new project, written at once (it fills createdAt, and the links reference it), and its links to `environments`,
 * written with the transaction's next write.
 */
export async function insertProject(tx: EntityManager, fields: NewProject, environments: readonly string[]): Promise<ProjectRow> {
  const row = tx.create(ProjectSchema, fields);
  await tx.flush();
  for (const env of environments) tx.create(ProjectEnvironmentSchema, { projectId: fields.id, environmentName: env, defaultStrategy: null });
  return row;
}

/** Deletes the project (loaded by `loadProject` in this transaction) when the transaction commits. */
export function removeProject(tx: EntityManager, row: ProjectRow): void {
  tx.remove(row);
}

/** The project's link to the environment, if there is one. */
export async function findEnvironmentLink(tx: EntityManager, project: string, environment: string): Promise<ProjectEnvironmentRow | null> {
  return tx.findOne(ProjectEnvironmentSchema, { projectId: project, environmentName: environment });
}

/** Links the environment to the project, at once. */
export async function insertEnvironmentLink(tx: EntityManager, project: string, environment: string): Promise<void> {
  tx.create(ProjectEnvironmentSchema, { projectId: project, environmentName: environment, defaultStrategy: null });
  await tx.flush();
}

/** How many other environments the project is linked to. */
export async function countOtherEnvironmentLinks(tx: EntityManager, project: string, environment: string): Promise<number> {
  return tx.count(ProjectEnvironmentSchema, { projectId: project, environmentName: { $ne: environment } });
}

/** Unlinks the environment from the project, at once. */
export async function deleteEnvironmentLink(tx: EntityManager, link: ProjectEnvironmentRow): Promise<void> {
  tx.remove(link);
  await tx.flush();
}

/**
 * Makes the user (when the user exists) owner of the project. Pending ORM writes (a new project's links) go first, so
 * the statements keep the order of the change.
 */
export async function addProjectOwner(tx: EntityManager, roleId: number, project: string, userId: number): Promise<void> {
  await tx.flush();
  // insert … select: no row (and no error) when the user does not exist.
  await tx.execute('insert into role_user (role_id, user_id, project) select ?, id, ? from users where id = ?', [roleId, project, userId]);
}

/** The project's active and archived features. */
export async function countProjectFeatures(tx: EntityManager, id: string): Promise<{ active: number; archived: number }> {
  // Both counts in one statement (filtered aggregates).
  const [counts]: Array<{ active: number; archived: number }> = await tx.execute(
    `select count(*) filter (where archived_at is null)::int as active, count(*) filter (where archived_at is not null)::int as archived
       from features where project = ?`, [id]);
  return counts;
}

/** An environment about to be added to a project, read `for share` (it stays, and stays on, until the link is in). */
export async function shareEnvironment(tx: EntityManager, environment: string): Promise<Pick<TableRow<EnvironmentRow>, 'enabled'> | undefined> {
  const [env]: Array<Pick<TableRow<EnvironmentRow>, 'enabled'>> = await tx.execute(`select enabled from environments where name = ? for share`, [environment]);
  return env;
}

/** Every feature of the project gets its (disabled) configuration in the environment just added to it. */
export async function addFeatureEnvironments(tx: EntityManager, project: string, environment: string): Promise<void> {
  // insert … select … on conflict: one statement for every feature.
  await tx.execute(
    `insert into feature_environments (feature_name, environment, enabled)
     select name, ?, false from features where project = ? on conflict do nothing`, [environment, project]);
}

/** The configuration (strategies, then environment rows) of the project's features in an environment it drops. */
export async function dropFeatureEnvironments(tx: EntityManager, project: string, environment: string): Promise<void> {
  await tx.nativeDelete(FeatureStrategySchema, { project, environment });
  // A delete joined to features (`using`): SQL.
  await tx.execute(`delete from feature_environments fe using features f where f.name = fe.feature_name and f.project = ? and fe.environment = ?`, [project, environment]);
}
