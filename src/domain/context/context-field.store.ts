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
