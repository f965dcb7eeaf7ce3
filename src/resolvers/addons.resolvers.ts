import type { Addon } from '../domain/addons/addon.service';
import type { AddonProvider, ProviderParameter, TagTypeDefinition } from '../domain/addons/providers';
import { builder } from './builder';
import { defined } from './input';

/** Addons on the GraphQL door (issue 11, spec endpoint 1): the same service as REST, the same masking and errors. */

const AddonRef = builder.objectRef<Addon>('Addon').implement({
  description: 'An integration that receives the audit events it listens to (spec: Addon). Sensitive parameters always read as *****.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Addon id.' }),
    provider: t.exposeString('provider', { description: 'The provider: webhook, slack, teams or datadog.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text; null when none was given.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether it receives events.' }),
    parameters: t.field({ type: 'JSON', description: "The provider's parameters by name; sensitive ones read as *****.", resolve: (a) => a.parameters }),
    events: t.exposeStringList('events', { description: 'The event types it listens to.' }),
    projects: t.exposeStringList('projects', { description: 'The projects it listens to; empty for all.' }),
    environments: t.exposeStringList('environments', { description: 'The environments it listens to; empty for all.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
  }),
});

const ProviderParameterRef = builder.objectRef<ProviderParameter>('AddonProviderParameter').implement({
  description: 'A parameter a provider takes.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Key in `parameters`.' }),
    displayName: t.exposeString('displayName', { description: 'Human-readable name.' }),
    type: t.exposeString('type', { description: 'url, text, textfield or list.' }),
    description: t.exposeString('description', { description: 'What it is for.' }),
    placeholder: t.string({ nullable: true, description: 'An example or the default.', resolve: (p) => p.placeholder ?? null }),
    required: t.exposeBoolean('required', { description: 'Whether an addon of the provider must have it.' }),
    sensitive: t.exposeBoolean('sensitive', { description: 'Whether it is masked in every read.' }),
  }),
});

const TagTypeDefinitionRef = builder.objectRef<TagTypeDefinition>('AddonProviderTagType').implement({
  description: 'A tag type a provider reads; created with the first addon of the provider.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Tag type name.' }),
    description: t.exposeString('description', { description: 'What it is for.' }),
    icon: t.exposeString('icon', { description: 'Icon.' }),
  }),
});

const ProviderRef = builder.objectRef<AddonProvider>('AddonProvider').implement({
  description: 'An addon provider and its parameters.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Provider name, as `provider` of an addon.' }),
    displayName: t.exposeString('displayName', { description: 'Human-readable name.' }),
    description: t.exposeString('description', { description: 'What it does.' }),
    documentationUrl: t.exposeString('documentationUrl', { description: 'Where it is documented.' }),
    parameters: t.field({ type: [ProviderParameterRef], description: 'The parameters it takes.', resolve: (p) => p.parameters }),
    tagTypes: t.field({ type: [TagTypeDefinitionRef], description: 'The tag types it reads.', resolve: (p) => p.tagTypes }),
    events: t.exposeStringList('events', { description: 'The event types it is meant for (any may be chosen).' }),
  }),
});

const CreateAddonInput = builder.inputType('CreateAddonInput', {
  description: 'A new addon.',
  fields: (t) => ({
    provider: t.string({ required: true, description: 'The provider.' }),
    description: t.string({ description: 'Free text.' }),
    enabled: t.boolean({ description: 'Whether it receives events (default true).' }),
    parameters: t.field({ type: 'JSON', required: true, description: "The provider's parameters by name (text, numbers or booleans)." }),
    events: t.stringList({ required: true, description: 'The event types it listens to.' }),
    projects: t.stringList({ description: 'The projects it listens to; empty or absent for all.' }),
    environments: t.stringList({ description: 'The environments it listens to; empty or absent for all.' }),
  }),
});

const UpdateAddonInput = builder.inputType('UpdateAddonInput', {
  description: 'Changes to an addon: an absent field is untouched, null empties it (a null description becomes ""); sent parameters replace the stored ones, and a sensitive one sent as ***** keeps its value.',
  fields: (t) => ({
    id: t.int({ required: true, description: 'The addon.' }),
    provider: t.string({ description: 'The provider.' }),
    description: t.string({ description: 'Free text.' }),
    enabled: t.boolean({ description: 'Whether it receives events.' }),
    parameters: t.field({ type: 'JSON', description: "The provider's parameters by name." }),
    events: t.stringList({ description: 'The event types it listens to.' }),
    projects: t.stringList({ description: 'The projects it listens to.' }),
    environments: t.stringList({ description: 'The environments it listens to.' }),
  }),
});

const AddonIdInput = builder.inputType('AddonIdInput', {
  description: 'Names an addon.',
  fields: (t) => ({ id: t.int({ required: true, description: 'The addon.' }) }),
});

builder.queryFields((t) => ({
  addons: t.field({ type: [AddonRef], description: 'Every addon (sensitive parameters masked).', resolve: (_root, _args, ctx) => ctx.services.addons.list() }),
  addon: t.field({
    type: AddonRef,
    description: 'One addon (NotFoundError when there is none).',
    args: { id: t.arg.int({ required: true, description: 'The addon.' }) },
    resolve: (_root, { id }, ctx) => ctx.services.addons.get(id),
  }),
  addonProviders: t.field({ type: [ProviderRef], description: 'The providers an addon can use, with their parameters.', resolve: (_root, _args, ctx) => [...ctx.services.addons.providers()] }),
}));

builder.mutationFields((t) => ({
  createAddon: t.field({
    type: AddonRef,
    description: 'Creates an addon (a slack or datadog addon also creates its tag type). Event addon-config-created.',
    args: { input: t.arg({ type: CreateAddonInput, required: true, description: 'The addon.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.addons.create(defined({ ...input })),
  }),
  updateAddon: t.field({
    type: AddonRef,
    description: 'Changes an addon. Event addon-config-updated.',
    args: { input: t.arg({ type: UpdateAddonInput, required: true, description: 'The addon and its changes.' }) },
    resolve: (_root, { input: { id, ...rest } }, ctx) => ctx.services.addons.update(id, defined({ ...rest })),
  }),
  deleteAddon: t.boolean({
    description: 'Deletes an addon. Event addon-config-deleted.',
    args: { input: t.arg({ type: AddonIdInput, required: true, description: 'The addon.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.addons.delete(input.id); return true; },
  }),
}));
