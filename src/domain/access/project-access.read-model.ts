import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { GroupDbRow, GroupMemberDbRow } from './group.read-model';
import type { ProjectAccess, ProjectAccessGroup } from './project-access.shapes';
import type { Role } from './role.shapes';
import { toUser, USER_COLUMNS_OF_U, type UserDbRow } from './user.read-model';

/** When the holder got its first role in the project, and every role it holds there (aggregates of `role_user` or `group_role`). */
interface Holding {
  added_at: string;
  roles: number[];
}

/** Who holds which project roles in the project (which the caller has found to exist), with the project roles there are. */
export async function readProjectAccess(conn: EntityManager, project: string): Promise<ProjectAccess> {
  const [roles, users, groups]: [Role[], Array<UserDbRow & Holding>, Array<GroupDbRow & Holding>] = await Promise.all([
    conn.execute(`select id, name, type, coalesce(description, '') as description from roles where type in ('project', 'custom') order by id`),
    conn.execute(`select ${USER_COLUMNS_OF_U}, min(ru.created_at) as added_at, array_agg(ru.role_id order by ru.created_at, ru.role_id) as roles
       from role_user ru join users u on u.id = ru.user_id where ru.project = ? group by u.id order by u.id`, [project]),
    conn.execute(`select g.id, g.name, g.description, g.mappings_sso, g.root_role_id, g.created_by, g.created_at, min(gr.created_at) as added_at,
         array_agg(gr.role_id order by gr.created_at, gr.role_id) as roles
       from group_role gr join groups g on g.id = gr.group_id where gr.project = ? group by g.id order by g.id`, [project]),
  ]) as never;
  const members: GroupMemberDbRow[] = groups.length === 0 ? [] : await conn.execute(
    `select gu.group_id, gu.joined_at, gu.created_by as member_created_by, ${USER_COLUMNS_OF_U}
       from group_user gu join users u on u.id = gu.user_id where gu.group_id in (?) order by gu.group_id, u.id`, [groups.map((g) => g.id)]);
  const byGroup = new Map<number, ProjectAccessGroup['users']>();
  for (const m of members) {
    const list = byGroup.get(m.group_id) ?? [];
    list.push({ joinedAt: iso(m.joined_at), createdBy: m.member_created_by, user: toUser(m) });
    byGroup.set(m.group_id, list);
  }
  return {
    roles,
    users: users.map((u) => ({ ...toUser(u), addedAt: iso(u.added_at), roleId: u.roles[0], roles: u.roles })),
    groups: groups.map((g) => ({
      id: g.id, name: g.name, description: g.description, mappingsSSO: g.mappings_sso ?? [], rootRole: g.root_role_id, createdBy: g.created_by,
      createdAt: isoOrNull(g.created_at), addedAt: iso(g.added_at), roleId: g.roles[0], roles: g.roles,
      users: byGroup.get(g.id) ?? [],
    })),
  };
}
