import type { EntityManager } from '@mikro-orm/postgresql';
import type { PatRow } from './personal-token.read-model';

/**
 * The SQL of personal access tokens (personal-token.service.ts). A token is stored by the digest of its secret only.
 * Both statements return the row the event and the answer are made of (`returning`), which the ORM would read again.
 */

export async function insertPersonalToken(tx: EntityManager, t: { userId: number; secretHash: string; description: string; expiresAt: Date }): Promise<PatRow> {
  const [row]: PatRow[] = await tx.execute(
    'insert into personal_access_tokens (user_id, secret_hash, description, expires_at) values (?, ?, ?, ?) returning id, description, expires_at, created_at, seen_at',
    [t.userId, t.secretHash, t.description, t.expiresAt],
  );
  return row;
}

/** Deletes the user's token with this id: the deleted row, or undefined when the user has none with it. */
export async function deletePersonalToken(tx: EntityManager, id: number, userId: number): Promise<PatRow | undefined> {
  const [row]: PatRow[] = await tx.execute(
    'delete from personal_access_tokens where id = ? and user_id = ? returning id, description, expires_at, created_at, seen_at', [id, userId]);
  return row;
}
