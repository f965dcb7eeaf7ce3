import type { FeatureEnvironmentState, FeatureStrategy } from '../domain/features/feature.shapes';
import { batchVariantsSchema, strategyPayloadSchemas } from '../domain/features/feature-strategy.schemas';
import { featureVariantsSchema, payloadSchema, strategyVariantsSchema } from '../domain/features/variants';
import type { FeatureVariant, FeatureVariantPayload, SentVariant, StrategyVariant } from '../domain/features/variant.shapes';
import { builder } from './builder';
import { ConstraintRef } from './constraints';
import { defined } from './input';
import { loaders, strategyKey } from './loaders';
import { SegmentRef } from './segments.resolvers';
import { itemOf, zodInput, type InputFields } from './zod-input';

/**
 * A feature in one environment: its switch, its strategies (with constraints, segments and strategy variants) and its
 * variants; the types, inputs and mutations of that configuration. The feature itself is in features.resolvers.ts.
 */

// ---- output types ------------------------------------------------------------------------------------------

export const PayloadRef = builder.objectRef<FeatureVariantPayload>('VariantPayload').implement({
  description: 'Data delivered with a variant.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'json, csv, string or number.' }),
    value: t.exposeString('value', { description: 'The payload as a string.' }),
  }),
});

const OverrideRef = builder.objectRef<FeatureVariant['overrides'][number]>('VariantOverride').implement({
  description: 'Context values that always get this variant.',
  fields: (t) => ({
    contextName: t.exposeString('contextName', { description: 'Context field.' }),
    values: t.exposeStringList('values', { description: 'Values of that field that get the variant.' }),
  }),
});

export const StrategyVariantRef = builder.objectRef<StrategyVariant>('StrategyVariant').implement({
  description: 'A variant attached to a strategy.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Variant name, unique within the list.' }),
    weight: t.exposeInt('weight', { description: 'Share of 1000, resolved when saved.' }),
    weightType: t.exposeString('weightType', { description: '`fix` keeps its weight; `variable` shares what the fixed ones leave.' }),
    stickiness: t.exposeString('stickiness', { description: 'Context field that keeps a user on the same variant.' }),
    payload: t.field({ type: PayloadRef, nullable: true, description: 'Optional payload.', resolve: (v) => v.payload ?? null }),
  }),
});

// Over SentVariant: exports and imports send `overrides` only when set; the field reads an absent list as [].
export const FeatureVariantRef = builder.objectRef<SentVariant>('FeatureVariant').implement({
  description: 'A variant of a feature in an environment.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Variant name, unique within the list.' }),
    weight: t.exposeInt('weight', { description: 'Share of 1000, resolved when saved.' }),
    weightType: t.exposeString('weightType', { description: '`fix` keeps its weight; `variable` shares what the fixed ones leave.' }),
    stickiness: t.exposeString('stickiness', { description: 'Context field that keeps a user on the same variant.' }),
    payload: t.field({ type: PayloadRef, nullable: true, description: 'Optional payload.', resolve: (v) => v.payload ?? null }),
    overrides: t.field({ type: [OverrideRef], description: 'Overrides, which take precedence over weights.', resolve: (v) => v.overrides ?? [] }),
  }),
});

export const FeatureStrategyRef = builder.objectRef<FeatureStrategy>('FeatureStrategy').implement({
  description: 'An activation strategy of a feature in one environment.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Strategy id (uuid).' }),
    name: t.exposeString('name', { description: 'Strategy type name, for example flexibleRollout.' }),
    title: t.exposeString('title', { nullable: true, description: 'Descriptive title.' }),
    disabled: t.exposeBoolean('disabled', { description: 'Disabled strategies are not evaluated.' }),
    featureName: t.exposeString('featureName', { description: 'The feature it belongs to.' }),
    sortOrder: t.exposeInt('sortOrder', { description: 'Position in the list.' }),
    parameters: t.field({ type: 'JSON', description: 'Parameter name to string value.', resolve: (s) => s.parameters }),
    constraints: t.field({ type: [ConstraintRef], description: 'All must hold for the strategy to apply.', resolve: (s) => s.constraints }),
    variants: t.field({ type: [StrategyVariantRef], description: 'Variants handed out when this strategy enables the feature.', resolve: (s) => s.variants }),
    segmentIds: t.field({ type: ['Int'], description: 'Ids of the attached segments.', resolve: (s) => s.segments }),
    segments: t.field({
      type: [SegmentRef],
      description: 'The attached segments (loaded in one batch per request).',
      resolve: async (s, _args, ctx) => (await loaders(ctx).segments.loadMany(s.segments)).filter((x): x is Exclude<typeof x, Error | undefined> => x !== undefined && !(x instanceof Error)),
    }),
  }),
});

export const FeatureEnvironmentRef = builder.objectRef<FeatureEnvironmentState>('FeatureEnvironment').implement({
  description: 'A feature in one environment of its project.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Environment name.' }),
    featureName: t.exposeString('featureName', { description: 'The feature.' }),
    environment: t.exposeString('environment', { description: 'Environment name (same as `name`).' }),
    type: t.exposeString('type', { description: 'Environment type.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the feature is on in this environment.' }),
    sortOrder: t.exposeInt('sortOrder', { description: 'Sort order of the environment.' }),
    variantCount: t.exposeInt('variantCount', { description: 'Number of variants.' }),
    variants: t.field({ type: [FeatureVariantRef], description: 'Variants of the feature in this environment.', resolve: (e) => e.variants }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true, description: 'Last metrics seen for the feature here.' }),
    hasStrategies: t.exposeBoolean('hasStrategies', { description: 'Whether any strategy exists here.' }),
    hasEnabledStrategies: t.exposeBoolean('hasEnabledStrategies', { description: 'Whether any strategy here is not disabled.' }),
    strategies: t.field({
      type: [FeatureStrategyRef],
      description: 'Strategies in sort order (loaded in one batch per request).',
      resolve: (e, _args, ctx) => loaders(ctx).strategies.load(strategyKey(e.featureName, e.name)),
    }),
  }),
});

// ---- inputs ------------------------------------------------------------------------------------------------

/** The fields that name a feature of a project, shared by the feature mutations' inputs. */
export const featureKey = (t: InputFields) => ({
  project: t.string({ required: true, description: 'Project id.' }),
  feature: t.string({ required: true, description: 'Feature name.' }),
});
/** The fields that name a feature in one environment. */
const environmentKey = (t: InputFields) => ({
  ...featureKey(t),
  environment: t.string({ required: true, description: 'Environment name.' }),
});

const SetFeatureEnvironmentEnabledInput = zodInput('SetFeatureEnvironmentEnabledInput', strategyPayloadSchemas.switch, {
  description: 'Switches a feature on or off in an environment.',
  descriptions: {
    shouldActivateDisabledStrategies: 'When switching on with only disabled strategies: re-enable them instead of adding the default strategy.',
  },
  fields: (t) => ({
    ...environmentKey(t),
    enabled: t.boolean({ required: true, description: 'On or off.' }),
  }),
});

// Variants. The payload and override inputs are built for the variant inputs that hold them.
zodInput('VariantPayloadInput', payloadSchema, {
  description: 'Data delivered with a variant.',
  descriptions: { type: 'json, csv, string or number.', value: 'The payload as a string.' },
});
zodInput('VariantOverrideInput', itemOf(featureVariantsSchema.element.shape.overrides), {
  description: 'Context values that always get a variant.',
  descriptions: { contextName: 'Context field.', values: 'Values of that field.' },
});
const variantFields = {
  name: 'Unique name.',
  weight: 'Weight 0..1000 (required for fix variants).',
  weightType: 'variable (default) or fix.',
  stickiness: 'Stickiness (default "default").',
  payload: 'Optional payload.',
};
zodInput('StrategyVariantInput', strategyVariantsSchema.element, { description: 'A strategy variant.', descriptions: variantFields });
const FeatureVariantInput = zodInput('FeatureVariantInput', featureVariantsSchema.element, { description: 'A feature variant.', descriptions: { ...variantFields, overrides: 'Overrides.' } });

// Strategies: the REST body's `id`, `featureName` and `environment`, which a client may send back as it read them, are
// the target here (or not taken).
const strategyFields = {
  title: 'Descriptive title.',
  disabled: 'Disabled strategies are not evaluated (default false).',
  sortOrder: 'Position in the list (default: last).',
  constraints: 'Constraints.',
  variants: 'Strategy variants.',
  segments: 'Ids of segments to attach.',
};
const strategyParameters = (t: InputFields) => ({ parameters: t.field({ type: 'JSON', description: 'Parameter name to string value.' }) });
const AddFeatureStrategyInput = zodInput('AddFeatureStrategyInput', strategyPayloadSchemas.create, {
  description: 'A new strategy of a feature in an environment.',
  omit: ['id', 'featureName'],
  descriptions: { name: 'Strategy type name.', ...strategyFields },
  fields: (t) => ({ ...environmentKey(t), ...strategyParameters(t) }),
});
const UpdateFeatureStrategyInput = zodInput('UpdateFeatureStrategyInput', strategyPayloadSchemas.update, {
  description: 'New values for a strategy; absent fields are kept.',
  omit: ['featureName'],
  descriptions: { name: 'Strategy type name.', ...strategyFields },
  fields: (t) => ({
    ...environmentKey(t),
    id: t.string({ required: true, description: 'Strategy id.' }),
    ...strategyParameters(t),
  }),
});
const DeleteFeatureStrategyInput = builder.inputType('DeleteFeatureStrategyInput', {
  description: 'Names a strategy.',
  fields: (t) => ({
    ...environmentKey(t),
    id: t.string({ required: true, description: 'Strategy id.' }),
  }),
});
const StrategySortOrderInput = zodInput('StrategySortOrderInput', strategyPayloadSchemas.sortOrder.element, {
  description: 'A strategy and its new position.',
  descriptions: { id: 'Strategy id.', sortOrder: 'New sort order.' },
});
// The REST body is the list itself; GraphQL names it `order`.
const SetStrategySortOrderInput = builder.inputType('SetStrategySortOrderInput', {
  description: 'Reorders the strategies of a feature in an environment.',
  fields: (t) => ({
    ...environmentKey(t),
    order: t.field({ type: [StrategySortOrderInput], required: true, description: 'Strategies and their sort orders.' }),
  }),
});
const SetFeatureVariantsInput = zodInput('SetFeatureVariantsInput', batchVariantsSchema, {
  description: 'Replaces the variants of a feature in one or more environments.',
  descriptions: { environments: 'Environments to set them in.', variants: 'The variants; weights are resolved when saved.' },
  fields: (t) => featureKey(t),
});
// The REST body is the list itself (PUT …/variants); GraphQL names it `variants`.
const SetFeatureVariantsEverywhereInput = builder.inputType('SetFeatureVariantsEverywhereInput', {
  description: 'Replaces the variants of a feature in every environment at once (the legacy feature-level variants).',
  fields: (t) => ({
    ...featureKey(t),
    variants: t.field({ type: [FeatureVariantInput], required: true, description: 'The variants; weights are resolved when saved.' }),
  }),
});

/** GraphQL lists of input objects carry `undefined` for absent fields; the services take the REST body shape. */
const clean = <T>(v: T): T => JSON.parse(JSON.stringify(v ?? null)) as T;
const strategyBody = ({ project: _p, feature: _f, environment: _e, id: _i, ...rest }: Record<string, unknown>) => clean(defined(rest));

// ---- mutations ---------------------------------------------------------------------------------------------

builder.mutationFields((t) => ({
  setFeatureEnvironmentEnabled: t.field({
    type: FeatureEnvironmentRef,
    description: 'Switches a feature on or off in an environment (UPDATE_FEATURE_ENVIRONMENT); switching on without an active strategy adds the default one. Events feature-environment-enabled/disabled.',
    args: { input: t.arg({ type: SetFeatureEnvironmentEnabledInput, required: true, description: 'Feature, environment and state.' }) },
    resolve: async (_r, { input: { project, feature, environment, enabled, ...rest } }, ctx) => {
      await ctx.services.featureStrategies.setEnabled(project, feature, environment, enabled, defined(rest));
      return ctx.services.featureStrategies.environment(project, feature, environment);
    },
  }),
  addFeatureStrategy: t.field({
    type: FeatureStrategyRef,
    description: 'Adds a strategy (CREATE_FEATURE_STRATEGY in the environment). Event feature-strategy-add.',
    args: { input: t.arg({ type: AddFeatureStrategyInput, required: true, description: 'The strategy.' }) },
    resolve: (_r, { input }, ctx) => ctx.services.featureStrategies.add(input.project, input.feature, input.environment, strategyBody(input) as never),
  }),
  updateFeatureStrategy: t.field({
    type: FeatureStrategyRef,
    description: 'Changes a strategy (UPDATE_FEATURE_STRATEGY in the environment). Event feature-strategy-update.',
    args: { input: t.arg({ type: UpdateFeatureStrategyInput, required: true, description: 'The strategy and its new values.' }) },
    resolve: (_r, { input }, ctx) => ctx.services.featureStrategies.update(input.project, input.feature, input.environment, input.id, strategyBody(input)),
  }),
  deleteFeatureStrategy: t.boolean({
    description: 'Removes a strategy (DELETE_FEATURE_STRATEGY in the environment). Event feature-strategy-remove.',
    args: { input: t.arg({ type: DeleteFeatureStrategyInput, required: true, description: 'The strategy.' }) },
    resolve: async (_r, { input }, ctx) => { await ctx.services.featureStrategies.remove(input.project, input.feature, input.environment, input.id); return true; },
  }),
  setStrategySortOrder: t.field({
    type: [FeatureStrategyRef],
    description: 'Reorders strategies (UPDATE_FEATURE_STRATEGY in the environment). Event strategy-order-changed.',
    args: { input: t.arg({ type: SetStrategySortOrderInput, required: true, description: 'The new order.' }) },
    resolve: async (_r, { input }, ctx) => {
      await ctx.services.featureStrategies.setSortOrder(input.project, input.feature, input.environment, clean(input.order));
      return ctx.services.featureStrategies.list(input.project, input.feature, input.environment);
    },
  }),
  setFeatureVariants: t.field({
    type: [FeatureVariantRef],
    description: 'Replaces a feature\'s variants in the given environments (UPDATE_FEATURE_ENVIRONMENT_VARIANTS). Event feature-environment-variants-updated per environment that changes.',
    args: { input: t.arg({ type: SetFeatureVariantsInput, required: true, description: 'Feature, environments and variants.' }) },
    resolve: (_r, { input }, ctx) => ctx.services.featureStrategies.setVariantsInEnvironments(input.project, input.feature, clean({ variants: input.variants, environments: input.environments })),
  }),
  setFeatureVariantsInAllEnvironments: t.field({
    type: [FeatureVariantRef],
    description: 'Deprecated feature-level variants: replaces the variants in every environment of the feature (UPDATE_FEATURE_VARIANTS). Event feature-variants-updated.',
    args: { input: t.arg({ type: SetFeatureVariantsEverywhereInput, required: true, description: 'Feature and variants.' }) },
    resolve: (_r, { input }, ctx) => ctx.services.featureStrategies.setFeatureVariants(input.project, input.feature, clean(input.variants)),
  }),
}));
