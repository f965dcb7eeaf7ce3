import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import type { ResetTokenRow } from './password-reset.entity';
import type { RoleRow } from './role.entity';
import type { UserRow } from './user.entity';

/**
 * The SQL of reset and invite links: rows of `reset_tokens`, keyed by the SHA-256 digest of the token
 * (password-reset.service.ts says what each rule is for). All SQL: every statement reads or sets times by the
 * database's clock (`now()`), the holder's read is a join, and the sweep skips locked rows.
 */

/** A valid token's row with its user and root role (what the link's holder may see). */
export type HolderRow = Pick<TableRow<ResetTokenRow>, 'used_at' | 'created_by'> & Pick<TableRow<UserRow>, 'id' | 'name' | 'username' | 'email'> & {
  role_id: TableRow<RoleRow>['id'];
  role_name: TableRow<RoleRow>['name'];
  role_type: TableRow<RoleRow>['type'];
  role_description: TableRow<RoleRow>['description'];
};

/** The unexpired token with this digest, with its user and their root role, if any. */
export async function findResetTokenHolder(em: EntityManager, digest: string): Promise<HolderRow | undefined> {
  const [row]: HolderRow[] = await em.execute(
    `select t.used_at, t.created_by, u.id, u.name, u.username, u.email,
            r.id as role_id, r.name as role_name, r.type as role_type, r.description as role_description
       from reset_tokens t join users u on u.id = t.user_id join roles r on r.id = u.root_role_id
      where t.token_hash = ? and t.expires_at > now()`,
    [digest],
  );
  return row;
}

/** Every unused, unexpired token of the user expires now. */
export async function expireUnusedResetTokens(tx: EntityManager, userId: number): Promise<void> {
  await tx.execute('update reset_tokens set expires_at = now() where user_id = ? and used_at is null and expires_at > now()', [userId]);
}

/** Every unexpired token of the user expires now. */
export async function expireResetTokens(tx: EntityManager, userId: number): Promise<void> {
  await tx.execute('update reset_tokens set expires_at = now() where user_id = ? and expires_at > now()', [userId]);
}

/** Deletes up to `batch` expired tokens of anyone; rows another transaction holds are skipped, never waited for. */
export async function sweepExpiredResetTokens(tx: EntityManager, batch: number): Promise<void> {
  await tx.execute(
    'delete from reset_tokens where token_hash in (select token_hash from reset_tokens where expires_at < now() limit ? for update skip locked)',
    [batch],
  );
}

export async function insertResetToken(tx: EntityManager, digest: string, userId: number, createdBy: string | null, ttlSeconds: number): Promise<void> {
  await tx.execute(
    'insert into reset_tokens (token_hash, user_id, created_by, expires_at) values (?, ?, ?, now() + make_interval(secs => ?))',
    [digest, userId, createdBy, ttlSeconds],
  );
}

/** Uses the user's token with this digest up, in one statement: false when it is not (or no longer) usable. */
export async function useResetToken(tx: EntityManager, digest: string, userId: number): Promise<boolean> {
  const used: unknown[] = await tx.execute(
    'update reset_tokens set used_at = now(), expires_at = now() where token_hash = ? and user_id = ? and used_at is null and expires_at > now() returning user_id',
    [digest, userId],
  );
  return used.length > 0;
}
