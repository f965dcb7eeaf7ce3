import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors';
import { ProjectEnvironmentSchema, ProjectSchema } from '../projects/project.entity';
import { toConfig, type ConfigRow } from './change-request-config.read-model';
import type { ChangeRequestConfig } from './change-request.shapes';

/**
 * The SQL of the change-request settings of project environments: reading them under a row lock (a configuration
 * change takes it `for update`; a new change request and the guard of direct changes rely on it `for share`), and
 * writing them.
 */

/**
 * An environment's change-request settings in a project, read with a row lock inside a transaction; 404 naming the
 * project or the environment when the project has no such environment.
 */
export async function loadProjectEnvironmentConfig(tx: EntityManager, project: string, environment: string, lock: 'update' | 'share'): Promise<ChangeRequestConfig> {
  // SQL: joined to the environment's type, locking only the project environment's row (`of pe`).
  const [row]: ConfigRow[] = await tx.execute(
    `select pe.environment_name as environment, e.type, pe.change_requests_enabled, pe.required_approvals
       from project_environments pe join environments e on e.name = pe.environment_name
      where pe.project_id = ? and pe.environment_name = ? for ${lock} of pe`,
    [project, environment],
  );
  if (row) return toConfig(row);
  if ((await tx.count(ProjectSchema, { id: project })) === 0) throw new NotFoundError('No project found');
  throw new NotFoundError(`The environment "${environment}" is not enabled in project "${project}"`);
}

export async function updateProjectEnvironmentConfig(tx: EntityManager, project: string, environment: string, config: ChangeRequestConfig): Promise<void> {
  await tx.nativeUpdate(ProjectEnvironmentSchema, { projectId: project, environmentName: environment },
    { changeRequestsEnabled: config.changeRequestsEnabled, requiredApprovals: config.requiredApprovals });
}

/**
 * The environments of the project (`only` those, when given) where change requests are enabled, by name, read
 * `for share` so a configuration change waits for the change relying on them.
 */
export async function lockChangeRequestEnvironments(tx: EntityManager, project: string, only?: readonly string[]): Promise<string[]> {
  const rows: Array<{ environment: string }> = await tx.execute(
    `select environment_name as environment from project_environments
      where project_id = ? and change_requests_enabled${only === undefined ? '' : ' and environment_name in (?)'}
      order by environment_name for share`,
    only === undefined ? [project] : [project, only],
  );
  return rows.map((r) => r.environment);
}

/** The first environment (by name) of the project where change requests are enabled, read `for share`. */
export async function firstChangeRequestEnvironment(tx: EntityManager, project: string): Promise<string | undefined> {
  const [row]: Array<{ environment: string }> = await tx.execute(
    'select environment_name as environment from project_environments where project_id = ? and change_requests_enabled order by environment_name limit 1 for share', [project]);
  return row?.environment;
}
