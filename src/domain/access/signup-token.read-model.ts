import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import type { TableRow } from '../rows';
import type { RoleRow } from './role.entity';
import type { PublicSignupTokenRow, PublicSignupTokenUserRow } from './signup-token.entity';
import type { SignupToken } from './signup-token.shapes';
import { toUser, USER_COLUMNS_OF_U, type UserDbRow } from './user.read-model';
import type { User } from './user.shapes';

/** A token row as TOKEN_SELECT reads it: the token, its role's columns (`role_…`), and whether it is usable. */
export type SignupTokenRow = Pick<TableRow<PublicSignupTokenRow>, 'secret' | 'name' | 'enabled' | 'expires_at' | 'created_at' | 'created_by' | 'role_id'> & {
  role_name: TableRow<RoleRow>['name'];
  role_type: TableRow<RoleRow>['type'];
  role_description: TableRow<RoleRow>['description'];
  /** Whether the token is usable now, as the database's clock says. */
  valid: boolean;
};

export const TOKEN_SELECT = `select t.secret, t.name, t.enabled, t.expires_at, t.created_at, t.created_by, t.role_id,
  r.name as role_name, r.type as role_type, r.description as role_description,
  (t.enabled and t.expires_at > now()) as valid
  from public_signup_tokens t join roles r on r.id = t.role_id`;

/** Every token, oldest first, with its users; `publicUrl` is the base of their links. */
export async function listSignupTokens(em: EntityManager, publicUrl: string): Promise<SignupToken[]> {
  const rows: SignupTokenRow[] = await em.execute(`${TOKEN_SELECT} order by t.created_at, t.secret`);
  return withUsers(em, rows, publicUrl);
}

/** The token row with this secret, if any. */
export async function findSignupToken(em: EntityManager, secret: string): Promise<SignupTokenRow | undefined> {
  const [row]: SignupTokenRow[] = await em.execute(`${TOKEN_SELECT} where t.secret = ?`, [secret]);
  return row;
}

/** Tokens with the users who signed up with them: one query for all of them. */
export async function withUsers(em: EntityManager, rows: SignupTokenRow[], publicUrl: string): Promise<SignupToken[]> {
  const users = new Map<string, User[]>();
  if (rows.length > 0) {
    const found: Array<UserDbRow & Pick<TableRow<PublicSignupTokenUserRow>, 'secret'>> = await em.execute(
      `select tu.secret, ${USER_COLUMNS_OF_U} from public_signup_token_users tu join users u on u.id = tu.user_id
       where tu.secret in (?) order by tu.created_at, u.id`, [rows.map((r) => r.secret)]);
    for (const f of found) {
      const list = users.get(f.secret) ?? [];
      list.push(toUser(f));
      users.set(f.secret, list);
    }
  }
  return rows.map((r) => ({
    secret: r.secret,
    url: `${publicUrl}/new-user?invite=${encodeURIComponent(r.secret)}`,
    name: r.name,
    enabled: r.valid,
    expiresAt: iso(r.expires_at),
    createdAt: iso(r.created_at),
    createdBy: r.created_by,
    users: users.get(r.secret) ?? [],
    role: { id: r.role_id, name: r.role_name, type: r.role_type, description: r.role_description },
  }));
}
