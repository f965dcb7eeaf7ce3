import DataLoader from 'dataloader';
import { createSchema, updateSchema } from '../domain/addons/addon.service';
import type { Addon, AddonDefinition, AddonDelivery, AddonDeliveryAttempt, AddonDeliveryPage, AddonParameter, AddonTagType } from '../domain/addons/addon.shapes';
import { builder, type GraphQLContext } from './builder';
import { FREE, PASS_THROUGH, paged } from './cost';
import { PageInfoRef } from './events.resolvers';
import { defined } from './input';
import { zodInput } from './zod-input';

/** Addons on the GraphQL door (issue 11, spec endpoint 1): the same service as REST, the same masking and errors. */

const AttemptRef = builder.objectRef<AddonDeliveryAttempt>('AddonDeliveryAttempt').implement({
  description: 'One attempt to send a delivery.',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: 'Its number, from 1.' }),
    at: t.expose('at', { type: 'DateTime', description: 'When it started.' }),
    durationMs: t.exposeInt('durationMs', { description: 'How long it took, in milliseconds.' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when no answer came." }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed (never a secret); null when it succeeded.' }),
  }),
});

const DeliveryRef = builder.objectRef<AddonDelivery>('AddonDelivery').implement({
  description: 'One audit event sent (or to be sent) to one addon, with every attempt.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Delivery id: also the Idempotency-Key header the receiver gets.' }),
    addonId: t.exposeInt('addonId', { description: 'The addon.' }),
    eventId: t.exposeInt('eventId', { description: 'The audit event delivered.' }),
    eventType: t.exposeString('eventType', { description: 'Its type.' }),
    status: t.exposeString('status', { description: 'pending, delivered, failed (after the last attempt) or skipped (the addon was disabled first).' }),
    attempts: t.field({ type: [AttemptRef], description: 'Every attempt, oldest first.', resolve: (d) => d.attempts }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change that caused it committed.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the next attempt is due (pending only).' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true, description: 'When it was delivered, failed or skipped.' }),
    redeliveryOf: t.exposeString('redeliveryOf', { nullable: true, description: 'The delivery this one repeats, when it was asked for again.' }),
  }),
});

interface DeliveryConnection {
  nodes: AddonDelivery[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const DeliveryConnectionRef = builder.objectRef<DeliveryConnection>('AddonDeliveryConnection').implement({
  description: "A page of an addon's deliveries, newest first.",
  fields: (t) => ({
    nodes: t.field({ type: [DeliveryRef], complexity: PASS_THROUGH, description: 'The deliveries.', resolve: (c) => c.nodes }),
    pageInfo: t.field({ type: PageInfoRef, complexity: FREE, description: 'Paging state: pass `endCursor` as `after` for older deliveries.', resolve: (c) => c.pageInfo }),
  }),
});

const toConnection = (p: AddonDeliveryPage): DeliveryConnection => ({ nodes: p.deliveries, pageInfo: { hasNextPage: p.nextCursor !== null, endCursor: p.nextCursor } });

/** One loader per page request (first, after) and GraphQL request: every addon's page in one statement. */
const deliveryLoaders = new WeakMap<GraphQLContext, Map<string, DataLoader<number, AddonDeliveryPage>>>();
function deliveryLoader(ctx: GraphQLContext, first: number, after: string | null | undefined): DataLoader<number, AddonDeliveryPage> {
  let byPage = deliveryLoaders.get(ctx);
  if (!byPage) deliveryLoaders.set(ctx, (byPage = new Map()));
  const key = `${first}:${after ?? ''}`;
  let loader = byPage.get(key);
  if (!loader) {
    byPage.set(key, (loader = new DataLoader<number, AddonDeliveryPage>(async (ids) => {
      const pages = await ctx.services.addons.deliveryPages(ids, { limit: first, ...(after ? { after } : {}) });
      return ids.map((id) => pages.get(id)!);
    })));
  }
  return loader;
}

/** Delivery reads: a page query plus each row's attempts. */
const DELIVERY_WEIGHT = 20;

const AddonRef = builder.objectRef<Addon>('Addon').implement({
  description: 'An integration that receives the audit events it listens to. Sensitive parameters always read as *****.',
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
    deliveries: t.field({
      type: DeliveryConnectionRef,
      description: 'Its deliveries, newest first (1 to 100 per page), with every attempt.',
      args: {
        first: t.arg.int({ required: true, defaultValue: 20, description: 'Page size, 1 to 100.' }),
        after: t.arg.string({ description: '`pageInfo.endCursor` of the previous page.' }),
      },
      complexity: paged(DELIVERY_WEIGHT, 2),
      // Batched across addons; the service validates `first` and `after` (the same rules and errors as REST).
      resolve: async (a, { first, after }, ctx) => toConnection(await deliveryLoader(ctx, first, after).load(a.id)),
    }),
  }),
});

const ProviderParameterRef = builder.objectRef<AddonParameter>('AddonProviderParameter').implement({
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

const TagTypeDefinitionRef = builder.objectRef<AddonTagType>('AddonProviderTagType').implement({
  description: 'A tag type a provider reads; created with the first addon of the provider.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Tag type name.' }),
    description: t.exposeString('description', { description: 'What it is for.' }),
    icon: t.exposeString('icon', { description: 'Icon.' }),
  }),
});

const ProviderRef = builder.objectRef<AddonDefinition>('AddonProvider').implement({
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

const CreateAddonInput = zodInput('CreateAddonInput', createSchema, {
  description: 'A new addon.',
  descriptions: {
    provider: 'The provider.',
    description: 'Free text.',
    enabled: 'Whether it receives events (default true).',
    events: 'The event types it listens to.',
    projects: 'The projects it listens to; empty or absent for all.',
    environments: 'The environments it listens to; empty or absent for all.',
  },
  fields: (t) => ({ parameters: t.field({ type: 'JSON', required: true, description: "The provider's parameters by name (text, numbers or booleans)." }) }),
});

const UpdateAddonInput = zodInput('UpdateAddonInput', updateSchema, {
  description: 'Changes to an addon: an absent field is untouched, null empties it (a null description becomes ""); sent parameters replace the stored ones, and a sensitive one sent as ***** keeps its value.',
  descriptions: {
    provider: 'The provider.',
    description: 'Free text.',
    enabled: 'Whether it receives events.',
    events: 'The event types it listens to.',
    projects: 'The projects it listens to.',
    environments: 'The environments it listens to.',
  },
  fields: (t) => ({
    id: t.int({ required: true, description: 'The addon.' }),
    parameters: t.field({ type: 'JSON', description: "The provider's parameters by name." }),
  }),
});

const AddonIdInput = builder.inputType('AddonIdInput', {
  description: 'Names an addon.',
  fields: (t) => ({ id: t.int({ required: true, description: 'The addon.' }) }),
});

const RedeliverInput = builder.inputType('RedeliverAddonDeliveryInput', {
  description: 'Names a delivery of an addon.',
  fields: (t) => ({
    addonId: t.int({ required: true, description: 'The addon.' }),
    deliveryId: t.string({ required: true, description: 'The delivery to send again.' }),
  }),
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
  redeliverAddonDelivery: t.field({
    type: DeliveryRef,
    description: "Sends a delivery's event to its addon again, as a new delivery with its own id.",
    args: { input: t.arg({ type: RedeliverInput, required: true, description: 'The addon and the delivery.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.addons.redeliver(input.addonId, input.deliveryId),
  }),
  deleteAddon: t.boolean({
    description: 'Deletes an addon. Event addon-config-deleted.',
    args: { input: t.arg({ type: AddonIdInput, required: true, description: 'The addon.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.addons.delete(input.id); return true; },
  }),
}));
