import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { NameExistsError, NotFoundError, ValidationError } from '../errors';
import { parse, rowId, sameJson } from '../validation';
import type { AccessService } from './access.service';
import { ADMIN } from './permissions';
import type { Principal } from './principal';
import { rootRoleId, toUser, USER_COLUMNS_OF_U, type User, type UserRow } from './user.service';

/** A member of a group: when and by whom the user was added. */
export interface GroupMember {
  joinedAt: string;
  createdBy: string | null;
  user: User;
}

/** A group as both doors return it (Unleash's group shape; spec endpoint 13 lists the same fields). */
export interface Group {
  id: number;
  name: string;
  description: string | null;
  mappingsSSO: string[];
  /** The root role every member also holds (its permissions add to the member's own), or null. */
  rootRole: number | null;
  createdBy: string | null;
  createdAt: string;
  userCount: number;
  users: GroupMember[];
}

interface GroupRow {
  id: number;
  name: string;
  description: string | null;
  mappings_sso: string[] | null;
  root_role_id: number | null;
  created_by: string | null;
  created_at: Date;
}

type MemberRow = UserRow & { group_id: number; joined_at: Date; member_created_by: string | null };

const GROUP_COLUMNS = 'id, name, description, mappings_sso, root_role_id, created_by, created_at';
const MEMBER_COLUMNS = `gu.group_id, gu.joined_at, gu.created_by as member_created_by, ${USER_COLUMNS_OF_U}`;

const MAX_ID = 2_147_483_647;
const text = (max: number) => z.string().trim().max(max);
const id = z.number().int().min(1).max(MAX_ID);
/** A member as Unleash's UI sends it (`{user: {id}}`), or just `{id}`. */
const memberRef = z.union([z.object({ user: z.object({ id }).strict() }).strict(), z.object({ id }).strict()])
  .transform((m) => ('user' in m ? m.user.id : m.id));
/** Create and PUT take the same body: PUT replaces every field (absent ones get their defaults). */
export const groupSchema = z.object({
  name: text(100).min(1),
  description: text(1000).nullable().optional(),
  mappingsSSO: z.array(text(255).min(1)).max(100).optional(),
  rootRole: id.nullable().optional(),
  users: z.array(memberRef).max(1000).optional(),
}).strict();

export type GroupInput = z.input<typeof groupSchema>;

/** What an audit event records of a group: its fields and the ids of its members (no user details). */
const eventData = (g: Group) => ({
  id: g.id, name: g.name, description: g.description, mappingsSSO: g.mappingsSSO, rootRole: g.rootRole,
  users: g.users.map((m) => m.user.id),
});

/** The words of both the service's check and the unique index (errors.ts), so a race reads the same as a check. */
const nameTaken = (name: string) => new NameExistsError(`A group with the name ${name.toLowerCase()} already exists`);

/**
 * Groups of users (issue 9): a group may carry a root role, and project roles given to it (project access) hold for
 * every member. Reading needs any admin-API credentials; changes need ADMIN, as in Unleash. An update or delete locks
 * the group row first, so concurrent changes of one group take turns and each event's `preData` is what it replaced.
 * Membership is read by every permission check (AccessService), so a change holds from the next request on.
 */
export class GroupService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  async list(): Promise<Group[]> {
    const rows: GroupRow[] = await this.em.execute(`select ${GROUP_COLUMNS} from groups order by id`);
    return this.withMembers(this.em, rows);
  }

  async get(groupId: string | number): Promise<Group> {
    const row = await this.load(this.em, groupId);
    return (await this.withMembers(this.em, [row]))[0];
  }

  async create(input: GroupInput): Promise<Group> {
    const data = parse(groupSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const roleId = await this.checkRootRole(tx, data.rootRole ?? null);
      const members = await this.checkUsers(tx, data.users ?? []);
      await this.refuseTaken(tx, data.name, null);
      const [row]: GroupRow[] = await tx.execute(
        `insert into groups (name, description, mappings_sso, root_role_id, created_by) values (?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?) returning ${GROUP_COLUMNS}`,
        [data.name, data.description ?? null, JSON.stringify(data.mappingsSSO ?? []), roleId, this.principal.name],
      );
      await this.addMembers(tx, row.id, members);
      const [group] = await this.withMembers(tx, [row]);
      emit({ type: 'group-created', data: eventData(group) });
      return group;
    });
  }

  /** PUT: replaces name, description, SSO mappings, root role and members; members kept keep their `joinedAt`. */
  async update(groupId: string | number, input: GroupInput): Promise<Group> {
    const data = parse(groupSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, groupId, true);
      const [before] = await this.withMembers(tx, [row]);
      const roleId = await this.checkRootRole(tx, data.rootRole ?? null);
      const members = await this.checkUsers(tx, data.users ?? []);
      if (data.name.toLowerCase() !== row.name.toLowerCase()) await this.refuseTaken(tx, data.name, row.id);
      const [updated]: GroupRow[] = await tx.execute(
        `update groups set name = ?, description = ?, mappings_sso = array(select jsonb_array_elements_text(?::jsonb)), root_role_id = ? where id = ? returning ${GROUP_COLUMNS}`,
        [data.name, data.description ?? null, JSON.stringify(data.mappingsSSO ?? []), roleId, row.id],
      );
      await tx.execute('delete from group_user where group_id = ? and user_id not in (select value::int from jsonb_array_elements_text(?::jsonb))', [row.id, JSON.stringify(members)]);
      await this.addMembers(tx, row.id, members);
      const [after] = await this.withMembers(tx, [updated]);
      if (!sameJson(eventData(before), eventData(after))) emit({ type: 'group-updated', data: eventData(after), preData: eventData(before) });
      // Each membership change also has its own event, so a feed of group-user-* tells who joined and left.
      const had = new Set(before.users.map((m) => m.user.id));
      const has = new Set(after.users.map((m) => m.user.id));
      for (const userId of has) if (!had.has(userId)) emit({ type: 'group-user-added', data: { groupId: row.id, userId } });
      for (const userId of had) if (!has.has(userId)) emit({ type: 'group-user-removed', preData: { groupId: row.id, userId } });
      return after;
    });
  }

  /** Deletes the group with its memberships and the project roles it held (cascade). */
  async delete(groupId: string | number): Promise<void> {
    await this.access.check(ADMIN);
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, groupId, true);
      const [before] = await this.withMembers(tx, [row]);
      await tx.execute('delete from groups where id = ?', [row.id]);
      emit({ type: 'group-deleted', preData: eventData(before) });
    });
  }

  /** The groups with their members, in two statements whatever their number. */
  private async withMembers(em: EntityManager, rows: GroupRow[]): Promise<Group[]> {
    if (rows.length === 0) return [];
    const members: MemberRow[] = await em.execute(
      `select ${MEMBER_COLUMNS} from group_user gu join users u on u.id = gu.user_id where gu.group_id in (select value::int from jsonb_array_elements_text(?::jsonb)) order by gu.group_id, gu.joined_at, u.id`,
      [JSON.stringify(rows.map((r) => r.id))],
    );
    const byGroup = new Map<number, GroupMember[]>();
    for (const m of members) {
      const list = byGroup.get(m.group_id) ?? [];
      list.push({ joinedAt: new Date(m.joined_at).toISOString(), createdBy: m.member_created_by, user: toUser(m) });
      byGroup.set(m.group_id, list);
    }
    return rows.map((r) => {
      const users = byGroup.get(r.id) ?? [];
      return {
        id: r.id,
        name: r.name,
        description: r.description,
        mappingsSSO: r.mappings_sso ?? [],
        rootRole: r.root_role_id,
        createdBy: r.created_by,
        createdAt: new Date(r.created_at).toISOString(),
        userCount: users.length,
        users,
      };
    });
  }

  /** Adds the users not yet members (joined now, by the caller); existing memberships are left as they are. */
  private async addMembers(tx: EntityManager, groupId: number, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await tx.execute(
      'insert into group_user (group_id, user_id, created_by) select ?, value::int, ? from jsonb_array_elements_text(?::jsonb) on conflict do nothing',
      [groupId, this.principal.name, JSON.stringify(userIds)],
    );
  }

  /** The group row, or 404 for an id that is not a positive integer or names no group. */
  private async load(em: EntityManager, groupId: string | number, lock = false): Promise<GroupRow> {
    const n = rowId(groupId);
    if (n === undefined) throw new NotFoundError(`Could not find group with id ${String(groupId)}.`);
    const [row]: GroupRow[] = await em.execute(`select ${GROUP_COLUMNS} from groups where id = ?${lock ? ' for update' : ''}`, [n]);
    if (!row) throw new NotFoundError(`Could not find group with id ${n}.`);
    return row;
  }

  /** A root role (the users' rule, held until commit); anything else is a 400 naming rootRole. */
  private async checkRootRole(tx: EntityManager, roleId: number | null): Promise<number | null> {
    return roleId === null ? null : rootRoleId(tx, roleId, 'rootRole');
  }

  /** The distinct member ids, each an existing user kept until commit; an unknown one is a 400 naming `users`. */
  private async checkUsers(tx: EntityManager, userIds: number[]): Promise<number[]> {
    const distinct = [...new Set(userIds)];
    if (distinct.length === 0) return [];
    const found: Array<{ id: number }> = await tx.execute('select id from users where id in (select value::int from jsonb_array_elements_text(?::jsonb)) for key share', [JSON.stringify(distinct)]);
    const known = new Set(found.map((r) => r.id));
    const bad = userIds.findIndex((u) => !known.has(u));
    if (bad >= 0) throw ValidationError.single(`users/${bad}`, `There is no user with id ${userIds[bad]}: the \`users\` property lists existing users only.`);
    return distinct;
  }

  private async refuseTaken(tx: EntityManager, name: string, except: number | null): Promise<void> {
    const taken: unknown[] = await tx.execute('select 1 from groups where lower(name) = lower(?) and id is distinct from ? limit 1', [name, except]);
    if (taken.length > 0) throw nameTaken(name);
  }
}
