import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContextFieldRow } from '../context/context-field.entity';
import type { TableRow } from '../rows';

/** What constraints are checked against when they are saved: the context fields they name. */

/** The stored legal values of each of the named context fields that exist, by name. */
export async function contextFieldLegalValues(em: EntityManager, names: string[]): Promise<Record<string, Array<{ value: string }>>> {
  const rows: Array<Pick<TableRow<ContextFieldRow>, 'name' | 'legal_values'>> = await em.execute(
    `select name, legal_values from context_fields where name in (?)`, [names]);
  return Object.fromEntries(rows.map((r) => [r.name, r.legal_values]));
}
