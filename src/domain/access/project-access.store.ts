import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import { NotFoundError } from '../errors';
import { ROLE_OWNER } from './permissions';
import { GroupRoleSchema, RoleUserSchema, type GroupRoleRow, type RoleUserRow } from './project-access.entity';

/**
 * The SQL of project access: the project roles of users (`role_user`) and groups (`group_role`) in a project. The
 * insert of a holder's new roles goes through the ORM; SQL stays for the project's load (`for no key update`, which
 * the ORM does not take), `on conflict do nothing`, the delete whose `returning` rows are the roles held before, the
 * owners' count, and `for key share`.
 */

export type Holder = 'user' | 'group';
const HOLDER = {
  user: { table: 'role_user', column: 'user_id', owner: 'users' },
  group: { table: 'group_role', column: 'group_id', owner: 'groups' },
} as const;

/** That the project exists, or 404; `lock` takes its row lock. */
export async function loadAccessProject(em: EntityManager, project: string, lock?: RowLock): Promise<void> {
  const rows: unknown[] = await em.execute(`select 1 from projects where id = ?${lockClause(lock)}`, [project]);
  if (rows.length === 0) throw new NotFoundError(`Could not find project with id ${project}.`);
}

/** Every role to every user in the project (roles already held stay). */
export async function addUserRoles(tx: EntityManager, project: string, roles: number[], users: number[]): Promise<void> {
  await tx.execute(`insert into role_user (role_id, user_id, project) select r::int, u::int, ? from jsonb_array_elements_text(?::jsonb) r cross join jsonb_array_elements_text(?::jsonb) u on conflict do nothing`,
    [project, JSON.stringify(roles), JSON.stringify(users)]);
}

/** Every role to every group in the project (roles already held stay), given by `createdBy`. */
export async function addGroupRoles(tx: EntityManager, project: string, roles: number[], groups: number[], createdBy: string): Promise<void> {
  await tx.execute(`insert into group_role (role_id, group_id, project, created_by) select r::int, g::int, ?, ? from jsonb_array_elements_text(?::jsonb) r cross join jsonb_array_elements_text(?::jsonb) g on conflict do nothing`,
    [project, createdBy, JSON.stringify(roles), JSON.stringify(groups)]);
}

/** Sets the holder's roles in the project to `roles`; returns the ids held before, sorted. */
export async function replaceRoles(tx: EntityManager, project: string, holder: Holder, holderId: number, roles: number[]): Promise<number[]> {
  const h = HOLDER[holder];
  const removed: Array<{ role_id: number }> = await tx.execute(`delete from ${h.table} where project = ? and ${h.column} = ? returning role_id`, [project, holderId]);
  const distinct = [...new Set(roles)];
  if (distinct.length && holder === 'user') await tx.insertMany<RoleUserRow>(RoleUserSchema, distinct.map((roleId) => ({ roleId, userId: holderId, project })));
  if (distinct.length && holder === 'group') await tx.insertMany<GroupRoleRow>(GroupRoleSchema, distinct.map((roleId) => ({ roleId, groupId: holderId, project })));
  return removed.map((r) => r.role_id).sort((a, b) => a - b);
}

/** How many Owner grants the project has (users and groups). */
export async function countOwners(tx: EntityManager, project: string): Promise<number> {
  const [{ owners }]: Array<{ owners: number | string }> = await tx.execute(
    `select (select count(*) from role_user where project = ? and role_id = ?) + (select count(*) from group_role where project = ? and role_id = ?) as owners`,
    [project, ROLE_OWNER, project, ROLE_OWNER]);
  return Number(owners);
}

/** Which of these roles are project roles, each held `for key share` until commit. */
export async function shareProjectRoles(tx: EntityManager, roles: number[]): Promise<Set<number>> {
  const found: Array<{ id: number }> = await tx.execute(`select id from roles where id in (?) and type in ('project', 'custom') for key share`, [roles]);
  return new Set(found.map((r) => r.id));
}

/** Which of these users (or groups) exist, each held `for key share` until commit. */
export async function shareHolders(tx: EntityManager, holder: Holder, ids: number[]): Promise<Set<number>> {
  const found: Array<{ id: number }> = await tx.execute(`select id from ${HOLDER[holder].owner} where id in (?) for key share`, [ids]);
  return new Set(found.map((r) => r.id));
}
