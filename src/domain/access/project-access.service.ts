import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { NotFoundError, ProjectWithoutOwnerError, ValidationError } from '../errors';
import { parse } from '../validation';
import type { AccessService } from './access.service';
import { ROLE_OWNER } from './permissions';
import type { Principal } from './principal';
import { toUser, USER_COLUMNS_OF_U, type User, type UserRow } from './user.service';

export interface ProjectRole {
  id: number;
  name: string;
  type: string;
  description: string;
}

export interface ProjectAccessUser extends User {
  addedAt: string;
  roleId: number;
  roles: number[];
}

export interface ProjectAccessGroup {
  id: number;
  name: string;
  description: string | null;
  mappingsSSO: string[];
  rootRole: number | null;
  createdBy: string | null;
  createdAt: string | null;
  addedAt: string;
  roleId: number;
  roles: number[];
  users: Array<{ joinedAt: string; createdBy: string | null; user: User }>;
}

/** Spec endpoint 13. */
export interface ProjectAccess {
  roles: ProjectRole[];
  users: ProjectAccessUser[];
  groups: ProjectAccessGroup[];
}

const id = z.number().int().min(1).max(2_147_483_647);
const ref = z.union([id, z.object({ id }).strict()]).transform((v) => (typeof v === 'number' ? v : v.id));
export const addSchema = z.object({
  roles: z.array(ref).min(1).max(100),
  users: z.array(ref).max(1000).default([]),
  groups: z.array(ref).max(1000).default([]),
}).strict();
export const rolesSchema = z.object({ roles: z.array(ref).max(100) }).strict();

type Holder = 'user' | 'group';
const HOLDER = {
  user: { table: 'role_user', column: 'user_id', owner: 'users', updated: 'project-access-user-roles-updated', deleted: 'project-access-user-roles-deleted' },
  group: { table: 'group_role', column: 'group_id', owner: 'groups', updated: 'project-access-group-roles-updated', deleted: 'project-access-group-roles-deleted' },
} as const;

const positiveId = (value: string, what: string): number => {
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) throw new NotFoundError(`Could not find ${what} with id ${value}.`);
  return n;
};

/**
 * Who holds which project roles in a project (issue 9, spec endpoint 13): users directly and through groups. Changes
 * need UPDATE_PROJECT in the project. Each change locks the project row first, so concurrent changes of one project's
 * access take turns, and a change that would leave a project that had an Owner without one is refused.
 */
export class ProjectAccessService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  async get(project: string): Promise<ProjectAccess> {
    const conn = this.em;
    const exists: unknown[] = await conn.execute('select 1 from projects where id = ?', [project]);
    if (exists.length === 0) throw new NotFoundError(`Could not find project with id ${project}.`);
    const [roles, users, groups]: [ProjectRole[], Array<UserRow & { added_at: Date; roles: number[] }>, Array<GroupRow & { added_at: Date; roles: number[] }>] = await Promise.all([
      conn.execute(`select id, name, type, coalesce(description, '') as description from roles where type in ('project', 'custom') order by id`),
      conn.execute(`select ${USER_COLUMNS_OF_U}, min(ru.created_at) as added_at, array_agg(ru.role_id order by ru.created_at, ru.role_id) as roles
         from role_user ru join users u on u.id = ru.user_id where ru.project = ? group by u.id order by u.id`, [project]),
      conn.execute(`select g.id, g.name, g.description, g.mappings_sso, g.root_role_id, g.created_by, g.created_at, min(gr.created_at) as added_at,
           array_agg(gr.role_id order by gr.created_at, gr.role_id) as roles
         from group_role gr join groups g on g.id = gr.group_id where gr.project = ? group by g.id order by g.id`, [project]),
    ]) as never;
    const members: Array<UserRow & { group_id: number; joined_at: Date; member_created_by: string | null }> = groups.length === 0 ? [] : await conn.execute(
      `select gu.group_id, gu.joined_at, gu.created_by as member_created_by, ${USER_COLUMNS_OF_U}
         from group_user gu join users u on u.id = gu.user_id where gu.group_id in (?) order by gu.group_id, u.id`, [groups.map((g) => g.id)]);
    const byGroup = new Map<number, ProjectAccessGroup['users']>();
    for (const m of members) {
      const list = byGroup.get(m.group_id) ?? [];
      list.push({ joinedAt: new Date(m.joined_at).toISOString(), createdBy: m.member_created_by, user: toUser(m) });
      byGroup.set(m.group_id, list);
    }
    return {
      roles,
      users: users.map((u) => ({ ...toUser(u), addedAt: new Date(u.added_at).toISOString(), roleId: u.roles[0], roles: u.roles })),
      groups: groups.map((g) => ({
        id: g.id, name: g.name, description: g.description, mappingsSSO: g.mappings_sso ?? [], rootRole: g.root_role_id, createdBy: g.created_by,
        createdAt: g.created_at ? new Date(g.created_at).toISOString() : null, addedAt: new Date(g.added_at).toISOString(), roleId: g.roles[0], roles: g.roles,
        users: byGroup.get(g.id) ?? [],
      })),
    };
  }

  /** POST /api/admin/projects/:p/access: every listed role to every listed user and group (roles already held stay). */
  async add(project: string, input: unknown): Promise<void> {
    const data = parse(addSchema, input);
    if (data.users.length === 0 && data.groups.length === 0) throw ValidationError.single('users', 'Name at least one user or group to give the roles to.');
    await this.access.check('UPDATE_PROJECT', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await this.lockProject(tx, project);
      await this.checkRoles(tx, data.roles, 'roles');
      await this.checkHolders(tx, 'user', data.users, 'users');
      await this.checkHolders(tx, 'group', data.groups, 'groups');
      const createdBy = this.principal.name;
      if (data.users.length) {
        await tx.execute(`insert into role_user (role_id, user_id, project) select r::int, u::int, ? from jsonb_array_elements_text(?::jsonb) r cross join jsonb_array_elements_text(?::jsonb) u on conflict do nothing`,
          [project, JSON.stringify(data.roles), JSON.stringify(data.users)]);
      }
      if (data.groups.length) {
        await tx.execute(`insert into group_role (role_id, group_id, project, created_by) select r::int, g::int, ?, ? from jsonb_array_elements_text(?::jsonb) r cross join jsonb_array_elements_text(?::jsonb) g on conflict do nothing`,
          [project, createdBy, JSON.stringify(data.roles), JSON.stringify(data.groups)]);
      }
      emit({ type: 'project-access-added', project, data: { roles: data.roles, users: data.users, groups: data.groups } });
    });
  }

  /** Replaces the project roles of one user or group (an empty list removes them all). */
  async setRoles(project: string, holder: Holder, holderId: string, input: unknown): Promise<void> {
    const { roles } = parse(rolesSchema, input);
    const idNumber = positiveId(holderId, holder);
    await this.access.check('UPDATE_PROJECT', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await this.lockProject(tx, project);
      await this.checkHolders(tx, holder, [idNumber], holder === 'user' ? 'userId' : 'groupId', true);
      await this.checkRoles(tx, roles, 'roles');
      const owners = await this.owners(tx, project);
      const before = await this.replace(tx, project, holder, idNumber, roles);
      await this.keepOwner(tx, project, owners);
      if (before.join() !== [...new Set(roles)].sort((a, b) => a - b).join()) {
        emit({ type: roles.length ? HOLDER[holder].updated : HOLDER[holder].deleted, project, data: { [`${holder}Id`]: idNumber, roles: [...new Set(roles)] }, preData: { [`${holder}Id`]: idNumber, roles: before } });
      }
    });
  }

  async removeRoles(project: string, holder: Holder, holderId: string): Promise<void> {
    const idNumber = positiveId(holderId, holder);
    await this.access.check('UPDATE_PROJECT', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await this.lockProject(tx, project);
      await this.checkHolders(tx, holder, [idNumber], holder === 'user' ? 'userId' : 'groupId', true);
      const owners = await this.owners(tx, project);
      const before = await this.replace(tx, project, holder, idNumber, []);
      await this.keepOwner(tx, project, owners);
      if (before.length) emit({ type: HOLDER[holder].deleted, project, data: null, preData: { [`${holder}Id`]: idNumber, roles: before } });
    });
  }

  /** Sets the holder's roles in the project to `roles`; returns the ids held before, sorted. */
  private async replace(tx: EntityManager, project: string, holder: Holder, holderId: number, roles: number[]): Promise<number[]> {
    const h = HOLDER[holder];
    const removed: Array<{ role_id: number }> = await tx.execute(`delete from ${h.table} where project = ? and ${h.column} = ? returning role_id`, [project, holderId]);
    if (roles.length) {
      await tx.execute(`insert into ${h.table} (role_id, ${h.column}, project) select distinct r::int, ?, ? from jsonb_array_elements_text(?::jsonb) r`, [holderId, project, JSON.stringify(roles)]);
    }
    return removed.map((r) => r.role_id).sort((a, b) => a - b);
  }

  private async lockProject(tx: EntityManager, project: string): Promise<void> {
    const rows: unknown[] = await tx.execute('select 1 from projects where id = ? for no key update', [project]);
    if (rows.length === 0) throw new NotFoundError(`Could not find project with id ${project}.`);
  }

  /** How many Owner grants the project has (users and groups). */
  private async owners(tx: EntityManager, project: string): Promise<number> {
    const [{ owners }]: Array<{ owners: number | string }> = await tx.execute(
      `select (select count(*) from role_user where project = ? and role_id = ?) + (select count(*) from group_role where project = ? and role_id = ?) as owners`,
      [project, ROLE_OWNER, project, ROLE_OWNER]);
    return Number(owners);
  }

  /** A project that had an Owner keeps one (Unleash refuses removing the last owner too). */
  private async keepOwner(tx: EntityManager, project: string, before: number): Promise<void> {
    if (before > 0 && (await this.owners(tx, project)) === 0) {
      throw new ProjectWithoutOwnerError('A project must have at least one owner: give the Owner role to someone else first.');
    }
  }

  private async checkRoles(tx: EntityManager, roles: number[], path: string): Promise<void> {
    if (roles.length === 0) return;
    const found: Array<{ id: number }> = await tx.execute(`select id from roles where id in (?) and type in ('project', 'custom') for key share`, [roles]);
    const known = new Set(found.map((r) => r.id));
    const bad = roles.findIndex((r) => !known.has(r));
    if (bad >= 0) throw ValidationError.single(`${path}/${bad}`, `Role ${roles[bad]} is not a project role: give Owner, Member or a custom project role.`);
  }

  private async checkHolders(tx: EntityManager, holder: Holder, ids: number[], path: string, single = false): Promise<void> {
    if (ids.length === 0) return;
    const found: Array<{ id: number }> = await tx.execute(`select id from ${HOLDER[holder].owner} where id in (?) for key share`, [ids]);
    const known = new Set(found.map((r) => r.id));
    const bad = ids.findIndex((i) => !known.has(i));
    if (bad < 0) return;
    if (single) throw new NotFoundError(`Could not find ${holder} with id ${ids[bad]}.`);
    throw ValidationError.single(`${path}/${bad}`, `There is no ${holder} with id ${ids[bad]}.`);
  }
}

interface GroupRow {
  id: number;
  name: string;
  description: string | null;
  mappings_sso: string[] | null;
  root_role_id: number | null;
  created_by: string | null;
  created_at: Date | null;
}
