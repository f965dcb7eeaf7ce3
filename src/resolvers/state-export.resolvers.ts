import type {
  StateExport, StateExportFeature, StateExportFeatureEnvironment, StateExportFeatureNaming, StateExportFeatureStrategy,
  StateExportFeatureStrategySegment, StateExportFeatureTag, StateExportProject,
} from '../domain/import-export/state-export.shapes';
import type { Segment } from '../domain/segments/segment.shapes';
import { LIST_MULTIPLIER } from './cost';
import { builder } from './builder';
import { EnvironmentRef } from './environments.resolvers';
import { FeatureVariantRef, StrategyVariantRef } from './feature-environments.resolvers';
import { ConstraintRef } from './constraints';
import { StrategyDefinitionRef } from './strategies.resolvers';
import { TagRef, TagTypeRef } from './tags.resolvers';

/**
 * The legacy state export (spec endpoint 16) as one typed object: the same sections and rows as
 * `GET /api/admin/state/export`, from the same service call.
 */

/** Reading the export: a dozen statements over whole tables, whatever is selected. */
const STATE_EXPORT_WEIGHT = 500;
/** Each section is a list of the service's things, priced like a root list. */
const SECTION = { field: 1, multiplier: LIST_MULTIPLIER } as const;

const FeatureRowRef = builder.objectRef<StateExportFeature>('StateExportFeature').implement({
  description: 'A feature that is not archived, as the state export lists it.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Unique, URL-friendly name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    type: t.exposeString('type', { description: 'Feature type (release, experiment, operational, kill-switch, permission).' }),
    project: t.exposeString('project', { description: 'Project id.' }),
    stale: t.exposeBoolean('stale', { description: 'Marked stale.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true, description: 'Last metrics seen; null when never.' }),
    impressionData: t.exposeBoolean('impressionData', { description: 'Whether SDKs emit impression events.' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true, description: 'When it was archived: always null here.' }),
    archived: t.exposeBoolean('archived', { description: 'Whether it is archived: always false here.' }),
  }),
});

const FeatureNamingRowRef = builder.objectRef<StateExportFeatureNaming>('StateExportFeatureNaming').implement({
  description: 'A project\'s feature naming pattern; every field null when the project has none (REST: `{}`).',
  fields: (t) => ({
    pattern: t.string({ nullable: true, description: 'JavaScript regular expression without delimiters.', resolve: (n) => n.pattern ?? null }),
    example: t.string({ nullable: true, description: 'A name that matches the pattern.', resolve: (n) => n.example ?? null }),
    description: t.string({ nullable: true, description: 'Shown when a feature is created.', resolve: (n) => n.description ?? null }),
  }),
});

const ProjectRowRef = builder.objectRef<StateExportProject>('StateExportProject').implement({
  description: 'A project, as the state export lists it.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Unique, URL-friendly id.' }),
    name: t.exposeString('name', { description: 'Display name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    health: t.exposeInt('health', { description: 'Health rating, 0..100, computed now as the health report computes it.' }),
    featureCount: t.exposeInt('featureCount', { description: 'Features of the project that are not archived.' }),
    memberCount: t.exposeInt('memberCount', { description: 'Distinct users holding a role in the project, directly or through a group.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'Last change; null when never changed.' }),
    favorite: t.exposeBoolean('favorite', { description: 'Always false: an export has no caller\'s favourites.' }),
    mode: t.exposeString('mode', { description: 'open, protected or private.' }),
    defaultStickiness: t.exposeString('defaultStickiness', { description: 'Stickiness new strategies and variants start with.' }),
    featureNaming: t.field({ type: FeatureNamingRowRef, description: 'The feature naming pattern.', resolve: (p) => p.featureNaming }),
  }),
});

const FeatureTagRowRef = builder.objectRef<StateExportFeatureTag>('StateExportFeatureTag').implement({
  description: 'A tag on a feature.',
  fields: (t) => ({
    featureName: t.exposeString('featureName', { description: 'The tagged feature.' }),
    tagType: t.exposeString('tagType', { description: 'Tag type.' }),
    tagValue: t.exposeString('tagValue', { description: 'Tag value.' }),
    createdByUserId: t.exposeInt('createdByUserId', { nullable: true, description: 'Id of the user who tagged it (-1337 for an admin API token); null when unknown.' }),
  }),
});

const FeatureStrategyRowRef = builder.objectRef<StateExportFeatureStrategy>('StateExportFeatureStrategy').implement({
  description: 'An activation strategy of a feature in one environment; within a feature and environment the list is in evaluation order.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Strategy id (uuid).' }),
    featureName: t.exposeString('featureName', { description: 'The feature it belongs to.' }),
    projectId: t.exposeString('projectId', { description: 'The feature\'s project.' }),
    environment: t.exposeString('environment', { description: 'Environment name.' }),
    strategyName: t.exposeString('strategyName', { description: 'Strategy type name, for example flexibleRollout.' }),
    title: t.exposeString('title', { nullable: true, description: 'Descriptive title.' }),
    parameters: t.field({ type: 'JSON', description: 'Parameter name to string value.', resolve: (s) => s.parameters }),
    constraints: t.field({ type: [ConstraintRef], description: 'All must hold for the strategy to apply.', resolve: (s) => s.constraints }),
    variants: t.field({ type: [StrategyVariantRef], description: 'Variants handed out when this strategy enables the feature.', resolve: (s) => s.variants }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    disabled: t.exposeBoolean('disabled', { description: 'Disabled strategies are not evaluated.' }),
  }),
});

const FeatureEnvironmentRowRef = builder.objectRef<StateExportFeatureEnvironment>('StateExportFeatureEnvironment').implement({
  description: 'A feature\'s configuration in one environment.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'Whether the feature is on there.' }),
    featureName: t.exposeString('featureName', { description: 'The feature.' }),
    environment: t.exposeString('environment', { description: 'Environment name.' }),
    variants: t.field({ type: [FeatureVariantRef], description: 'Variants of the feature there.', resolve: (e) => e.variants }),
  }),
});

const SegmentRowRef = builder.objectRef<Segment>('StateExportSegment').implement({
  description: 'A segment, as the state export lists it.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Numeric id.' }),
    name: t.exposeString('name', { description: 'Unique name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    project: t.exposeString('project', { nullable: true, description: 'The project whose strategies alone may use it; null for a global segment.' }),
    constraints: t.field({ type: [ConstraintRef], description: 'All must hold for the segment to match.', resolve: (s) => s.constraints }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who created it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    usedInProjects: t.exposeInt('usedInProjects', { description: 'Distinct projects whose strategies use it.' }),
    usedInFeatures: t.exposeInt('usedInFeatures', { description: 'Distinct features (archived included) whose strategies use it.' }),
  }),
});

const FeatureStrategySegmentRowRef = builder.objectRef<StateExportFeatureStrategySegment>('StateExportFeatureStrategySegment').implement({
  description: 'A segment attached to a feature strategy.',
  fields: (t) => ({
    featureStrategyId: t.exposeString('featureStrategyId', { description: 'The strategy (uuid).' }),
    segmentId: t.exposeInt('segmentId', { description: 'The segment.' }),
  }),
});

const StateExportRef = builder.objectRef<StateExport>('StateExport').implement({
  description: 'The legacy state export (deprecated; version 4): every section is present, an excluded one is empty.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Format version: 4.' }),
    features: t.field({ type: [FeatureRowRef], complexity: SECTION, description: 'Features that are not archived, by name (with `featureToggles`).', resolve: (s) => s.features }),
    strategies: t.field({ type: [StrategyDefinitionRef], complexity: SECTION, description: 'Custom (not built-in) strategy definitions, by name (with `strategies`).', resolve: (s) => s.strategies }),
    projects: t.field({ type: [ProjectRowRef], complexity: SECTION, description: 'Projects, by id (with `projects`).', resolve: (s) => s.projects }),
    tagTypes: t.field({ type: [TagTypeRef], complexity: SECTION, description: 'Tag types, by name (with `tags`).', resolve: (s) => s.tagTypes }),
    tags: t.field({ type: [TagRef], complexity: SECTION, description: 'Tags, by type then value (with `tags`).', resolve: (s) => s.tags }),
    featureTags: t.field({
      type: [FeatureTagRowRef], complexity: SECTION,
      description: 'Tags of the exported features, by feature, type and value (with both `tags` and `featureToggles`).', resolve: (s) => s.featureTags,
    }),
    featureStrategies: t.field({
      type: [FeatureStrategyRowRef], complexity: SECTION,
      description: 'Strategies of the exported features, by feature and environment, each group in evaluation order (with `featureToggles`).',
      resolve: (s) => s.featureStrategies,
    }),
    environments: t.field({ type: [EnvironmentRef], complexity: SECTION, description: 'Environments, switched-off ones included, by name (with `environments`).', resolve: (s) => s.environments }),
    featureEnvironments: t.field({
      type: [FeatureEnvironmentRowRef], complexity: SECTION,
      description: 'The exported features\' configuration per environment, by feature then environment (with `featureToggles`).', resolve: (s) => s.featureEnvironments,
    }),
    segments: t.field({ type: [SegmentRowRef], complexity: SECTION, description: 'Segments, by id (always).', resolve: (s) => s.segments }),
    featureStrategySegments: t.field({
      type: [FeatureStrategySegmentRowRef], complexity: SECTION,
      description: 'Segments attached to strategies of features that are not archived, by strategy then segment (always).',
      resolve: (s) => s.featureStrategySegments,
    }),
  }),
});

const flag = (what: string) => `Include ${what} (default true).`;

builder.queryFields((t) => ({
  stateExport: t.field({
    type: StateExportRef,
    complexity: { field: STATE_EXPORT_WEIGHT, multiplier: 1 },
    description: 'Deprecated: the legacy state export, the same as GET /api/admin/state/export (permission ADMIN; writes no event). '
      + 'Segments and their strategy links are always included.',
    args: {
      strategies: t.arg.boolean({ required: true, defaultValue: true, description: flag('custom strategy definitions') }),
      featureToggles: t.arg.boolean({ required: true, defaultValue: true, description: flag('features with their strategies and environment configuration') }),
      projects: t.arg.boolean({ required: true, defaultValue: true, description: flag('projects') }),
      tags: t.arg.boolean({ required: true, defaultValue: true, description: flag('tag types and tags, and with featureToggles the features\' tags') }),
      environments: t.arg.boolean({ required: true, defaultValue: true, description: flag('environments') }),
    },
    resolve: (_root, args, ctx) => ctx.services.stateExport.export(args),
  }),
}));
