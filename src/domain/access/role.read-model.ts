import type { EntityManager } from '@mikro-orm/postgresql';
import { EnvironmentSchema } from '../environments/environment.entity';
import { PERMISSION_BY_NAME, PERMISSIONS, type PermissionDefinition } from './permissions';
import type { TableRow } from '../rows';
import { RoleSchema, type PermissionRow, type RolePermissionRow, type RoleRow } from './role.entity';
import type { Permission, PermissionListing, Role } from './role.shapes';

/** A role row as insert and update return it (`returning`). */
export type RoleDbRow = Pick<TableRow<RoleRow>, 'id' | 'name' | 'type' | 'description'>;
/** A row of `role_permissions`: a permission by name (`permission as name`), with its environment (environment permissions only). */
export type StoredPermission = { name: TableRow<RolePermissionRow>['permission'] } & Pick<TableRow<RolePermissionRow>, 'environment'>;

/** A role from its entity (loads, lists) or its raw row (`returning`). */
export const toRole = (r: RoleDbRow | Pick<RoleRow, 'id' | 'name' | 'type' | 'description'>): Role => ({ id: r.id, name: r.name, type: r.type, description: r.description ?? '' });

const listed = (p: PermissionDefinition, environment?: string): Permission => ({
  id: p.id, name: p.name, displayName: p.displayName, type: p.type, ...(environment === undefined ? {} : { environment }),
});

const BY_NAME_ID = (name: string) => PERMISSION_BY_NAME.get(name)?.id ?? 0;

/** Permissions in a stable order (events compare and show them so). */
export function sorted(list: StoredPermission[]): StoredPermission[] {
  return [...list].sort((a, b) => (BY_NAME_ID(a.name) - BY_NAME_ID(b.name)) || (a.environment ?? '').localeCompare(b.environment ?? ''));
}

function toListed(list: StoredPermission[]): Permission[] {
  return sorted(list).flatMap((p) => {
    const def = PERMISSION_BY_NAME.get(p.name);
    return def ? [listed(def, p.environment ?? undefined)] : [];
  });
}

/** Every permission, environment permissions once per environment (in the environments' order). */
export async function permissionListing(em: EntityManager): Promise<PermissionListing> {
  const environments = await em.find(EnvironmentSchema, {}, { fields: ['name'], orderBy: { sortOrder: 'asc', name: 'asc' }, disableIdentityMap: true });
  const environmentPermissions = PERMISSIONS.filter((p) => p.type === 'environment');
  return {
    version: 1,
    permissions: {
      root: PERMISSIONS.filter((p) => p.type === 'root').map((p) => listed(p)),
      project: PERMISSIONS.filter((p) => p.type === 'project').map((p) => listed(p)),
      environments: environments.map((e) => ({ name: e.name, permissions: environmentPermissions.map((p) => listed(p, e.name)) })),
    },
  };
}

export async function listRoles(em: EntityManager): Promise<Role[]> {
  const rows = await em.find(RoleSchema, {}, { orderBy: { id: 'asc' }, disableIdentityMap: true });
  return rows.map(toRole);
}

/**
 * The role's permissions as stored, in no particular order. SQL, like every read of role_permissions: the ORM would
 * put its rows in the identity map, where a null environment is no key (role.entity.ts).
 */
export async function storedPermissions(em: EntityManager, roleId: number): Promise<StoredPermission[]> {
  return em.execute('select permission as name, environment from role_permissions where role_id = ?', [roleId]);
}

/** The role's permissions as listed. */
export async function listedPermissions(em: EntityManager, roleId: number): Promise<Permission[]> {
  return toListed(await storedPermissions(em, roleId));
}

/** Several roles with their permissions, in one query (GraphQL's Role.permissions). */
export async function permissionsOf(em: EntityManager, ids: readonly number[]): Promise<Permission[][]> {
  const rows: Array<StoredPermission & Pick<TableRow<RolePermissionRow>, 'role_id'>> = ids.length === 0 ? [] : await em.execute(
    'select role_id, permission as name, environment from role_permissions where role_id in (?)', [[...ids]]);
  const byRole = new Map<number, StoredPermission[]>();
  for (const r of rows) byRole.set(r.role_id, [...(byRole.get(r.role_id) ?? []), r]);
  return ids.map((id) => toListed(byRole.get(id) ?? []));
}

/** A permission the user holds through a role, and where: `project` null for root roles (their own and their groups'). */
export type HeldPermissionRow = Pick<TableRow<RolePermissionRow>, 'permission' | 'environment'> & Pick<TableRow<PermissionRow>, 'type'> & {
  project: string | null;
};

/**
 * Every permission of the roles a user holds, in one statement: the root role, the root roles of the user's groups,
 * the project roles the user holds (`role_user`) and those the user's groups hold (`group_role`).
 */
export async function heldPermissions(em: EntityManager, rootRoleId: number | null, userId: number | null): Promise<HeldPermissionRow[]> {
  return em.execute(
    `with held (role_id, project) as (
       select ?::int, null::text
       union all select g.root_role_id, null from group_user gu join groups g on g.id = gu.group_id where gu.user_id = ? and g.root_role_id is not null
       union all select role_id, project from role_user where user_id = ?
       union all select gr.role_id, gr.project from group_user gu join group_role gr on gr.group_id = gu.group_id where gu.user_id = ?
     )
     select distinct rp.permission, p.type, rp.environment, held.project
       from held join role_permissions rp on rp.role_id = held.role_id join permissions p on p.name = rp.permission`,
    [rootRoleId, userId, userId, userId],
  );
}
