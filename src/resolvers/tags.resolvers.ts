import type { Tag, TagType } from '../domain/tags/tag.shapes';
import { createTagTypeSchema, tagSchema, updateTagTypeSchema } from '../domain/tags/tag.service';
import { builder } from './builder';
import { defined } from './input';
import { zodInput } from './zod-input';

export const TagTypeRef = builder.objectRef<TagType>('TagType').implement({
  description: 'A kind of tag (for example simple).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Unique, URL-friendly name, 2..50 characters.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    icon: t.exposeString('icon', { nullable: true, description: 'Icon shown with tags of this type.' }),
  }),
});

export const TagRef = builder.objectRef<Tag>('Tag').implement({
  description: 'A tag: a value of a tag type.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Tag type name.' }),
    value: t.exposeString('value', { description: 'The value, 2..50 characters.' }),
  }),
});

builder.queryFields((t) => ({
  tagTypes: t.field({
    type: [TagTypeRef],
    description: 'Every tag type, by name.',
    resolve: (_root, _args, ctx) => ctx.services.tags.listTagTypes(),
  }),
  tagType: t.field({
    type: TagTypeRef,
    description: 'One tag type; a NotFoundError when it does not exist.',
    args: { name: t.arg.string({ required: true, description: 'Tag type name.' }) },
    resolve: (_root, args, ctx) => ctx.services.tags.getTagType(args.name),
  }),
  tags: t.field({
    type: [TagRef],
    description: 'Every tag, or the tags of one type, by type then value.',
    args: { type: t.arg.string({ description: 'Only tags of this type.' }) },
    resolve: (_root, args, ctx) => ctx.services.tags.listTags(args.type ?? undefined),
  }),
  tag: t.field({
    type: TagRef,
    description: 'One tag; a NotFoundError when it does not exist.',
    args: { type: t.arg.string({ required: true, description: 'Tag type.' }), value: t.arg.string({ required: true, description: 'Tag value.' }) },
    resolve: (_root, args, ctx) => ctx.services.tags.getTag(args.type, args.value),
  }),
}));

const CreateTagTypeInput = zodInput('CreateTagTypeInput', createTagTypeSchema, {
  description: 'A new tag type.',
  descriptions: { name: 'URL-friendly name, 2..50 characters.', description: 'Free text.', icon: 'Icon.' },
});
const UpdateTagTypeInput = zodInput('UpdateTagTypeInput', updateTagTypeSchema, {
  description: 'Changes to a tag type; absent fields are untouched.',
  descriptions: { description: 'Free text.', icon: 'Icon.' },
  fields: (t) => ({ name: t.string({ required: true, description: 'The tag type to change.' }) }),
});
const TagTypeNameInput = builder.inputType('TagTypeNameInput', {
  description: 'Names one tag type.',
  fields: (t) => ({ name: t.string({ required: true, description: 'Tag type name.' }) }),
});
const CreateTagInput = zodInput('CreateTagInput', tagSchema, {
  description: 'A new tag.',
  descriptions: { type: 'Tag type (default simple).', value: 'The value, 2..50 characters.' },
});
const TagInput = builder.inputType('TagInput', {
  description: 'Names one tag.',
  fields: (t) => ({
    type: t.string({ required: true, description: 'Tag type.' }),
    value: t.string({ required: true, description: 'Tag value.' }),
  }),
});

builder.mutationFields((t) => ({
  createTagType: t.field({
    type: TagTypeRef,
    description: 'Creates a tag type (permission CREATE_TAG_TYPE). Event tag-type-created.',
    args: { input: t.arg({ type: CreateTagTypeInput, required: true, description: 'The tag type to create.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.tags.createTagType(defined(input) as never),
  }),
  updateTagType: t.field({
    type: TagTypeRef,
    description: 'Changes a tag type (permission UPDATE_TAG_TYPE). Event tag-type-updated.',
    args: { input: t.arg({ type: UpdateTagTypeInput, required: true, description: 'The tag type and its changes.' }) },
    resolve: (_root, { input: { name, ...rest } }, ctx) => ctx.services.tags.updateTagType(name, defined(rest) as never),
  }),
  deleteTagType: t.boolean({
    description: 'Deletes a tag type with its tags (permission DELETE_TAG_TYPE). Event tag-type-deleted.',
    args: { input: t.arg({ type: TagTypeNameInput, required: true, description: 'The tag type to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.tags.deleteTagType(input.name);
      return true;
    },
  }),
  createTag: t.field({
    type: TagRef,
    description: 'Creates a tag; a NameExistsError when it exists. Event tag-created.',
    args: { input: t.arg({ type: CreateTagInput, required: true, description: 'The tag to create.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.tags.createTag(defined(input) as never),
  }),
  deleteTag: t.boolean({
    description: 'Deletes a tag and removes it from every feature (permission UPDATE_FEATURE). Event tag-deleted.',
    args: { input: t.arg({ type: TagInput, required: true, description: 'The tag to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.tags.deleteTag(input.type, input.value);
      return true;
    },
  }),
}));
