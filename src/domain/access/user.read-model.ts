import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { TableRow } from '../rows';
import type { UserRow } from './user.entity';
import type { User } from './user.shapes';

/** A user row as USER_COLUMNS read it: every column but the password hash. */
export type UserDbRow = Pick<TableRow<UserRow>,
  'id' | 'name' | 'username' | 'email' | 'image_url' | 'login_attempts' | 'email_sent' | 'account_type' | 'root_role_id' | 'seen_at' | 'created_at'>;

/** Every column but the password hash: what any query that may reach a response reads. */
export const USER_COLUMNS = 'id, name, username, email, image_url, login_attempts, email_sent, account_type, root_role_id, seen_at, created_at';
/** USER_COLUMNS of `users u`, for queries that join it. */
export const USER_COLUMNS_OF_U = USER_COLUMNS.split(', ').map((c) => `u.${c}`).join(', ');

/** Unleash's avatar: a Gravatar URL from the email (or the username, or the id), never anything secret. */
function avatar(r: Pick<UserDbRow, 'email' | 'username' | 'id'>): string {
  const key = (r.email ?? r.username ?? String(r.id)).trim().toLowerCase();
  return `https://gravatar.com/avatar/${createHash('md5').update(key).digest('hex')}?s=42&d=retro&r=g`;
}

export function toUser(r: UserDbRow): User {
  return {
    id: r.id,
    isAPI: false,
    name: r.name,
    email: r.email,
    username: r.username,
    imageUrl: r.image_url ?? avatar(r),
    inviteLink: '',
    loginAttempts: r.login_attempts,
    emailSent: r.email_sent,
    rootRole: r.root_role_id,
    seenAt: isoOrNull(r.seen_at),
    createdAt: iso(r.created_at),
    accountType: r.account_type,
    permissions: [],
  };
}

/** What an audit event records of a user: the public fields, never a password or its hash. */
export const userEventData = (u: User) => ({ id: u.id, name: u.name, email: u.email, username: u.username, rootRole: u.rootRole, accountType: u.accountType });

/** Every user, by id (SQL: `toUser` maps raw rows, as the joins of signup tokens, groups and project access read them). */
export async function listUsers(em: EntityManager): Promise<User[]> {
  const rows: UserDbRow[] = await em.execute(`select ${USER_COLUMNS} from users order by id`);
  return rows.map(toUser);
}
