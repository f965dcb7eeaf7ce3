import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { InvalidOperationError, NameExistsError, RoleInUseError, ValidationError } from '../errors';
import { parse, sameJson } from '../validation';
import type { AccessService } from './access.service';
import { ADMIN, PERMISSION_BY_NAME, PERMISSIONS, PREDEFINED_ROLES, type PermissionDefinition } from './permissions';
import type { Principal } from './principal';
import {
  listedPermissions, listRoles, permissionListing, permissionsOf, sorted, storedPermissions, toRole, type StoredPermission,
} from './role.read-model';
import type { Permission, PermissionListing, Role, RoleSaved, RoleWithPermissions } from './role.shapes';
import {
  countRoleHolders, deleteRole, deleteRolePermissions, insertRole, insertRolePermissions, loadRole, roleNameTaken, shareEnvironments, updateRole,
} from './role.store';

const BUILT_IN_IDS: ReadonlySet<number> = new Set(PREDEFINED_ROLES.map((r) => r.id));
const BY_ID: ReadonlyMap<number, PermissionDefinition> = new Map(PERMISSIONS.map((p) => [p.id, p]));

/**
 * A permission of a role body: by `id` or `name` (spec endpoint 17, both forms). `displayName` and `type` are
 * accepted and ignored, so a permission read from GET /api/admin/roles/:id can be sent back as it is.
 */
const permissionRef = z.object({
  id: z.number().int().min(1).max(2_147_483_647).optional(),
  name: z.string().min(1).max(100).optional(),
  environment: z.string().max(100).nullable().optional(),
  displayName: z.string().max(255).optional(),
  type: z.string().max(100).optional(),
}).strict();
export const roleSchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).nullable().optional(),
  /** `root-custom` makes a custom root role; anything else a custom project role (as Unleash does). */
  type: z.string().max(100).nullable().optional(),
  permissions: z.array(permissionRef).max(1000).optional(),
}).strict();

type RoleBody = z.output<typeof roleSchema>;

/** What an audit event records of a role (reference endpoint 17). */
const eventData = (r: Role, permissions: StoredPermission[]) => ({
  id: r.id, name: r.name, description: r.description, type: r.type,
  permissions: permissions.map((p) => ({ name: p.name, ...(p.environment ? { environment: p.environment } : {}) })),
});

/**
 * Roles and the permission listing (issue 9, spec endpoints 12 and 17). Creating, changing and deleting a role needs
 * ADMIN, as in Unleash; reading is open to any authenticated admin-API principal. The predefined roles (ids 1-5) are
 * fixed: changing or deleting one is a 403 InvalidOperationError. A role still held by a user (as root role or in a
 * project), a group or a group's project access cannot be deleted: 400 RoleInUseError.
 */
export class RoleService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  permissions(): Promise<PermissionListing> {
    return permissionListing(this.em);
  }

  list(): Promise<Role[]> {
    return listRoles(this.em);
  }

  async get(id: string | number): Promise<RoleWithPermissions> {
    const row = await loadRole(this.em, id);
    return { ...toRole(row), permissions: await listedPermissions(this.em, row.id) };
  }

  /** Several roles with their permissions, in one query (GraphQL's Role.permissions). */
  permissionsOf(ids: readonly number[]): Promise<Permission[][]> {
    return permissionsOf(this.em, ids);
  }

  /** POST /api/admin/roles: `{version: 1, roles: Role}`. */
  async create(input: unknown): Promise<RoleSaved> {
    const body = parse(roleSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const type = roleType(body);
      const permissions = await resolvePermissions(tx, body, type);
      await this.refuseTaken(tx, body.name);
      const row = await insertRole(tx, { name: body.name, type, description: body.description ?? '' });
      await insertRolePermissions(tx, row.id, permissions);
      const role = toRole(row);
      emit({ type: 'role-created', data: eventData(role, permissions) });
      return { version: 1, roles: role };
    });
  }

  /** PUT /api/admin/roles/:id: the same body as create; replaces name, description, type and permissions. */
  async update(id: string | number, input: unknown): Promise<RoleSaved> {
    const body = parse(roleSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await loadRole(tx, id, 'update');
      if (BUILT_IN_IDS.has(row.id)) throw new InvalidOperationError('You cannot change built in roles.');
      const type = roleType(body);
      if (type !== row.type && (await this.holders(tx, row.id)).length > 0) {
        throw ValidationError.single('type', `The role ${row.name} is in use: its type stays \`${row.type}\` while anyone holds it.`);
      }
      const permissions = await resolvePermissions(tx, body, type);
      if (body.name.toLowerCase() !== row.name.toLowerCase()) await this.refuseTaken(tx, body.name);
      const before = await storedPermissions(tx, row.id);
      const updated = await updateRole(tx, row.id, { name: body.name, type, description: body.description ?? '' });
      await deleteRolePermissions(tx, row.id);
      await insertRolePermissions(tx, row.id, permissions);
      const role = toRole(updated);
      const data = eventData(role, sorted(permissions));
      const preData = eventData(toRole(row), sorted(before));
      if (!sameJson(data, preData)) emit({ type: 'role-updated', data, preData });
      return { version: 1, roles: role };
    });
  }

  async delete(id: string | number): Promise<void> {
    await this.access.check(ADMIN);
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await loadRole(tx, id, 'update');
      if (BUILT_IN_IDS.has(row.id)) throw new InvalidOperationError('You cannot change built in roles.');
      const held = await this.holders(tx, row.id);
      if (held.length > 0) {
        throw new RoleInUseError(`Role ${row.name} is in use (${held.join(', ')}). Give the holders another role before deleting it.`);
      }
      const permissions = await storedPermissions(tx, row.id);
      await deleteRole(tx, row.id);
      emit({ type: 'role-deleted', preData: eventData(toRole(row), sorted(permissions)) });
    });
  }

  /**
   * Who holds the role, counted: users (root role and project roles) and groups (root role and project roles).
   * Called with the role row locked `for update`: an insert that refers to the role takes `for key share` on it, so
   * it either committed before (and is counted) or waits and then finds the role gone.
   */
  private async holders(tx: EntityManager, roleId: number): Promise<string[]> {
    const c = await countRoleHolders(tx, roleId);
    const parts: string[] = [];
    if (c.root_users) parts.push(`root role of ${c.root_users} user${c.root_users === 1 ? '' : 's'}`);
    if (c.project_users) parts.push(`project role of ${c.project_users} user${c.project_users === 1 ? '' : 's'}`);
    if (c.root_groups) parts.push(`root role of ${c.root_groups} group${c.root_groups === 1 ? '' : 's'}`);
    if (c.project_groups) parts.push(`project role of ${c.project_groups} group${c.project_groups === 1 ? '' : 's'}`);
    if (c.signup_tokens) parts.push(`role of ${c.signup_tokens} signup link${c.signup_tokens === 1 ? '' : 's'}`);
    return parts;
  }

  /** A role name is unique whatever its case (roles are also given by name, case-insensitively: D14). */
  private async refuseTaken(tx: EntityManager, name: string): Promise<void> {
    if (await roleNameTaken(tx, name)) throw new NameExistsError(`There already exists a role with the name ${name}`);
  }
}

function roleType(body: RoleBody): 'root-custom' | 'custom' {
  return body.type === 'root-custom' ? 'root-custom' : 'custom';
}

/**
 * The body's permissions as stored rows: each resolved by id or name (a mismatch or an unknown one is a 400 naming
 * it). A custom root role drops environments (reference endpoint 17). A custom project role takes only project and
 * environment permissions (a root permission there would apply everywhere, beyond the project it is given in); an
 * environment permission keeps its environment, which must exist, and one without an environment holds in every
 * environment; a project permission has no environment. Repeats are kept once.
 */
async function resolvePermissions(tx: EntityManager, body: RoleBody, type: 'root-custom' | 'custom'): Promise<StoredPermission[]> {
  const out = new Map<string, StoredPermission>();
  const wanted = new Map<string, number>();
  (body.permissions ?? []).forEach((ref, i) => {
    const path = `permissions/${i}`;
    if (ref.id === undefined && ref.name === undefined) throw ValidationError.single(path, 'Each permission needs an `id` or a `name`.');
    const byId = ref.id === undefined ? undefined : BY_ID.get(ref.id);
    const byName = ref.name === undefined ? undefined : PERMISSION_BY_NAME.get(ref.name);
    if (ref.id !== undefined && !byId) throw ValidationError.single(`${path}/id`, `There is no permission with id ${ref.id}.`);
    if (ref.name !== undefined && !byName) throw ValidationError.single(`${path}/name`, `There is no permission named ${JSON.stringify(ref.name)}.`);
    if (byId && byName && byId !== byName) throw ValidationError.single(path, `Permission id ${ref.id} is ${byId.name}, not ${ref.name}.`);
    const def = (byId ?? byName)!;
    if (type === 'custom' && def.type === 'root') {
      throw ValidationError.single(path, `${def.name} is a root permission: a project role holds project and environment permissions only. Use a custom root role (type \`root-custom\`) for it.`);
    }
    const environment = type === 'custom' && def.type === 'environment' && ref.environment ? ref.environment : null;
    if (environment !== null) wanted.set(environment, i);
    out.set(`${def.name}\u0000${environment ?? ''}`, { name: def.name, environment });
  });
  if (wanted.size > 0) {
    // Held `for key share`: an environment a new role refers to is not deleted before the role commits.
    const existing = await shareEnvironments(tx, [...wanted.keys()]);
    for (const [name, i] of wanted) {
      if (!existing.has(name)) throw ValidationError.single(`permissions/${i}/environment`, `There is no environment named ${JSON.stringify(name)}.`);
    }
  }
  return [...out.values()];
}
