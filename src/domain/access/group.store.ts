import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import { NotFoundError } from '../errors';
import { rowId } from '../validation';
import { GroupSchema, GroupUserSchema } from './group.entity';
import { GROUP_COLUMNS, type GroupDbRow } from './group.read-model';

/**
 * The SQL of groups and their members (group.service.ts says what each rule is for). Deletes go through the ORM; the
 * rest stays SQL: `withMembers` maps the raw rows of the load and of the `returning` clauses alike, the SSO mappings
 * are built from JSON, adding members is an `on conflict`, names match case-insensitively (`lower()`), and
 * `for key share` is no lock the ORM takes.
 */

/** What a group row is written from. */
export interface GroupFields {
  name: string;
  description: string | null;
  mappingsSSO: string[];
  rootRoleId: number | null;
}

/** The group row, or 404 for an id that is not a positive integer or names no group. */
export async function loadGroup(em: EntityManager, groupId: string | number, lock?: RowLock): Promise<GroupDbRow> {
  const n = rowId(groupId);
  if (n === undefined) throw new NotFoundError(`Could not find group with id ${String(groupId)}.`);
  const [row]: GroupDbRow[] = await em.execute(`select ${GROUP_COLUMNS} from groups where id = ?${lockClause(lock)}`, [n]);
  if (!row) throw new NotFoundError(`Could not find group with id ${n}.`);
  return row;
}

export async function insertGroup(tx: EntityManager, g: GroupFields, createdBy: string): Promise<GroupDbRow> {
  const [row]: GroupDbRow[] = await tx.execute(
    `insert into groups (name, description, mappings_sso, root_role_id, created_by) values (?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?) returning ${GROUP_COLUMNS}`,
    [g.name, g.description, JSON.stringify(g.mappingsSSO), g.rootRoleId, createdBy],
  );
  return row;
}

export async function updateGroup(tx: EntityManager, id: number, g: GroupFields): Promise<GroupDbRow> {
  const [updated]: GroupDbRow[] = await tx.execute(
    `update groups set name = ?, description = ?, mappings_sso = array(select jsonb_array_elements_text(?::jsonb)), root_role_id = ? where id = ? returning ${GROUP_COLUMNS}`,
    [g.name, g.description, JSON.stringify(g.mappingsSSO), g.rootRoleId, id],
  );
  return updated;
}

export async function deleteGroup(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeDelete(GroupSchema, { id });
}

/** Removes the members not among `userIds` (all of them when it is empty). */
export async function removeMembersBut(tx: EntityManager, groupId: number, userIds: number[]): Promise<void> {
  await tx.nativeDelete(GroupUserSchema, { groupId, userId: { $nin: userIds } });
}

/** Adds the users not yet members (joined now, by `createdBy`); existing memberships are left as they are. */
export async function addMembers(tx: EntityManager, groupId: number, userIds: number[], createdBy: string): Promise<void> {
  if (userIds.length === 0) return;
  await tx.execute(
    'insert into group_user (group_id, user_id, created_by) select ?, value::int, ? from jsonb_array_elements_text(?::jsonb) on conflict do nothing',
    [groupId, createdBy, JSON.stringify(userIds)],
  );
}

/** Which of these users exist, each held `for key share` until commit. */
export async function shareMemberUsers(tx: EntityManager, userIds: number[]): Promise<Set<number>> {
  const found: Array<{ id: number }> = await tx.execute('select id from users where id in (select value::int from jsonb_array_elements_text(?::jsonb)) for key share', [JSON.stringify(userIds)]);
  return new Set(found.map((r) => r.id));
}

/** Whether a group other than `except` has this name, whatever its case. */
export async function groupNameTaken(tx: EntityManager, name: string, except: number | null): Promise<boolean> {
  const taken: unknown[] = await tx.execute('select 1 from groups where lower(name) = lower(?) and id is distinct from ? limit 1', [name, except]);
  return taken.length > 0;
}
