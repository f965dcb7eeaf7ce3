import type { ContextField, LegalValue } from '../domain/context/context-field.shapes';
import { contextFieldCreateSchema, legalValue, updateSchema } from '../domain/context/context-field.service';
import { builder } from './builder';
import { defined } from './input';
import { zodInput } from './zod-input';

const LegalValueRef = builder.objectRef<LegalValue>('LegalValue').implement({
  description: 'A value a constraint on the context field may use.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The value, 1..100 characters.' }),
    description: t.string({ nullable: true, description: 'What the value means.', resolve: (v) => v.description ?? null }),
  }),
});

export const ContextFieldRef = builder.objectRef<ContextField>('ContextField').implement({
  description: 'A field of the client context that constraints and stickiness can use.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Unique, URL-friendly name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    stickiness: t.exposeBoolean('stickiness', { description: 'Whether it can be used for stickiness.' }),
    sortOrder: t.exposeInt('sortOrder', { description: 'Ordering hint; ties are ordered by name.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true, description: 'Creation time.' }),
    usedInFeatures: t.exposeInt('usedInFeatures', { description: 'Features (archived included) whose strategy constraints use the field.' }),
    usedInProjects: t.exposeInt('usedInProjects', { description: 'Projects whose strategy constraints use the field.' }),
    legalValues: t.field({ type: [LegalValueRef], description: 'Allowed values; empty means any value.', resolve: (f) => f.legalValues }),
  }),
});

builder.queryFields((t) => ({
  contextFields: t.field({
    type: [ContextFieldRef],
    description: 'Every context field, by name.',
    resolve: (_root, _args, ctx) => ctx.services.contextFields.list(),
  }),
  contextField: t.field({
    type: ContextFieldRef,
    description: 'One context field; a NotFoundError when it does not exist.',
    args: { name: t.arg.string({ required: true, description: 'Context field name.' }) },
    resolve: (_root, args, ctx) => ctx.services.contextFields.get(args.name),
  }),
}));

// Built for the context field inputs that hold it.
zodInput('LegalValueInput', legalValue, {
  description: 'A legal value.',
  descriptions: { value: 'The value, 1..100 characters.', description: 'What the value means.' },
});
const CreateContextFieldInput = zodInput('CreateContextFieldInput', contextFieldCreateSchema, {
  description: 'A new context field.',
  descriptions: {
    name: 'URL-friendly name, 1..100 characters.',
    description: 'Free text.',
    stickiness: 'Usable for stickiness (default false).',
    sortOrder: 'Ordering hint (default 10).',
    legalValues: 'Allowed values, unique.',
  },
});
const UpdateContextFieldInput = zodInput('UpdateContextFieldInput', updateSchema, {
  description: 'Changes to a context field; absent fields are untouched.',
  descriptions: {
    description: 'Free text.',
    stickiness: 'Usable for stickiness.',
    sortOrder: 'Ordering hint.',
    legalValues: 'Replaces the allowed values.',
  },
  fields: (t) => ({ name: t.string({ required: true, description: 'The field to change.' }) }),
});
const ContextFieldNameInput = builder.inputType('ContextFieldNameInput', {
  description: 'Names one context field.',
  fields: (t) => ({ name: t.string({ required: true, description: 'Context field name.' }) }),
});
const AddLegalValueInput = zodInput('AddLegalValueInput', legalValue, {
  description: 'A legal value to add to (or redescribe on) a context field.',
  descriptions: { value: 'The value, 1..100 characters.', description: 'What the value means.' },
  fields: (t) => ({ contextField: t.string({ required: true, description: 'Context field name.' }) }),
  nested: false,
});
const RemoveLegalValueInput = builder.inputType('RemoveLegalValueInput', {
  description: 'A legal value to remove from a context field.',
  fields: (t) => ({
    contextField: t.string({ required: true, description: 'Context field name.' }),
    value: t.string({ required: true, description: 'The value to remove.' }),
  }),
});

const cleanLegalValues = <T extends { legalValues?: Array<{ value: string; description?: string | null }> | null }>(input: T) =>
  defined({ ...input, legalValues: input.legalValues?.map((v) => defined(v)) });

builder.mutationFields((t) => ({
  createContextField: t.field({
    type: ContextFieldRef,
    description: 'Creates a context field (permission CREATE_CONTEXT_FIELD). Event context-field-created.',
    args: { input: t.arg({ type: CreateContextFieldInput, required: true, description: 'The context field to create.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.contextFields.create(cleanLegalValues(input) as never),
  }),
  updateContextField: t.field({
    type: ContextFieldRef,
    description: 'Changes a context field (permission UPDATE_CONTEXT_FIELD). Event context-field-updated.',
    args: { input: t.arg({ type: UpdateContextFieldInput, required: true, description: 'The context field and its changes.' }) },
    resolve: (_root, { input: { name, ...rest } }, ctx) => ctx.services.contextFields.update(name, cleanLegalValues(rest) as never),
  }),
  deleteContextField: t.boolean({
    description: 'Deletes a context field (permission DELETE_CONTEXT_FIELD). Event context-field-deleted.',
    args: { input: t.arg({ type: ContextFieldNameInput, required: true, description: 'The context field to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.contextFields.remove(input.name);
      return true;
    },
  }),
  addLegalValue: t.field({
    type: ContextFieldRef,
    description: 'Adds a legal value, or replaces its description (permission UPDATE_CONTEXT_FIELD). Event context-field-updated.',
    args: { input: t.arg({ type: AddLegalValueInput, required: true, description: 'The context field and the legal value to add.' }) },
    resolve: (_root, { input: { contextField, ...value } }, ctx) => ctx.services.contextFields.addLegalValue(contextField, defined(value)),
  }),
  removeLegalValue: t.field({
    type: ContextFieldRef,
    description: 'Removes a legal value (permission UPDATE_CONTEXT_FIELD). Event context-field-updated.',
    args: { input: t.arg({ type: RemoveLegalValueInput, required: true, description: 'The context field and the legal value to remove.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.contextFields.removeLegalValue(input.contextField, input.value),
  }),
}));
