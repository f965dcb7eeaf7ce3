import type { FeatureDependency, FeatureEnvironmentState, FeatureSummary, FeatureType } from '../domain/features/feature.shapes';
import type { Tag } from '../domain/tags/tag.shapes';
import {
  cloneSchema, createSchema, dependencyPayloadSchema, lifetimeSchema, namesSchema, staleSchema, tagSchema, updateSchema,
} from '../domain/features/feature.schemas';
import { NotFoundError, ValidationError } from '../domain/errors';
import { FREE, PASS_THROUGH, paged, WEIGHTS } from './cost';
import { builder, type GraphQLContext } from './builder';
import { EventConnectionRef, checkEventPageSize, eventConnection, selectedParts, toEventConnection } from './events.resolvers';
import { FeatureEnvironmentRef, FeatureVariantRef, featureKey } from './feature-environments.resolvers';
import { defined } from './input';
import { loaders } from './loaders';
import { ProjectRef } from './projects.resolvers';
import { TagRef } from './tags.resolvers';
import { zodInput, type InputFields } from './zod-input';

/**
 * Features: the Feature type, the feature lists (cursor pages) and the mutations of a feature as a whole (metadata,
 * stale, archive, clone, tags, dependencies). Its configuration per environment is in feature-environments.resolvers.ts.
 */

// ---- output types ------------------------------------------------------------------------------------------

export const FeatureDependencyRef = builder.objectRef<FeatureDependency>('FeatureDependency').implement({
  description: 'A parent feature this feature depends on.',
  fields: (t) => ({
    feature: t.exposeString('feature', { description: 'Parent feature name.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the parent must be enabled (false: must be disabled).' }),
    variants: t.field({ type: ['String'], description: 'Variants the parent must resolve to; empty for any.', resolve: (d) => d.variants ?? [] }),
  }),
});

export const FeatureRef = builder.objectRef<FeatureSummary>('Feature').implement({
  description: 'A feature flag.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Unique, URL-friendly name.' }),
    type: t.exposeString('type', { description: 'Feature type (release, experiment, operational, kill-switch, permission).' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    project: t.exposeString('project', { description: 'Project id.' }),
    stale: t.exposeBoolean('stale', { description: 'Marked stale.' }),
    impressionData: t.exposeBoolean('impressionData', { description: 'Whether SDKs emit impression events.' }),
    favorite: t.exposeBoolean('favorite', { description: 'Whether the caller favorited it (always false for API tokens).' }),
    archived: t.exposeBoolean('archived', { description: 'Whether it is archived.' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true, description: 'When it was archived.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true, description: 'Deprecated: last metrics seen; see FeatureEnvironment.lastSeenAt.' }),
    enabled: t.boolean({
      description: 'Whether it is on in at least one environment.',
      resolve: async (f, _args, ctx) => (await loaders(ctx).environments.load(f.name)).some((e) => e.enabled),
    }),
    environments: t.field({
      type: [FeatureEnvironmentRef],
      description: 'The environments of its project that are switched on, by sort order.',
      resolve: (f, _args, ctx) => loaders(ctx).environments.load(f.name),
    }),
    variants: t.field({
      type: [FeatureVariantRef],
      description: 'Deprecated: the variants of the first environment that has any.',
      resolve: async (f, _args, ctx) => (await loaders(ctx).environments.load(f.name)).find((e) => e.variants.length > 0)?.variants ?? [],
    }),
    tags: t.field({ type: [TagRef], description: 'Tags of the feature.', resolve: (f, _args, ctx) => loaders(ctx).tags.load(f.name) as Promise<Tag[]> }),
    dependencies: t.field({ type: [FeatureDependencyRef], description: 'Experimental: parents it depends on.', resolve: (f, _args, ctx) => loaders(ctx).dependencies.load(f.name) }),
    children: t.field({ type: ['String'], description: 'Experimental: features that depend on it.', resolve: (f, _args, ctx) => loaders(ctx).children.load(f.name) }),
    events: t.field({
      type: EventConnectionRef,
      complexity: paged(WEIGHTS.featureEvents, WEIGHTS.eventRow),
      description: 'Audit events of the feature, newest first, with cursor pagination: every event, not only the newest 100 that REST `GET /api/admin/events/:featureName` answers.',
      args: {
        first: t.arg.int({ defaultValue: 50, description: 'Page size, 1..1000 (default 50).' }),
        after: t.arg.string({ description: 'Cursor of the last event of the previous page.' }),
      },
      resolve: async (f, args, ctx, info) => {
        if (args.after) return eventConnection(ctx, { feature: f.name }, args.first, args.after, selectedParts(info));
        // First pages of every feature in the response load together: two queries for any number of features.
        const first = checkEventPageSize(args.first);
        const page = await loaders(ctx).featureEvents(first).load(f.name);
        return toEventConnection(page.events, page.totalEvents, page.totalEvents > page.events.length);
      },
    }),
  }),
});

const FeatureTypeRef = builder.objectRef<FeatureType>('FeatureType').implement({
  description: 'A kind of feature, with the lifetime after which its features count as potentially stale.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Type id, for example release.' }),
    name: t.exposeString('name', { description: 'Display name.' }),
    description: t.exposeString('description', { nullable: true, description: 'What the type is for.' }),
    lifetimeDays: t.exposeInt('lifetimeDays', { nullable: true, description: 'Expected lifetime in days; null for permanent types.' }),
  }),
});

// ---- connections -------------------------------------------------------------------------------------------

interface FeatureConnection {
  edges: Array<{ cursor: string; node: FeatureSummary }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const FeatureEdgeRef = builder.objectRef<FeatureConnection['edges'][number]>('FeatureEdge').implement({
  description: 'A feature and its cursor.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Pass as `after` to read the features after this one.' }),
    node: t.field({ type: FeatureRef, description: 'The feature.', resolve: (e) => e.node }),
  }),
});
const FeaturePageInfoRef = builder.objectRef<FeatureConnection['pageInfo']>('FeaturePageInfo').implement({
  description: 'Where a page of features ends.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'Whether more features follow.' }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Cursor of the last feature of the page.' }),
  }),
});
const FeatureConnectionRef = builder.objectRef<FeatureConnection>('FeatureConnection').implement({
  description: 'A page of features, by name.',
  fields: (t) => ({
    edges: t.field({ type: [FeatureEdgeRef], complexity: PASS_THROUGH, description: 'Features with their cursors.', resolve: (c) => c.edges }),
    nodes: t.field({ type: [FeatureRef], complexity: PASS_THROUGH, description: 'The features alone.', resolve: (c) => c.edges.map((e) => e.node) }),
    pageInfo: t.field({ type: FeaturePageInfoRef, complexity: FREE, description: 'Paging state.', resolve: (c) => c.pageInfo }),
  }),
});

const FeatureFilterInput = builder.inputType('FeatureFilter', {
  description: 'Narrows a feature list; all given fields must match.',
  fields: (t) => ({
    archived: t.boolean({ description: 'true: only archived features; false (default): only active ones.' }),
    query: t.string({ description: 'Text the name contains (case-insensitive).' }),
    type: t.string({ description: 'Feature type id.' }),
  }),
});

const encodeCursor = (name: string) => Buffer.from(`feature:${name}`).toString('base64url');
function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!text.startsWith('feature:')) throw ValidationError.single('after', 'The `after` cursor is not one this API returned.');
  return text.slice('feature:'.length);
}

function checkFirst(firstArg: number | null | undefined): number {
  const first = firstArg ?? 100;
  if (first < 1 || first > 1000) throw ValidationError.single('first', `The \`first\` argument must be between 1 and 1000. You sent ${first}.`);
  return first;
}

function toConnection(rows: FeatureSummary[], first: number): FeatureConnection {
  const edges = rows.slice(0, first).map((node) => ({ cursor: encodeCursor(node.name), node }));
  return { edges, pageInfo: { hasNextPage: rows.length > first, endCursor: edges.length ? edges[edges.length - 1].cursor : null } };
}

async function featureConnection(
  ctx: GraphQLContext,
  filter: { archived?: boolean | null; query?: string | null; type?: string | null } | null | undefined,
  firstArg: number | null | undefined, after: string | null | undefined,
): Promise<FeatureConnection> {
  const first = checkFirst(firstArg);
  const rows = await ctx.services.features.read.summaries({
    archived: filter?.archived ?? false,
    query: filter?.query ?? undefined,
    type: filter?.type ?? undefined,
    after: after ? decodeCursor(after) : undefined,
    limit: first + 1,
  });
  return toConnection(rows, first);
}

const pageArgs = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) => ({
  filter: t.arg({ type: FeatureFilterInput, description: 'Only features matching this filter.' }),
  first: t.arg.int({ defaultValue: 100, description: 'Page size, 1..1000 (default 100).' }),
  after: t.arg.string({ description: 'Cursor of the last feature of the previous page.' }),
});

builder.objectField(ProjectRef, 'features', (t) => t.field({
  type: FeatureConnectionRef,
  complexity: paged(WEIGHTS.features, WEIGHTS.featureRow),
  description: 'Features of the project, by name, with cursor pagination.',
  args: {
    filter: t.arg({ type: FeatureFilterInput, description: 'Only features matching this filter.' }),
    first: t.arg.int({ defaultValue: 100, description: 'Page size, 1..1000 (default 100).' }),
    after: t.arg.string({ description: 'Cursor of the last feature of the previous page.' }),
  },
  // Batched across the projects of one request: `projects { features }` costs one query, not one per project.
  resolve: async (p, args, ctx) => {
    const first = checkFirst(args.first);
    const filter = { archived: args.filter?.archived ?? false, query: args.filter?.query ?? undefined, type: args.filter?.type ?? undefined,
      after: args.after ? decodeCursor(args.after) : undefined };
    const l = loaders(ctx);
    const page = await l.projectFeatures(JSON.stringify([filter, first]),
      (projects) => ctx.services.features.projectFeaturePages(projects, filter, first + 1)).load(p.id);
    // A page from the project's overview brings its features' environments and tags: nothing more is read for them.
    page.features.forEach((f, i) => {
      if (page.environments) l.environments.prime(f.name, page.environments[i] as FeatureEnvironmentState[]);
      if (page.tags) l.tags.prime(f.name, page.tags[i] as Tag[]);
    });
    return toConnection(page.features as FeatureSummary[], first);
  },
}));

builder.queryFields((t) => ({
  features: t.field({
    type: FeatureConnectionRef,
    complexity: paged(WEIGHTS.features, WEIGHTS.featureRow),
    description: 'Features of every project, by name, with cursor pagination.',
    args: pageArgs(t),
    resolve: (_root, args, ctx) => featureConnection(ctx, args.filter, args.first, args.after),
  }),
  feature: t.field({
    type: FeatureRef,
    complexity: WEIGHTS.feature,
    description: 'One feature (archived ones included); a NotFoundError when it does not exist.',
    args: { name: t.arg.string({ required: true, description: 'Feature name.' }) },
    resolve: async (_root, args, ctx) => {
      const f = await ctx.services.features.read.summary(args.name);
      if (!f) throw new NotFoundError(`Could not find feature toggle with name ${args.name}`);
      return f;
    },
  }),
  featureTypes: t.field({
    type: [FeatureTypeRef],
    description: 'Every feature type.',
    resolve: (_root, _args, ctx) => ctx.services.features.featureTypes(),
  }),
}));

// ---- inputs ------------------------------------------------------------------------------------------------

export const FeatureRefInput = builder.inputType('FeatureRefInput', {
  description: 'Names a feature of a project.',
  fields: (t) => ({
    ...featureKey(t),
  }),
});
const CreateFeatureInput = zodInput('CreateFeatureInput', createSchema, {
  description: 'A new feature.',
  descriptions: {
    name: 'URL-friendly name, 1..100 characters, matching the project\'s naming pattern.',
    type: 'Feature type id (default release).',
    description: 'Free text, up to 1000 characters.',
    impressionData: 'Whether SDKs emit impression events (default false).',
    stale: 'Start as stale (default false).',
  },
  fields: (t) => ({ project: t.string({ required: true, description: 'Project id.' }) }),
});
// The REST body may repeat the feature's name, project and archived flag as read; here the first two are the target.
const UpdateFeatureInput = zodInput('UpdateFeatureInput', updateSchema, {
  description: 'New metadata of a feature; absent fields are untouched.',
  omit: ['name', 'archived'],
  descriptions: {
    type: 'Feature type id.',
    description: 'Free text; null clears it.',
    impressionData: 'Whether SDKs emit impression events.',
    stale: 'Stale flag.',
  },
  fields: (t) => featureKey(t),
});
const projectKey = (t: InputFields) => ({ project: t.string({ required: true, description: 'Project id.' }) });
const featureNames = 'Feature names (1..1000).';
const FeatureNamesInput = zodInput('FeatureNamesInput', namesSchema, {
  description: 'Several features of one project.',
  descriptions: { features: featureNames },
  fields: projectKey,
});
const SetFeatureStaleInput = zodInput('SetFeatureStaleInput', staleSchema, {
  description: 'Marks features stale or not.',
  descriptions: { features: featureNames, stale: 'The new stale flag.' },
  fields: projectKey,
});
const CloneFeatureInput = zodInput('CloneFeatureInput', cloneSchema, {
  description: 'Copies a feature into a project (201 over REST): type, description, impression data, strategies (constraints, segments, strategy variants; `groupId` set to the new name unless `replaceGroupId` is false), environment variants, and the dependencies on parents in that project. Every environment of the copy starts switched off.',
  descriptions: { name: 'Name of the copy.', replaceGroupId: 'Set strategies\' groupId to the new name (default true).' },
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project the copy goes into.' }),
    feature: t.string({ required: true, description: 'The feature to copy (any project).' }),
  }),
});
const FeatureTagInput = zodInput('FeatureTagInput', tagSchema, {
  description: 'A tag on a feature.',
  descriptions: { type: 'Tag type (default simple).', value: 'Tag value, 2..50 characters.' },
  fields: (t) => ({ feature: t.string({ required: true, description: 'Feature name.' }) }),
});
// The REST body names the parent `feature` (the child is in the path); here `feature` is the child.
const AddFeatureDependencyInput = zodInput('AddFeatureDependencyInput', dependencyPayloadSchema, {
  description: 'Makes a feature depend on a parent of the same project.',
  descriptions: {
    enabled: 'Whether the parent must be enabled (default true).',
    variants: 'Variants the parent must resolve to (only with enabled true).',
  },
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project id.' }),
    feature: t.string({ required: true, description: 'The child feature.' }),
    parent: t.string({ required: true, description: 'The parent feature.' }),
  }),
});
const RemoveFeatureDependencyInput = builder.inputType('RemoveFeatureDependencyInput', {
  description: 'Removes one parent dependency.',
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project id.' }),
    feature: t.string({ required: true, description: 'The child feature.' }),
    parent: t.string({ required: true, description: 'The parent feature.' }),
  }),
});
const UpdateFeatureTypeInput = zodInput('UpdateFeatureTypeInput', lifetimeSchema, {
  description: 'A feature type\'s lifetime.',
  descriptions: { lifetimeDays: 'Days until potentially stale; null for permanent.' },
  fields: (t) => ({ id: t.string({ required: true, description: 'Feature type id.' }) }),
});

// ---- mutations ---------------------------------------------------------------------------------------------

builder.mutationFields((t) => ({
  createFeature: t.field({
    type: FeatureRef,
    description: 'Creates a feature in every environment of its project, switched off (permission CREATE_FEATURE). Event feature-created.',
    args: { input: t.arg({ type: CreateFeatureInput, required: true, description: 'The feature.' }) },
    resolve: (_r, { input: { project, ...rest } }, ctx) => ctx.services.features.create(project, defined(rest) as never),
  }),
  updateFeature: t.field({
    type: FeatureRef,
    description: 'Changes a feature\'s metadata (UPDATE_FEATURE). Events feature-metadata-updated, feature-stale-on/off.',
    args: { input: t.arg({ type: UpdateFeatureInput, required: true, description: 'The feature and its new metadata.' }) },
    resolve: (_r, { input: { project, feature, ...rest } }, ctx) => ctx.services.features.update(project, feature, defined(rest) as never),
  }),
  setFeaturesStale: t.boolean({
    description: 'Marks features of a project stale or not (UPDATE_FEATURE). Events feature-stale-on/off for those that change.',
    args: { input: t.arg({ type: SetFeatureStaleInput, required: true, description: 'Features and the flag.' }) },
    resolve: async (_r, { input: { project, ...rest } }, ctx) => { await ctx.services.features.setStaleMany(project, rest); return true; },
  }),
  archiveFeatures: t.boolean({
    description: 'Archives features of a project in one transaction (DELETE_FEATURE). Event feature-archived each.',
    args: { input: t.arg({ type: FeatureNamesInput, required: true, description: 'The features.' }) },
    resolve: async (_r, { input: { project, features } }, ctx) => { await ctx.services.features.archiveMany(project, { features }); return true; },
  }),
  reviveFeatures: t.boolean({
    description: 'Revives archived features of a project, switched off everywhere (UPDATE_FEATURE). Event feature-revived each.',
    args: { input: t.arg({ type: FeatureNamesInput, required: true, description: 'The features.' }) },
    resolve: async (_r, { input: { project, features } }, ctx) => { await ctx.services.features.reviveMany(project, { features }); return true; },
  }),
  deleteFeatures: t.boolean({
    description: 'Deletes archived features of a project for good (DELETE_FEATURE). Event feature-deleted each.',
    args: { input: t.arg({ type: FeatureNamesInput, required: true, description: 'The features.' }) },
    resolve: async (_r, { input: { project, features } }, ctx) => { await ctx.services.features.deleteMany(project, { features }); return true; },
  }),
  cloneFeature: t.field({
    type: FeatureRef,
    description: 'Copies a feature with its strategies, variants and dependencies, switched off (CREATE_FEATURE). Events feature-created, feature-strategy-add, feature-dependency-added.',
    args: { input: t.arg({ type: CloneFeatureInput, required: true, description: 'Source, target project and new name.' }) },
    resolve: (_r, { input: { project, feature, ...rest } }, ctx) => ctx.services.features.clone(project, feature, defined(rest)),
  }),
  tagFeature: t.field({
    type: TagRef,
    description: 'Tags a feature, creating the tag if needed (UPDATE_FEATURE). Events tag-created, feature-tagged.',
    args: { input: t.arg({ type: FeatureTagInput, required: true, description: 'Feature and tag.' }) },
    resolve: (_r, { input: { feature, ...rest } }, ctx) => ctx.services.features.addTag(feature, defined(rest)),
  }),
  untagFeature: t.boolean({
    description: 'Removes a tag from a feature (UPDATE_FEATURE). Event feature-untagged.',
    args: { input: t.arg({ type: FeatureTagInput, required: true, description: 'Feature and tag.' }) },
    resolve: async (_r, { input }, ctx) => { await ctx.services.features.removeTag(input.feature, input.type ?? 'simple', input.value); return true; },
  }),
  addFeatureDependency: t.field({
    type: FeatureRef,
    description: 'Makes a feature depend on a parent (UPDATE_FEATURE_DEPENDENCY). Event feature-dependency-added.',
    args: { input: t.arg({ type: AddFeatureDependencyInput, required: true, description: 'Child, parent and condition.' }) },
    resolve: async (_r, { input: { project, feature, parent, ...rest } }, ctx) => {
      await ctx.services.features.addDependency(project, feature, { feature: parent, ...defined(rest) });
      return ctx.services.features.getProjectFeature(project, feature);
    },
  }),
  removeFeatureDependency: t.field({
    type: FeatureRef,
    description: 'Removes one parent dependency (UPDATE_FEATURE_DEPENDENCY). Event feature-dependency-removed.',
    args: { input: t.arg({ type: RemoveFeatureDependencyInput, required: true, description: 'Child and parent.' }) },
    resolve: async (_r, { input }, ctx) => {
      await ctx.services.features.removeDependency(input.project, input.feature, input.parent);
      return ctx.services.features.getProjectFeature(input.project, input.feature);
    },
  }),
  removeFeatureDependencies: t.field({
    type: FeatureRef,
    description: 'Removes every parent dependency of a feature (UPDATE_FEATURE_DEPENDENCY). Event feature-dependencies-removed.',
    args: { input: t.arg({ type: FeatureRefInput, required: true, description: 'The child feature.' }) },
    resolve: async (_r, { input }, ctx) => {
      await ctx.services.features.removeDependencies(input.project, input.feature);
      return ctx.services.features.getProjectFeature(input.project, input.feature);
    },
  }),
  updateFeatureType: t.field({
    type: FeatureTypeRef,
    description: 'Changes a feature type\'s lifetime (ADMIN). Event feature-type-updated.',
    args: { input: t.arg({ type: UpdateFeatureTypeInput, required: true, description: 'Type and lifetime.' }) },
    resolve: (_r, { input }, ctx) => ctx.services.features.updateFeatureTypeLifetime(input.id, { lifetimeDays: input.lifetimeDays ?? null }),
  }),
}));
