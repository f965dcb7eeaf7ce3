import type { EntityManager } from '@mikro-orm/postgresql';
import { lockedFindOne } from '../change';
import { NotFoundError } from '../errors';
import { ContextFieldSchema, type ContextFieldRow } from './context-field.entity';

/** The field, or 404; `lock` (inside a change) reads it `for update`, so concurrent changes of it take turns. */
export async function loadContextField(em: EntityManager, name: string, lock?: 'update'): Promise<ContextFieldRow> {
  const row = lock ? await lockedFindOne(em, ContextFieldSchema, { name }) : await em.findOne(ContextFieldSchema, { name });
  if (!row) throw new NotFoundError(`Could not find Context field with name ${name}`);
  return row;
}

/** Whether a context field of this name exists. */
export async function contextFieldExists(em: EntityManager, name: string): Promise<boolean> {
  return (await em.findOne(ContextFieldSchema, { name })) !== null;
}

/** A new context field, written at once (it fills createdAt). */
export async function insertContextField(
  tx: EntityManager, fields: Pick<ContextFieldRow, 'name' | 'description' | 'stickiness' | 'sortOrder' | 'legalValues'>,
): Promise<ContextFieldRow> {
  const row = tx.create(ContextFieldSchema, fields);
  await tx.flush();
  return row;
}

/** Deletes the field (loaded in this transaction) when the transaction commits. */
export function removeContextField(tx: EntityManager, row: ContextFieldRow): void {
  tx.remove(row);
}
