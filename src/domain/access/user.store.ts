import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import { NotFoundError } from '../errors';
import { rowId } from '../validation';
import { ROLE_ADMIN } from './permissions';
import type { TableRow } from '../rows';
import { UserLoginNameSchema, UserSchema, type UserRow } from './user.entity';
import { toUser, USER_COLUMNS, USER_COLUMNS_OF_U, type UserDbRow } from './user.read-model';
import type { User } from './user.shapes';

/**
 * The SQL of users (user.service.ts says what each rule is for). The password hash is written here and read only by
 * `loginUser`, for the password check; no other query reads it.
 *
 * The plain delete and update, the lock of a user's row and the check of taken names go through the ORM; the rest is
 * SQL: reads whose rows `toUser` maps (it maps the joined rows of signup tokens, groups and project access too),
 * `returning` rows, case-insensitive matches (`lower()` in the database), `exists`, and the statements of a login
 * (rate-limited) and of `seen_at`.
 *
 * Usernames and e-mails share one case-insensitive namespace (`user_login_names`, migration 0020): a name belongs to
 * at most one user, whichever property of theirs it is. Login, reset links and the "is it taken" checks read it.
 */

/** The user row with this id, if any; `lock` takes its row lock. SQL: `toUser` maps this row as it maps joined ones. */
export async function findUser(em: EntityManager, id: number, lock?: RowLock): Promise<UserDbRow | undefined> {
  const [row]: UserDbRow[] = await em.execute(`select ${USER_COLUMNS} from users where id = ?${lockClause(lock)}`, [id]);
  return row;
}

/** The user row, or 404 for an id that is not a positive integer or names no user. */
export async function loadUser(em: EntityManager, id: string | number, lock?: RowLock): Promise<UserDbRow> {
  const n = rowId(id);
  if (n === undefined) throw new NotFoundError(`Could not find user with id ${String(id)}.`);
  const row = await findUser(em, n, lock);
  if (!row) throw new NotFoundError(`Could not find user with id ${n}.`);
  return row;
}

/** Whether the user row exists, taking its row lock `for update`. */
export async function lockUser(tx: EntityManager, id: number): Promise<boolean> {
  return (await tx.findOne(UserSchema, { id }, { fields: ['id'], lockMode: LockMode.PESSIMISTIC_WRITE, disableIdentityMap: true })) !== null;
}

export interface NewUser {
  name: string | null;
  username: string | null;
  email: string | null;
  passwordHash: string | null;
  rootRoleId: number;
}

/**
 * Inserts a user inside the caller's transaction (admin create, public signup, SAML auto-create): the one place a
 * user row is written. The caller has checked the name is free; a lost race is the unique index's 409.
 */
export async function insertUser(tx: EntityManager, u: NewUser): Promise<User> {
  const [row]: UserDbRow[] = await tx.execute(
    `insert into users (name, username, email, password_hash, root_role_id) values (?, ?, ?, ?, ?) returning ${USER_COLUMNS}`,
    [u.name, u.username, u.email, u.passwordHash, u.rootRoleId],
  );
  return toUser(row);
}

/** Sets the user's name, email and root role; the row as it is now. */
export async function updateUser(tx: EntityManager, id: number, u: { name: string | null; email: string | null; rootRoleId: number }): Promise<UserDbRow> {
  const [updated]: UserDbRow[] = await tx.execute(
    `update users set name = ?, email = ?, root_role_id = ? where id = ? returning ${USER_COLUMNS}`,
    [u.name, u.email, u.rootRoleId, id],
  );
  return updated;
}

export async function deleteUser(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeDelete(UserSchema, { id });
}

/** A new password hash, with the failed-login count reset. */
export async function setPasswordHash(tx: EntityManager, id: number, hash: string): Promise<void> {
  await tx.nativeUpdate(UserSchema, { id }, { passwordHash: hash, loginAttempts: 0 });
}

/** Whether any user exists (SQL: the ORM counts every row, or refuses a findOne without a condition). */
export async function anyUser(em: EntityManager): Promise<boolean> {
  const [{ any }]: Array<{ any: boolean }> = await em.execute('select exists (select 1 from users) as any');
  return any;
}

/** User `admin` (root role Admin) with this password hash, only into a table without users: its id, or undefined. */
export async function insertFirstAdmin(em: EntityManager, passwordHash: string): Promise<number | undefined> {
  const [row]: Array<{ id: number }> = await em.execute(
    `insert into users (name, username, password_hash, root_role_id) select 'Admin', 'admin', ?, ? where not exists (select 1 from users) returning id`,
    [passwordHash, ROLE_ADMIN]);
  return row?.id;
}

/** The id of the user with this email (any case), locked `for update`, if any. */
export async function lockUserByEmail(tx: EntityManager, email: string): Promise<number | undefined> {
  const [existing]: Array<{ id: number }> = await tx.execute('select id from users where lower(email) = lower(?) for update', [email]);
  return existing?.id;
}

/** The id of the user whose username or e-mail is `name` (any case), if any: at most one user has it. */
export async function userIdByLoginName(em: EntityManager, name: string): Promise<number | undefined> {
  const [row]: Array<{ user_id: number }> = await em.execute('select user_id from user_login_names where name = lower(?)', [name]);
  return row?.user_id;
}

/** Which of these lower-cased names are already a username or e-mail of a user other than `exceptUserId`. */
export async function takenLoginNames(tx: EntityManager, names: string[], exceptUserId: number): Promise<Set<string>> {
  const rows = await tx.find(UserLoginNameSchema, { name: { $in: names }, userId: { $ne: exceptUserId } }, { fields: ['name'], disableIdentityMap: true });
  return new Set(rows.map((r) => r.name));
}

/** A user row with the password hash: what a password login checks. */
export type LoginUserRow = UserDbRow & Pick<TableRow<UserRow>, 'password_hash'>;

/** The user a login name (username or e-mail, any case) names, with their password hash: what a password login checks. */
export async function loginUser(em: EntityManager, name: string): Promise<LoginUserRow | undefined> {
  const [row]: LoginUserRow[] = await em.execute(
    `select ${USER_COLUMNS_OF_U}, u.password_hash
       from user_login_names n join users u on u.id = n.user_id where n.name = lower(?)`,
    [name],
  );
  return row;
}

/** One more failed login, counted in one statement. */
export async function countFailedLogin(em: EntityManager, id: number): Promise<void> {
  await em.execute('update users set login_attempts = login_attempts + 1 where id = ?', [id]);
}

/** A sign-in: the failed-login count goes back to 0 and the user is seen now; the row as it is now. */
export async function markSignedIn(tx: EntityManager, id: number): Promise<UserDbRow> {
  const [updated]: UserDbRow[] = await tx.execute(`update users set login_attempts = 0, seen_at = now() where id = ? returning ${USER_COLUMNS}`, [id]);
  return updated;
}
