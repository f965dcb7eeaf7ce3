import type { EntityManager } from '@mikro-orm/postgresql';
import type { RowLock } from '../change';
import { NotFoundError } from '../errors';
import { PublicSignupTokenSchema, PublicSignupTokenUserSchema } from './signup-token.entity';
import { TOKEN_SELECT, type SignupTokenRow } from './signup-token.read-model';

/**
 * The SQL of public signup tokens and the users who signed up with them (signup-token.service.ts has the rules). The
 * inserts go through the ORM; SQL stays for the loads (a join with the role, locked `of t`, and `valid` by the
 * database's clock), `for share` and `for key share`, and the update that keeps what is not given (`coalesce`).
 */

/** The token row, or 404; `lock` takes the token's row lock. A secret is hex (Unleash's are 32 characters). */
export async function loadSignupToken(em: EntityManager, secret: string, lock?: RowLock): Promise<SignupTokenRow> {
  const [row]: SignupTokenRow[] = secret.length > 200 ? [] : await em.execute(`${TOKEN_SELECT} where t.secret = ?${lock ? ` for ${lock} of t` : ''}`, [secret]);
  if (!row) throw new NotFoundError('Could not find public signup token.');
  return row;
}

/** The token row with this secret, held `for share` until commit, if any. */
export async function shareSignupToken(tx: EntityManager, secret: string): Promise<SignupTokenRow | undefined> {
  const [row]: SignupTokenRow[] = await tx.execute(`${TOKEN_SELECT} where t.secret = ? for share of t`, [secret]);
  return row;
}

/** Holds the token's role `for key share` until commit. */
export async function shareTokenRole(tx: EntityManager, roleId: number): Promise<void> {
  await tx.execute('select id from roles where id = ? for key share', [roleId]);
}

export async function insertSignupToken(tx: EntityManager, t: { secret: string; name: string; roleId: number; expiresAt: Date; createdBy: string }): Promise<void> {
  await tx.insert(PublicSignupTokenSchema, { secret: t.secret, name: t.name, roleId: t.roleId, expiresAt: t.expiresAt, createdBy: t.createdBy });
}

/** Sets what is given (null keeps the stored value). */
export async function updateSignupToken(tx: EntityManager, secret: string, t: { expiresAt: string | null; enabled: boolean | null }): Promise<void> {
  await tx.execute('update public_signup_tokens set expires_at = coalesce(?::timestamptz, expires_at), enabled = coalesce(?::boolean, enabled) where secret = ?',
    [t.expiresAt, t.enabled, secret]);
}

/** Lists the user among those who signed up with the token. */
export async function addSignupTokenUser(tx: EntityManager, secret: string, userId: number): Promise<void> {
  await tx.insert(PublicSignupTokenUserSchema, { secret, userId });
}
