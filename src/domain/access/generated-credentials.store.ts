import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import type { SettingRow } from './setting.entity';

/**
 * The SQL of generated credentials (generated-credentials.ts): whether an admin token and a user exist, and the
 * "unshown" rows of the generic `settings` table (one per kind, named by the caller), each holding `{id, createdAt}`.
 * All SQL: two `exists` in one statement, an upsert, a delete by a jsonb field, and a join.
 */

/** What the settings row of an unshown credential holds. */
export interface UnshownRecord {
  id: number;
  createdAt: string;
}

/** Whether an admin API token exists, and whether a user does. */
export async function existingCredentials(em: EntityManager): Promise<{ token: boolean; user: boolean }> {
  const [have]: Array<{ token: boolean; user: boolean }> = await em.execute(
    `select exists (select 1 from api_tokens where type = 'admin') as token, exists (select 1 from users) as "user"`);
  return have;
}

/** Writes the unshown record `name` (replacing one there is). */
export async function writeUnshownRecord(tx: EntityManager, name: string, content: UnshownRecord): Promise<void> {
  await tx.execute('insert into settings (name, content) values (?, ?::jsonb) on conflict (name) do update set content = excluded.content', [name, JSON.stringify(content)]);
}

/** Deletes the unshown record `name` if it is the one of credential `id`. */
export async function deleteUnshownRecord(em: EntityManager, name: string, id: number): Promise<void> {
  await em.execute(`delete from settings where name = ? and (content->>'id')::int = ?`, [name, id]);
}

/** An unshown record, with whether its token (or user) still exists and was used (or logged in) since. */
export type UnshownRecordRow = Pick<TableRow<SettingRow>, 'name'> & {
  /** The row's JSON, which writeUnshownRecord wrote. */
  content: UnshownRecord;
  exists: boolean;
  used: boolean;
};

/** The unshown records of a token (`tokenName`) and of a password (`passwordName`), with what became of them. */
export async function unshownRecords(em: EntityManager, tokenName: string, passwordName: string): Promise<UnshownRecordRow[]> {
  return em.execute(
    `select s.name, s.content, coalesce(t.id, u.id) is not null as "exists", coalesce(t.seen_at, u.seen_at) is not null as "used"
       from settings s
       left join api_tokens t on s.name = ? and t.id = (s.content->>'id')::int
       left join users u on s.name = ? and u.id = (s.content->>'id')::int
      where s.name in (?, ?)`,
    [tokenName, passwordName, tokenName, passwordName]);
}
