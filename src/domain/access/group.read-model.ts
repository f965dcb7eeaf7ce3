import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import type { TableRow } from '../rows';
import type { GroupRow, GroupUserRow } from './group.entity';
import type { Group, GroupUser } from './group.shapes';
import { toUser, USER_COLUMNS_OF_U, type UserDbRow } from './user.read-model';

/** A group row as GROUP_COLUMNS read it. */
export type GroupDbRow = Pick<TableRow<GroupRow>, 'id' | 'name' | 'description' | 'mappings_sso' | 'root_role_id' | 'created_by' | 'created_at'>;

/** A member as MEMBER_COLUMNS read it: the user row, with when and by whom it was added (`member_created_by`). */
export type GroupMemberDbRow = UserDbRow & Pick<TableRow<GroupUserRow>, 'group_id' | 'joined_at'> & { member_created_by: TableRow<GroupUserRow>['created_by'] };

export const GROUP_COLUMNS = 'id, name, description, mappings_sso, root_role_id, created_by, created_at';
const MEMBER_COLUMNS = `gu.group_id, gu.joined_at, gu.created_by as member_created_by, ${USER_COLUMNS_OF_U}`;

export async function listGroups(em: EntityManager): Promise<Group[]> {
  const rows: GroupDbRow[] = await em.execute(`select ${GROUP_COLUMNS} from groups order by id`);
  return withMembers(em, rows);
}

/** The groups with their members, in two statements whatever their number. */
export async function withMembers(em: EntityManager, rows: GroupDbRow[]): Promise<Group[]> {
  if (rows.length === 0) return [];
  const members: GroupMemberDbRow[] = await em.execute(
    `select ${MEMBER_COLUMNS} from group_user gu join users u on u.id = gu.user_id where gu.group_id in (select value::int from jsonb_array_elements_text(?::jsonb)) order by gu.group_id, gu.joined_at, u.id`,
    [JSON.stringify(rows.map((r) => r.id))],
  );
  const byGroup = new Map<number, GroupUser[]>();
  for (const m of members) {
    const list = byGroup.get(m.group_id) ?? [];
    list.push({ joinedAt: iso(m.joined_at), createdBy: m.member_created_by, user: toUser(m) });
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
      createdAt: iso(r.created_at),
      userCount: users.length,
      users,
    };
  });
}
