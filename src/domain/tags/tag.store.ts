import type { EntityManager } from '@mikro-orm/postgresql';
import { lockedFindOne } from '../change';
import { NotFoundError } from '../errors';
import type { TableRow } from '../rows';
import { TagSchema, TagTypeSchema, type TagRow, type TagTypeRow } from './tag.entity';

/** The loads, locks and writes of tag types and tags (tag.service.ts says what each rule is for). */

/** The tag type, or 404; `lock` (inside a change) reads it `for update`, so concurrent changes of it take turns. */
export async function loadTagType(em: EntityManager, name: string, lock?: 'update'): Promise<TagTypeRow> {
  const row = lock ? await lockedFindOne(em, TagTypeSchema, { name }) : await em.findOne(TagTypeSchema, { name });
  if (!row) throw new NotFoundError(`Could not find tag type with name ${name}`);
  return row;
}

/** The tag, or 404; `lock` (inside a change) reads it `for update`. */
export async function loadTag(em: EntityManager, type: string, value: string, lock?: 'update'): Promise<TagRow> {
  const row = lock ? await lockedFindOne(em, TagSchema, { type, value }) : await em.findOne(TagSchema, { type, value });
  if (!row) throw new NotFoundError(`No tag with type ${type} and value ${value}`);
  return row;
}

/** Whether a tag type of this name exists. */
export async function tagTypeExists(em: EntityManager, name: string): Promise<boolean> {
  return (await em.findOne(TagTypeSchema, { name })) !== null;
}

/** A new tag type, written when the transaction commits. */
export function createTagType(tx: EntityManager, fields: Pick<TagTypeRow, 'name' | 'description' | 'icon'>): TagTypeRow {
  return tx.create(TagTypeSchema, fields);
}

/** Deletes the tag type (loaded in this transaction; its tags go with it) when the transaction commits. */
export function removeTagType(tx: EntityManager, row: TagTypeRow): void {
  tx.remove(row);
}

/** Whether the tag exists. */
export async function tagExists(em: EntityManager, type: string, value: string): Promise<boolean> {
  return (await em.findOne(TagSchema, { type, value })) !== null;
}

/** A new tag, written when the transaction commits. */
export function createTag(tx: EntityManager, type: string, value: string): TagRow {
  return tx.create(TagSchema, { type, value });
}

/** Deletes the tag (loaded in this transaction) when the transaction commits. */
export function removeTag(tx: EntityManager, row: TagRow): void {
  tx.remove(row);
}

/** Whether the tag type exists, read `for key share`: it stays until a tag of it is in (a concurrent delete waits). */
export async function holdTagType(tx: EntityManager, name: string): Promise<boolean> {
  const type: unknown[] = await tx.execute('select 1 from tag_types where name = ? for key share', [name]);
  return type.length > 0;
}

/** A tag type as `insertMissingTagType` writes and returns it. */
export type TagTypeDbRow = Pick<TableRow<TagTypeRow>, 'name' | 'description' | 'icon'>;

/** Creates the tag type unless one of that name exists; the created row, or undefined when it existed. */
export async function insertMissingTagType(tx: EntityManager, t: TagTypeDbRow): Promise<TagTypeDbRow | undefined> {
  const created: TagTypeDbRow[] = await tx.execute(
    'insert into tag_types (name, description, icon) values (?, ?, ?) on conflict (name) do nothing returning name, description, icon', [t.name, t.description, t.icon]);
  return created[0];
}
