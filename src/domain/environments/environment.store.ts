import type { EntityManager } from '@mikro-orm/postgresql';
import { lockedFindOne } from '../change';
import { NotFoundError } from '../errors';
import type { TableRow } from '../rows';
import { RolePermissionSchema } from '../access/role.entity';
import { ProjectEnvironmentSchema, type ProjectEnvironmentRow } from '../projects/project.entity';
import { EnvironmentSchema, type EnvironmentRow } from './environment.entity';

/** The loads and writes of environments (environment.service.ts says what each rule is for). */

/** A project's link to an environment, by its project. */
type LinkRow = Pick<TableRow<ProjectEnvironmentRow>, 'project_id'>;

/** The environment, or 404; `lock` (inside a change) reads it `for update`, so concurrent changes of it take turns. */
export async function loadEnvironment(em: EntityManager, name: string, lock?: 'update'): Promise<EnvironmentRow> {
  const row = lock ? await lockedFindOne(em, EnvironmentSchema, { name }) : await em.findOne(EnvironmentSchema, { name });
  if (!row) throw new NotFoundError(`Could not find environment ${name}`);
  return row;
}

/** Whether an environment of this name exists. */
export async function environmentExists(tx: EntityManager, name: string): Promise<boolean> {
  return (await tx.findOne(EnvironmentSchema, { name })) !== null;
}

/** A new environment, written when the transaction commits. */
export function createEnvironment(tx: EntityManager, fields: Pick<EnvironmentRow, 'name' | 'type' | 'sortOrder' | 'enabled' | 'protected'>): EnvironmentRow {
  return tx.create(EnvironmentSchema, fields);
}

/** Deletes the environment (loaded in this transaction) when the transaction commits. */
export function removeEnvironment(tx: EntityManager, row: EnvironmentRow): void {
  tx.remove(row);
}

/** The projects the environment is linked to, by id. */
export async function linkedProjects(tx: EntityManager, name: string): Promise<string[]> {
  // Not kept in the identity map: these are partial entities (the project id only), which a later load must not find.
  const links = await tx.find(ProjectEnvironmentSchema, { environmentName: name }, { fields: ['projectId'], orderBy: { projectId: 'asc' }, disableIdentityMap: true });
  return links.map((l) => l.projectId);
}

/** The projects linked to the environment and to no other one, by id. */
export async function projectsOnlyIn(tx: EntityManager, name: string): Promise<string[]> {
  const orphaned: LinkRow[] = await tx.execute(
    `select pe.project_id from project_environments pe
      where pe.environment_name = ?
        and not exists (select 1 from project_environments o where o.project_id = pe.project_id and o.environment_name <> ?)
      order by pe.project_id`, [name, name]);
  return orphaned.map((o) => o.project_id);
}

/** Custom roles' permissions in the environment. */
export async function deleteEnvironmentPermissions(tx: EntityManager, name: string): Promise<void> {
  await tx.nativeDelete(RolePermissionSchema, { environment: name });
}
