import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSessionSchema } from './session.entity';

/**
 * The SQL of sessions: rows of `user_sessions`, keyed by the SHA-256 digest of the session id (session.service.ts).
 * Ending sessions goes through the ORM; opening one stays SQL, as every statement of a login (rate-limited) does, and
 * so does the sweep, which compares with the database's clock.
 */

export async function insertSession(tx: EntityManager, sidHash: string, userId: number, expiresAt: Date): Promise<void> {
  await tx.execute('insert into user_sessions (sid_hash, user_id, expires_at) values (?, ?, ?)', [sidHash, userId, expiresAt]);
}

/** Deletes the expired sessions of anyone. */
export async function sweepExpiredSessions(tx: EntityManager): Promise<void> {
  await tx.execute('delete from user_sessions where expires_at < now()');
}

/** Ends the session with this digest, if there is one. */
export async function deleteSession(em: EntityManager, sidHash: string): Promise<void> {
  await em.nativeDelete(UserSessionSchema, { sidHash });
}

/** Ends every session of the user. */
export async function endSessions(tx: EntityManager, userId: number): Promise<void> {
  await tx.nativeDelete(UserSessionSchema, { userId });
}

/** Ends every session of the user but the one with digest `keepSidHash` ('' keeps none). */
export async function endOtherSessions(tx: EntityManager, userId: number, keepSidHash: string): Promise<void> {
  await tx.nativeDelete(UserSessionSchema, { userId, sidHash: { $ne: keepSidHash } });
}
