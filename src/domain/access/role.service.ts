import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { InvalidOperationError, NameExistsError, NotFoundError, RoleInUseError, ValidationError } from '../errors';
import { parse, rowId, sameJson } from '../validation';
import type { AccessService } from './access.service';
import { ADMIN, PERMISSION_BY_NAME, PERMISSIONS, PREDEFINED_ROLES, type PermissionDefinition } from './permissions';
import type { Principal } from './principal';

/** A role as lists show it (spec: Role). */
export interface Role {
  id: number;
  name: string;
  type: string;
  description: string;
}

/** A permission as the listing shows it; environment permissions in `environments` carry their environment. */
export interface ListedPermission {
  id: number;
  name: string;
  displayName: string;
  type: string;
  environment?: string;
}

export interface RoleWithPermissions extends Role {
  permissions: ListedPermission[];
}

/** GET /api/admin/permissions (spec endpoint 12). */
export interface PermissionListing {
  version: number;
  permissions: {
    root: ListedPermission[];
    project: ListedPermission[];
    environments: Array<{ name: string; permissions: ListedPermission[] }>;
  };
}

const BUILT_IN_IDS: ReadonlySet<number> = new Set(PREDEFINED_ROLES.map((r) => r.id));
const BY_ID: ReadonlyMap<number, PermissionDefinition> = new Map(PERMISSIONS.map((p) => [p.id, p]));
const listed = (p: PermissionDefinition, environment?: string): ListedPermission => ({
  id: p.id, name: p.name, displayName: p.displayName, type: p.type, ...(environment === undefined ? {} : { environment }),
});

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
interface RoleRow { id: number; name: string; type: string; description: string | null }
interface StoredPermission { name: string; environment: string | null }

const toRole = (r: RoleRow): Role => ({ id: r.id, name: r.name, type: r.type, description: r.description ?? '' });
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

  async permissions(): Promise<PermissionListing> {
    const environments: Array<{ name: string }> = await this.em.execute('select name from environments order by sort_order, name');
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

  async list(): Promise<Role[]> {
    const rows: RoleRow[] = await this.em.execute('select id, name, type, description from roles order by id');
    return rows.map(toRole);
  }

  async get(id: string | number): Promise<RoleWithPermissions> {
    const row = await this.load(this.em, id);
    return { ...toRole(row), permissions: toListed(await this.storedPermissions(this.em, row.id)) };
  }

  /** Several roles with their permissions, in one query (GraphQL's Role.permissions). */
  async permissionsOf(ids: readonly number[]): Promise<ListedPermission[][]> {
    const rows: Array<StoredPermission & { role_id: number }> = ids.length === 0 ? [] : await this.em.execute(
      'select role_id, permission as name, environment from role_permissions where role_id in (?)', [[...ids]]);
    const byRole = new Map<number, StoredPermission[]>();
    for (const r of rows) byRole.set(r.role_id, [...(byRole.get(r.role_id) ?? []), r]);
    return ids.map((id) => toListed(byRole.get(id) ?? []));
  }

  /** POST /api/admin/roles: `{version: 1, roles: Role}`. */
  async create(input: unknown): Promise<{ version: number; roles: Role }> {
    const body = parse(roleSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const type = roleType(body);
      const permissions = await resolvePermissions(tx, body, type);
      await this.refuseTaken(tx, body.name);
      const [row]: RoleRow[] = await tx.execute('insert into roles (name, type, description) values (?, ?, ?) returning id, name, type, description',
        [body.name, type, body.description ?? '']);
      await insertPermissions(tx, row.id, permissions);
      const role = toRole(row);
      emit({ type: 'role-created', data: eventData(role, permissions) });
      return { version: 1, roles: role };
    });
  }

  /** PUT /api/admin/roles/:id: the same body as create; replaces name, description, type and permissions. */
  async update(id: string | number, input: unknown): Promise<{ version: number; roles: Role }> {
    const body = parse(roleSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, id, true);
      if (BUILT_IN_IDS.has(row.id)) throw new InvalidOperationError('You cannot change built in roles.');
      const type = roleType(body);
      if (type !== row.type && (await this.holders(tx, row.id)).length > 0) {
        throw ValidationError.single('type', `The role ${row.name} is in use: its type stays \`${row.type}\` while anyone holds it.`);
      }
      const permissions = await resolvePermissions(tx, body, type);
      if (body.name.toLowerCase() !== row.name.toLowerCase()) await this.refuseTaken(tx, body.name);
      const before = await this.storedPermissions(tx, row.id);
      const [updated]: RoleRow[] = await tx.execute('update roles set name = ?, type = ?, description = ? where id = ? returning id, name, type, description',
        [body.name, type, body.description ?? '', row.id]);
      await tx.execute('delete from role_permissions where role_id = ?', [row.id]);
      await insertPermissions(tx, row.id, permissions);
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
      const row = await this.load(tx, id, true);
      if (BUILT_IN_IDS.has(row.id)) throw new InvalidOperationError('You cannot change built in roles.');
      const held = await this.holders(tx, row.id);
      if (held.length > 0) {
        throw new RoleInUseError(`Role ${row.name} is in use (${held.join(', ')}). Give the holders another role before deleting it.`);
      }
      const permissions = await this.storedPermissions(tx, row.id);
      await tx.execute('delete from roles where id = ?', [row.id]);
      emit({ type: 'role-deleted', preData: eventData(toRole(row), sorted(permissions)) });
    });
  }

  /**
   * Who holds the role, counted: users (root role and project roles) and groups (root role and project roles).
   * Called with the role row locked `for update`: an insert that refers to the role takes `for key share` on it, so
   * it either committed before (and is counted) or waits and then finds the role gone.
   */
  private async holders(tx: EntityManager, roleId: number): Promise<string[]> {
    const [c]: Array<Record<string, number>> = await tx.execute(
      `select (select count(*)::int from users where root_role_id = ?) as root_users,
              (select count(distinct user_id)::int from role_user where role_id = ?) as project_users,
              (select count(*)::int from groups where root_role_id = ?) as root_groups,
              (select count(distinct group_id)::int from group_role where role_id = ?) as project_groups,
              (select count(*)::int from public_signup_tokens where role_id = ?) as signup_tokens`,
      [roleId, roleId, roleId, roleId, roleId]);
    const parts: string[] = [];
    if (c.root_users) parts.push(`root role of ${c.root_users} user${c.root_users === 1 ? '' : 's'}`);
    if (c.project_users) parts.push(`project role of ${c.project_users} user${c.project_users === 1 ? '' : 's'}`);
    if (c.root_groups) parts.push(`root role of ${c.root_groups} group${c.root_groups === 1 ? '' : 's'}`);
    if (c.project_groups) parts.push(`project role of ${c.project_groups} group${c.project_groups === 1 ? '' : 's'}`);
    if (c.signup_tokens) parts.push(`role of ${c.signup_tokens} signup link${c.signup_tokens === 1 ? '' : 's'}`);
    return parts;
  }

  private async storedPermissions(em: EntityManager, roleId: number): Promise<StoredPermission[]> {
    return em.execute('select permission as name, environment from role_permissions where role_id = ?', [roleId]);
  }

  /** A role name is unique whatever its case (roles are also given by name, case-insensitively: D14). */
  private async refuseTaken(tx: EntityManager, name: string): Promise<void> {
    const taken: unknown[] = await tx.execute('select 1 from roles where lower(name) = lower(?)', [name]);
    if (taken.length > 0) throw new NameExistsError(`There already exists a role with the name ${name}`);
  }

  private async load(em: EntityManager, id: string | number, lock = false): Promise<RoleRow> {
    const n = rowId(id);
    if (n === undefined) throw new NotFoundError(`Could not find role with id ${String(id)}.`);
    const [row]: RoleRow[] = await em.execute(`select id, name, type, description from roles where id = ?${lock ? ' for update' : ''}`, [n]);
    if (!row) throw new NotFoundError(`Could not find role with id ${n}.`);
    return row;
  }
}

function roleType(body: RoleBody): 'root-custom' | 'custom' {
  return body.type === 'root-custom' ? 'root-custom' : 'custom';
}

/** Permissions in a stable order (events compare and show them so). */
function sorted(list: StoredPermission[]): StoredPermission[] {
  return [...list].sort((a, b) => (BY_NAME_ID(a.name) - BY_NAME_ID(b.name)) || (a.environment ?? '').localeCompare(b.environment ?? ''));
}
const BY_NAME_ID = (name: string) => PERMISSION_BY_NAME.get(name)?.id ?? 0;

function toListed(list: StoredPermission[]): ListedPermission[] {
  return sorted(list).flatMap((p) => {
    const def = PERMISSION_BY_NAME.get(p.name);
    return def ? [listed(def, p.environment ?? undefined)] : [];
  });
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
    const found: Array<{ name: string }> = await tx.execute('select name from environments where name in (?) for key share', [[...wanted.keys()]]);
    const existing = new Set(found.map((f) => f.name));
    for (const [name, i] of wanted) {
      if (!existing.has(name)) throw ValidationError.single(`permissions/${i}/environment`, `There is no environment named ${JSON.stringify(name)}.`);
    }
  }
  return [...out.values()];
}

async function insertPermissions(tx: EntityManager, roleId: number, permissions: StoredPermission[]): Promise<void> {
  if (permissions.length === 0) return;
  await tx.execute(
    `insert into role_permissions (role_id, permission, environment)
     select ?, p->>'name', p->>'environment' from jsonb_array_elements(?::jsonb) p`,
    [roleId, JSON.stringify(permissions)]);
}
