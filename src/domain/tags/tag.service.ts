import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import { NONE } from '../access/permissions';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NameExistsError, ValidationError } from '../errors';
import { description, parse, sameJson, urlFriendlyName } from '../validation';
import { listTags, listTagTypes, toTagType } from './tag.read-model';
import type { Tag, TagType } from './tag.shapes';
import { createTag, createTagType, holdTagType, loadTag, loadTagType, removeTag, removeTagType, tagExists, tagTypeExists } from './tag.store';

const tagTypeName = urlFriendlyName(2, 50);
const icon = z.string().max(100).nullable().optional();
export const createTagTypeSchema = z.object({ name: tagTypeName, description: description.nullable().optional(), icon }).strict();
/** A new tag type as created directly; an import creates the tag types it brings with the same rules (issue 13). */
export const tagTypeCreateSchema = createTagTypeSchema;
export const updateTagTypeSchema = z.object({ name: z.string().optional(), description: description.nullable().optional(), icon }).strict();
export const validateTagTypeSchema = z.object({ name: tagTypeName }).strict();
// Tag rules (spec Tag; Unleash): value 2..50 characters, type URL-friendly 2..50, default `simple`.
export const tagSchema = z.object({ type: tagTypeName.default('simple'), value: z.string().trim().min(2).max(50) }).strict();

export type CreateTagTypeInput = z.input<typeof createTagTypeSchema>;
export type UpdateTagTypeInput = z.input<typeof updateTagTypeSchema>;
export type CreateTagInput = z.input<typeof tagSchema>;

export class TagService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  // ---- tag types
  async listTagTypes(): Promise<TagType[]> {
    return listTagTypes(this.em);
  }

  async getTagType(name: string): Promise<TagType> {
    return toTagType(await loadTagType(this.em, name));
  }

  async createTagType(input: CreateTagTypeInput): Promise<TagType> {
    const data = parse(createTagTypeSchema, input);
    await this.access.check('CREATE_TAG_TYPE');
    return change(this.em, this.principal, async (tx, emit) => {
      if (await tagTypeExists(tx, data.name)) throw new NameExistsError(`There already exists a tag-type with the name ${data.name}`);
      const tagType = toTagType(createTagType(tx, { name: data.name, description: data.description ?? null, icon: data.icon ?? null }));
      emit({ type: 'tag-type-created', data: tagType });
      return tagType;
    });
  }

  async updateTagType(name: string, input: UpdateTagTypeInput): Promise<TagType> {
    const data = parse(updateTagTypeSchema, input);
    if (data.name !== undefined && data.name !== name) throw ValidationError.single('name', 'The `name` property must equal the tag type name in the path; a tag type cannot be renamed.');
    await this.access.check('UPDATE_TAG_TYPE');
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await loadTagType(tx, name, 'update');
      const before = toTagType(row);
      if (data.description !== undefined) row.description = data.description;
      if (data.icon !== undefined) row.icon = data.icon;
      const after = toTagType(row);
      if (!sameJson(before, after)) emit({ type: 'tag-type-updated', data: after, preData: before });
      return after;
    });
  }

  /** Deleting a tag type deletes its tags and untags every feature that carried them. */
  async deleteTagType(name: string): Promise<void> {
    await this.access.check('DELETE_TAG_TYPE');
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await loadTagType(tx, name, 'update');
      emit({ type: 'tag-type-deleted', preData: toTagType(row) });
      removeTagType(tx, row);
    });
  }

  async validateTagType(input: unknown): Promise<void> {
    const { name } = parse(validateTagTypeSchema, input);
    if (await tagTypeExists(this.em, name)) throw new NameExistsError(`There already exists a tag-type with the name ${name}`);
  }

  // ---- tags
  async listTags(type?: string): Promise<Tag[]> {
    if (type !== undefined) await loadTagType(this.em, type);
    return listTags(this.em, type);
  }

  async getTag(type: string, value: string): Promise<Tag> {
    const row = await loadTag(this.em, type, value);
    return { type: row.type, value: row.value };
  }

  /** Creating a tag needs only an authenticated caller (Unleash: permission NONE). */
  async createTag(input: CreateTagInput): Promise<Tag> {
    const tag = parse(tagSchema, input);
    await this.access.check(NONE);
    return change(this.em, this.principal, async (tx, emit) => {
      // The type must stay until the tag is in (a concurrent delete of it waits).
      if (!(await holdTagType(tx, tag.type))) throw ValidationError.single('type', `Tag type '${tag.type}' does not exist`);
      if (await tagExists(tx, tag.type, tag.value)) throw new NameExistsError(`A tag of type ${tag.type} with the value ${tag.value} already exists`);
      createTag(tx, tag.type, tag.value);
      emit({ type: 'tag-created', data: tag });
      return tag;
    });
  }

  /** Deleting a tag removes it from every feature (Unleash requires UPDATE_FEATURE). */
  async deleteTag(type: string, value: string): Promise<void> {
    await this.access.check('UPDATE_FEATURE');
    await change(this.em, this.principal, async (tx, emit) => {
      removeTag(tx, await loadTag(tx, type, value, 'update'));
      emit({ type: 'tag-deleted', preData: { type, value } });
    });
  }
}
