import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { NameExistsError, ValidationError } from '../errors';
import { parse, sameJson } from '../validation';
import type { AccessService } from './access.service';
import { listGroups, withMembers } from './group.read-model';
import type { Group } from './group.shapes';
import { addMembers, deleteGroup, groupNameTaken, insertGroup, loadGroup, removeMembersBut, shareMemberUsers, updateGroup } from './group.store';
import { ADMIN } from './permissions';
import type { Principal } from './principal';
import { rootRoleId } from './user.service';

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

  list(): Promise<Group[]> {
    return listGroups(this.em);
  }

  async get(groupId: string | number): Promise<Group> {
    const row = await loadGroup(this.em, groupId);
    return (await withMembers(this.em, [row]))[0];
  }

  async create(input: GroupInput): Promise<Group> {
    const data = parse(groupSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const roleId = await this.checkRootRole(tx, data.rootRole ?? null);
      const members = await this.checkUsers(tx, data.users ?? []);
      await this.refuseTaken(tx, data.name, null);
      const row = await insertGroup(tx, { name: data.name, description: data.description ?? null, mappingsSSO: data.mappingsSSO ?? [], rootRoleId: roleId }, this.principal.name);
      await addMembers(tx, row.id, members, this.principal.name);
      const [group] = await withMembers(tx, [row]);
      emit({ type: 'group-created', data: eventData(group) });
      return group;
    });
  }

  /** PUT: replaces name, description, SSO mappings, root role and members; members kept keep their `joinedAt`. */
  async update(groupId: string | number, input: GroupInput): Promise<Group> {
    const data = parse(groupSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await loadGroup(tx, groupId, 'update');
      const [before] = await withMembers(tx, [row]);
      const roleId = await this.checkRootRole(tx, data.rootRole ?? null);
      const members = await this.checkUsers(tx, data.users ?? []);
      if (data.name.toLowerCase() !== row.name.toLowerCase()) await this.refuseTaken(tx, data.name, row.id);
      const updated = await updateGroup(tx, row.id, { name: data.name, description: data.description ?? null, mappingsSSO: data.mappingsSSO ?? [], rootRoleId: roleId });
      await removeMembersBut(tx, row.id, members);
      await addMembers(tx, row.id, members, this.principal.name);
      const [after] = await withMembers(tx, [updated]);
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
      const row = await loadGroup(tx, groupId, 'update');
      const [before] = await withMembers(tx, [row]);
      await deleteGroup(tx, row.id);
      emit({ type: 'group-deleted', preData: eventData(before) });
    });
  }

  /** A root role (the users' rule, held until commit); anything else is a 400 naming rootRole. */
  private async checkRootRole(tx: EntityManager, roleId: number | null): Promise<number | null> {
    return roleId === null ? null : rootRoleId(tx, roleId, 'rootRole');
  }

  /** The distinct member ids, each an existing user kept until commit; an unknown one is a 400 naming `users`. */
  private async checkUsers(tx: EntityManager, userIds: number[]): Promise<number[]> {
    const distinct = [...new Set(userIds)];
    if (distinct.length === 0) return [];
    const known = await shareMemberUsers(tx, distinct);
    const bad = userIds.findIndex((u) => !known.has(u));
    if (bad >= 0) throw ValidationError.single(`users/${bad}`, `There is no user with id ${userIds[bad]}: the \`users\` property lists existing users only.`);
    return distinct;
  }

  private async refuseTaken(tx: EntityManager, name: string, except: number | null): Promise<void> {
    if (await groupNameTaken(tx, name, except)) throw nameTaken(name);
  }
}
