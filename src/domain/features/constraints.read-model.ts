import type { EntityManager } from '@mikro-orm/postgresql';

/** What constraints are checked against when they are saved: the context fields they name. */

/** The stored legal values of each of the named context fields that exist, by name. */
export async function contextFieldLegalValues(em: EntityManager, names: string[]): Promise<Record<string, Array<{ value: string }>>> {
  const rows: Array<{ name: string; legal_values: Array<{ value: string }> }> = await em.execute(
    `select name, legal_values from context_fields where name in (?)`, [names]);
  return Object.fromEntries(rows.map((r) => [r.name, r.legal_values]));
}
