import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthenticationRequired } from '../errors';
import { parse } from '../validation';
import { hashToken, verifyPassword } from './password';
import { deleteSession, insertSession, sweepExpiredSessions } from './session.store';
import { toUser } from './user.read-model';
import type { User } from './user.shapes';
import { countFailedLogin, loginUser, markSignedIn } from './user.store';

/** How long a session lives (Unleash: two days). */
export const SESSION_TTL_MS = 48 * 60 * 60 * 1000;

export const loginSchema = z.object({ username: z.string().min(1).max(254), password: z.string().min(1).max(1000) }).strict();

export interface Login {
  user: User;
  /** The session id for the cookie: 32 random bytes; only its digest is stored. */
  sessionId: string;
  expiresAt: Date;
}

/**
 * Password login and logout (issue 9). Sessions are rows in `user_sessions` (so every instance sees them) keyed by the
 * SHA-256 digest of the session id. A wrong password and an unknown user take the same time and give the same 401.
 */
export class SessionService {
  constructor(private readonly em: EntityManager) {}

  /**
   * `reserve` is called with the account the name resolves to (`user:<id>`, or `name:<lower-cased name>` when no user
   * has it) before the password is checked: the caller's rate limit takes its point there, and may refuse the attempt
   * by throwing. The name is a username or an e-mail, which share one namespace, so it names at most one user.
   */
  async login(input: unknown, reserve: (account: string) => Promise<void> = async () => {}): Promise<Login & { account: string }> {
    const { username, password } = parse(loginSchema, input);
    const em = this.em.fork();
    const row = await loginUser(em, username);
    const account = row ? `user:${row.id}` : `name:${username.toLowerCase()}`;
    await reserve(account);
    const ok = await verifyPassword(password, row?.password_hash ?? null);
    if (!row || !ok) {
      if (row) await countFailedLogin(em, row.id);
      throw new AuthenticationRequired('Wrong username or password.');
    }
    return { ...(await em.transactional((tx) => startSession(tx, row.id))), account };
  }

  /** Ends the session with this id (unknown ids are ignored: logging out twice is fine). */
  async logout(sessionId: string | undefined): Promise<void> {
    if (!sessionId || sessionId.length > 200) return;
    await deleteSession(this.em.fork(), hashToken(sessionId));
  }
}

/**
 * Opens a session for a user who has proved who they are (password, SAML): inside the caller's transaction, so a user
 * created in the same transaction can be signed in. Resets the failed-login count and marks the user seen.
 */
export async function startSession(tx: EntityManager, userId: number): Promise<Login> {
  const sessionId = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await insertSession(tx, hashToken(sessionId), userId, expiresAt);
  // Expired sessions of anyone are swept as people log in: no timer, and the table stays small.
  await sweepExpiredSessions(tx);
  return { user: toUser(await markSignedIn(tx, userId)), sessionId, expiresAt };
}
