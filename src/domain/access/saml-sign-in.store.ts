import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import { SamlMessageIdSchema, SamlSessionSchema, type SamlMessageIdRow, type SamlSessionRow } from './saml.entity';

/**
 * The SQL of SAML sign-in (saml-sign-in.ts): the ids of our requests and of assertions used (`saml_message_ids`, so
 * every instance checks them), and the sessions SAML opened (`saml_sessions`, for single logout). The plain delete,
 * insert and read by key go through the ORM; SQL stays for `insert … on conflict do nothing returning` (the check that
 * an id is new), times by the database's clock (`now()`), and the statements of the rate-limited `/auth/saml/login`.
 */

/** Records one of our request ids for `ttlMs`: false when it was recorded already. */
export async function insertRequestId(em: EntityManager, id: string, value: string, ttlMs: number): Promise<boolean> {
  const rows: unknown[] = await em.execute(
    `insert into saml_message_ids (kind, id, value, expires_at) values ('request', ?, ?, now() + ? * interval '1 millisecond') on conflict do nothing returning id`,
    [id, value, ttlMs]);
  return rows.length > 0;
}

/** Deletes expired message ids of every kind. */
export async function sweepExpiredMessageIds(em: EntityManager): Promise<void> {
  await em.execute('delete from saml_message_ids where expires_at < now()');
}

/** The value recorded with one of our unexpired request ids, if any. */
export async function requestIdValue(em: EntityManager, id: string): Promise<string | undefined> {
  const [row]: Array<Pick<TableRow<SamlMessageIdRow>, 'value'>> = await em.execute(`select value from saml_message_ids where kind = 'request' and id = ? and expires_at > now()`, [id]);
  return row?.value;
}

/** Deletes one of our request ids: false when there was none. */
export async function removeRequestId(em: EntityManager, id: string): Promise<boolean> {
  return (await em.nativeDelete(SamlMessageIdSchema, { kind: 'request', id })) > 0;
}

/** Records an assertion id as used until `expiresAt`: false when it was used already. */
export async function useAssertionId(em: EntityManager, id: string, expiresAt: Date): Promise<boolean> {
  const used: unknown[] = await em.execute(
    `insert into saml_message_ids (kind, id, expires_at) values ('assertion', ?, ?) on conflict do nothing returning id`,
    [id, expiresAt]);
  return used.length > 0;
}

export async function insertSamlSession(tx: EntityManager, sidHash: string, s: { nameId: string; format: string | null; sessionIndex: string | null }): Promise<void> {
  await tx.insert(SamlSessionSchema, { sidHash, nameId: s.nameId, nameIdFormat: s.format, sessionIndex: s.sessionIndex });
}

/** The SAML session of the session with this digest, if SAML opened it. */
export async function findSamlSession(em: EntityManager, sidHash: string): Promise<SamlSessionRow | null> {
  return em.findOne(SamlSessionSchema, { sidHash }, { disableIdentityMap: true });
}
