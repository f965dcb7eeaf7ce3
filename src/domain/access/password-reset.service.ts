import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { InvalidTokenError, NotFoundError, UsedTokenError } from '../errors';
import { parse } from '../validation';
import { checkPasswordStrength, hashPassword, hashToken } from './password';
import {
  expireResetTokens, expireUnusedResetTokens, findResetTokenHolder, insertResetToken, sweepExpiredResetTokens, useResetToken, type HolderRow,
} from './password-reset.store';
import type { Principal } from './principal';
import type { TokenUser } from './password-reset.shapes';
import { endSessions } from './session.store';
import { toUser, userEventData } from './user.read-model';
import { findUser, lockUser, setPasswordHash } from './user.store';

/**
 * Password reset and invite links (issue 10). A link carries a token: 32 random bytes (base64url, 43 characters),
 * stored only as its SHA-256 digest in `reset_tokens`, valid for RESET_TOKEN_TTL_MS and usable once. An admin asks for
 * a reset link (UserService.createResetLink); a user created without a password gets an invite link of the same kind
 * (UserService.create). Whoever holds the link checks it (`validate`) and sets a password with it (`reset`) without
 * any other credentials, through /auth (D10).
 *
 * Neither the token nor its digest is ever written to an event or a log line; the links are in the answer to the
 * admin who asked for them, and nowhere else.
 */

/** How long a link stays valid (Unleash: 24 hours). */
export const RESET_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** A token is 43 characters; anything much longer is not one of ours and is refused without a query. */
const MAX_TOKEN_LENGTH = 200;
/** Expired rows deleted per issue, at most: the sweep stays cheap however many piled up. */
const SWEEP_BATCH = 100;

export const resetPasswordUrl = (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${token}`;
export const inviteUrl = (publicUrl: string, token: string) => `${publicUrl}/new-user?token=${token}`;

/**
 * Issues a new token for a user inside the caller's transaction and returns it (the only time it exists in clear).
 * Locks the user row first, so two links issued at once for one user are issued one after the other and exactly one
 * stays valid: every older unused token of the user expires now. Expired rows of anyone are swept on the way (no
 * timer; rows another transaction holds are skipped, never waited for).
 */
export async function issueResetToken(tx: EntityManager, userId: number, createdBy: string | null): Promise<string> {
  if (!(await lockUser(tx, userId))) throw new NotFoundError(`Could not find user with id ${userId}.`);
  await expireUnusedResetTokens(tx, userId);
  await sweepExpiredResetTokens(tx, SWEEP_BATCH);
  const token = randomBytes(32).toString('base64url');
  await insertResetToken(tx, hashToken(token), userId, createdBy, RESET_TOKEN_TTL_MS / 1000);
  return token;
}

export const resetSchema = z.object({ token: z.string().max(MAX_TOKEN_LENGTH), password: z.string().max(1000) }).strict();

/**
 * The public side of the links: no principal, no permission. Every refusal of a token is the same 401
 * InvalidTokenError "Token was not valid", whether it is missing, malformed, unknown, expired or used (a used token is
 * expired at the moment of use); only a row marked used that has not expired (which this service never writes) is a
 * 403 UsedTokenError, as in Unleash.
 */
export class PasswordResetService {
  constructor(private readonly em: EntityManager, private readonly onRevoke: () => void = () => {}) {}

  /** GET /auth/reset/validate?token=…: the user the token belongs to, with their root role. */
  async validate(token: unknown): Promise<TokenUser> {
    const holder = await this.holder(this.em.fork(), token);
    return {
      id: holder.id,
      name: holder.name,
      email: holder.email ?? '',
      token: token as string,
      createdBy: holder.created_by,
      role: { id: holder.role_id, name: holder.role_name, type: holder.role_type, description: holder.role_description ?? '' },
    };
  }

  /**
   * POST /auth/reset/password {token, password}: sets the password and uses the token up, atomically (of several
   * requests with one token, exactly one succeeds), ends every session of the user and every other link, and resets
   * the failed-login count. Event user-updated with `passwordChanged: true`, written as the user.
   */
  async reset(input: unknown): Promise<void> {
    const { token, password } = parse(resetSchema, input);
    checkPasswordStrength(password);
    const em = this.em.fork();
    // The token is checked before the (deliberately slow) password hash, so a caller without a valid token cannot
    // make the server hash anything; it is checked again, atomically, when it is used.
    const holder = await this.holder(em, token);
    const hash = await hashPassword(password);
    const digest = hashToken(token);
    const principal: Principal = { kind: 'user', name: holder.username ?? holder.email ?? String(holder.id), userId: holder.id, isAdmin: false, rootRoleId: holder.role_id };
    await change(em, principal, async (tx, emit) => {
      // Lock order as when a token is issued: the user row, then their tokens.
      const row = await findUser(tx, holder.id, 'update');
      if (!row) throw new InvalidTokenError();
      if (!(await useResetToken(tx, digest, row.id))) throw new InvalidTokenError();
      await expireResetTokens(tx, row.id);
      await setPasswordHash(tx, row.id, hash);
      // Whoever was signed in as this user (perhaps with the password that was forgotten or leaked) is signed out.
      await endSessions(tx, row.id);
      const before = userEventData(toUser(row));
      emit({ type: 'user-updated', data: { ...before, passwordChanged: true }, preData: before });
    });
    this.onRevoke();
  }

  /** The valid token's row with its user and root role, or the refusal. */
  private async holder(em: EntityManager, token: unknown): Promise<HolderRow> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError();
    const row = await findResetTokenHolder(em, hashToken(token));
    if (!row) throw new InvalidTokenError();
    if (row.used_at) throw new UsedTokenError(new Date(row.used_at));
    return row;
  }
}
