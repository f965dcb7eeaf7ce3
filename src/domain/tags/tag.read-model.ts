import type { EntityManager } from '@mikro-orm/postgresql';
import { TagSchema, TagTypeSchema, type TagTypeRow } from './tag.entity';
import type { Tag, TagType } from './tag.shapes';

/** The reads of tag types and tags and the mapping of their rows into what both doors return. */


export const toTagType = (r: TagTypeRow): TagType => ({ name: r.name, description: r.description ?? null, icon: r.icon ?? null });

/** Every tag type, by name. */
export async function listTagTypes(em: EntityManager): Promise<TagType[]> {
  return (await em.find(TagTypeSchema, {}, { orderBy: { name: 'asc' }, disableIdentityMap: true })).map(toTagType);
}

/** Every tag, or those of one type, by type then value. */
export async function listTags(em: EntityManager, type?: string): Promise<Tag[]> {
  const rows = await em.find(TagSchema, type === undefined ? {} : { type }, { orderBy: { type: 'asc', value: 'asc' }, disableIdentityMap: true });
  return rows.map((r) => ({ type: r.type, value: r.value }));
}
