import type { EntityManager } from '@mikro-orm/postgresql';
import { lockedFindOne } from '../change';
import { NotFoundError } from '../errors';
import { rowId } from '../validation';
import { RolePermissionSchema, RoleSchema, type RoleRow } from './role.entity';
import type { RoleDbRow, StoredPermission } from './role.read-model';

/**
 * The SQL of roles and their permissions (role.service.ts says what each rule is for). The load, deletes and the
 * permissions' insert go through the ORM (role_permissions only through immediate statements, never its identity
 * map: role.entity.ts says why); SQL stays for the `returning` rows of insert and update, case-insensitive names
 * (`lower()`), the holders' counts, and `for key share`, which is no lock the ORM takes.
 */

/** The role, or 404 for an id that is not a positive integer or names no role; `lock` (inside a change) reads it `for update`. */
export async function loadRole(em: EntityManager, id: string | number, lock?: 'update'): Promise<RoleRow> {
  const n = rowId(id);
  if (n === undefined) throw new NotFoundError(`Could not find role with id ${String(id)}.`);
  const row = lock ? await lockedFindOne(em, RoleSchema, { id: n }) : await em.findOne(RoleSchema, { id: n }, { refresh: true });
  if (!row) throw new NotFoundError(`Could not find role with id ${n}.`);
  return row;
}

/** The role given by id or by name (any case), held `for key share` until commit, if any. */
export async function shareRoleRef(em: EntityManager, ref: number | string): Promise<{ id: number; type: string } | undefined> {
  const rows: Array<{ id: number; type: string }> = typeof ref === 'number'
    ? await em.execute('select id, type from roles where id = ? for key share', [ref])
    : await em.execute('select id, type from roles where lower(name) = lower(?) for key share', [ref]);
  return rows[0];
}

/** Whether a role has this name, whatever its case. */
export async function roleNameTaken(tx: EntityManager, name: string): Promise<boolean> {
  const taken: unknown[] = await tx.execute('select 1 from roles where lower(name) = lower(?)', [name]);
  return taken.length > 0;
}

export async function insertRole(tx: EntityManager, role: { name: string; type: string; description: string }): Promise<RoleDbRow> {
  const [row]: RoleDbRow[] = await tx.execute('insert into roles (name, type, description) values (?, ?, ?) returning id, name, type, description',
    [role.name, role.type, role.description]);
  return row;
}

export async function updateRole(tx: EntityManager, id: number, role: { name: string; type: string; description: string }): Promise<RoleDbRow> {
  const [updated]: RoleDbRow[] = await tx.execute('update roles set name = ?, type = ?, description = ? where id = ? returning id, name, type, description',
    [role.name, role.type, role.description, id]);
  return updated;
}

export async function deleteRole(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeDelete(RoleSchema, { id });
}

export async function deleteRolePermissions(tx: EntityManager, roleId: number): Promise<void> {
  await tx.nativeDelete(RolePermissionSchema, { roleId });
}

export async function insertRolePermissions(tx: EntityManager, roleId: number, permissions: StoredPermission[]): Promise<void> {
  if (permissions.length === 0) return;
  await tx.insertMany(RolePermissionSchema, permissions.map((p) => ({ roleId, permission: p.name, environment: p.environment ?? null })));
}

/** How many hold the role, by kind of holding. */
export interface RoleHolderCounts {
  root_users: number;
  project_users: number;
  root_groups: number;
  project_groups: number;
  signup_tokens: number;
}

/** Who holds the role, counted: users and groups (root role and project roles), and signup links. */
export async function countRoleHolders(tx: EntityManager, roleId: number): Promise<RoleHolderCounts> {
  const [c]: RoleHolderCounts[] = await tx.execute(
    `select (select count(*)::int from users where root_role_id = ?) as root_users,
            (select count(distinct user_id)::int from role_user where role_id = ?) as project_users,
            (select count(*)::int from groups where root_role_id = ?) as root_groups,
            (select count(distinct group_id)::int from group_role where role_id = ?) as project_groups,
            (select count(*)::int from public_signup_tokens where role_id = ?) as signup_tokens`,
    [roleId, roleId, roleId, roleId, roleId]);
  return c;
}

/** Which of these environments exist, held `for key share` until commit. */
export async function shareEnvironments(tx: EntityManager, names: string[]): Promise<Set<string>> {
  const found: Array<{ name: string }> = await tx.execute('select name from environments where name in (?) for key share', [names]);
  return new Set(found.map((f) => f.name));
}
