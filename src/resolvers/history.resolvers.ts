import type { Feature } from '../domain/features/feature.shapes';
import type { FeatureDiff } from '../domain/history/history.service';
import type { FeatureVersion, VersionDiffEntry, VersionEvent } from '../domain/history/history.shapes';
import type { RevertResult } from '../domain/history/revert.service';
import type { RevertStep } from '../domain/history/revert-plan';
import { builder } from './builder';
import { WEIGHTS, paged } from './cost';
import { FeatureStrategyRef, FeatureVariantRef } from './feature-environments.resolvers';
import { FeatureDependencyRef, FeatureRef } from './features.resolvers';
import { defined } from './input';
import { TagRef } from './tags.resolvers';

/**
 * The past of flags (issue 43): versions with their diffs and events, a flag as it was, diffs between instants, the
 * client answer as of an instant, and reverts. The REST doors are in src/rest/history.routes.ts.
 */

const VersionEventRef = builder.objectRef<VersionEvent>('VersionEvent').implement({
  description: 'An audit event written by the change that made a version.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Event id.' }),
    type: t.exposeString('type', { description: 'Event type.' }),
    createdBy: t.exposeString('createdBy', { description: 'Who made the change.' }),
    createdByUserId: t.exposeInt('createdByUserId', { nullable: true, description: 'Their user id.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was written.' }),
    environment: t.exposeString('environment', { nullable: true, description: 'Environment it touched.' }),
  }),
});

const VersionDiffEntryRef = builder.objectRef<VersionDiffEntry>('VersionDiffEntry').implement({
  description: 'One difference between two states of a flag.',
  fields: (t) => ({
    path: t.exposeString('path', { description: 'JSON Pointer into the flag’s state (`/description`, `/environments/production/enabled`, `/environments/production/strategies/<id>/constraints`); empty when the flag itself appeared or went.' }),
    before: t.field({ type: 'JSON', nullable: true, description: 'The value before (null: absent).', resolve: (d) => d.before ?? null }),
    after: t.field({ type: 'JSON', nullable: true, description: 'The value after (null: absent).', resolve: (d) => d.after ?? null }),
  }),
});

const FeatureVersionRef = builder.objectRef<FeatureVersion>('FeatureVersion').implement({
  description: 'A recorded state of a flag: what changed from the previous one, when, and by whom.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: '1 for the first recorded state, then one more per change.' }),
    revision: t.exposeInt('revision', { description: 'The revision (the counter SDK answers carry) the change committed as.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change committed.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who made it (null for a change made without the API).' }),
    createdByUserId: t.exposeInt('createdByUserId', { nullable: true, description: 'Their user id.' }),
    archived: t.exposeBoolean('archived', { description: 'Whether the flag was archived in this version.' }),
    deleted: t.exposeBoolean('deleted', { description: 'Whether this version records the flag’s deletion.' }),
    events: t.field({ type: [VersionEventRef], description: 'The events the change wrote.', resolve: (v) => v.events }),
    diff: t.field({ type: [VersionDiffEntryRef], description: 'What changed from the previous version.', resolve: (v) => v.diff }),
  }),
});

builder.objectField(FeatureRef, 'versions', (t) => t.field({
  type: [FeatureVersionRef],
  complexity: paged(WEIGHTS.feature, WEIGHTS.featureRow),
  description: 'Its versions, newest first (REST: GET /api/admin/projects/:projectId/features/:featureName/versions).',
  args: {
    first: t.arg.int({ defaultValue: 20, description: 'Most versions, 1..100 (default 20).' }),
    before: t.arg.int({ description: 'Only versions older than this version number (the next page).' }),
  },
  resolve: (f, args, ctx) => ctx.services.history.versions(f.project, f.name, defined({ limit: args.first ?? undefined, before: args.before ?? undefined })),
}));

interface PastEnvironment {
  name: string;
  type: string;
  enabled: boolean;
  sortOrder: number;
  variants: Feature['environments'][number]['variants'];
  strategies: Feature['environments'][number]['strategies'];
}

const PastEnvironmentRef = builder.objectRef<PastEnvironment>('PastFeatureEnvironment').implement({
  description: 'A flag in one environment as it was.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Environment name.' }),
    type: t.exposeString('type', { description: 'Environment type (as it is now).' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the flag was on here.' }),
    sortOrder: t.exposeInt('sortOrder', { description: 'Sort order of the environment (as it is now).' }),
    variants: t.field({ type: [FeatureVariantRef], description: 'Its variants here then.', resolve: (e) => e.variants }),
    strategies: t.field({ type: [FeatureStrategyRef], description: 'Its strategies here then, in order (`segments` are the segments as they are now; `segmentIds` as then).', resolve: (e) => e.strategies }),
  }),
});

const PastFeatureRef = builder.objectRef<Feature>('PastFeature').implement({
  description: 'A flag as it was at a past instant or revision.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Name.' }),
    type: t.exposeString('type', { description: 'Feature type then.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description then.' }),
    project: t.exposeString('project', { description: 'Project it was in.' }),
    stale: t.exposeBoolean('stale', { description: 'Marked stale then.' }),
    impressionData: t.exposeBoolean('impressionData', { description: 'Impression data then.' }),
    archived: t.exposeBoolean('archived', { description: 'Archived then.' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true, description: 'When it was archived, if it was.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    enabled: t.exposeBoolean('enabled', { description: 'On in at least one environment then.' }),
    environments: t.field({ type: [PastEnvironmentRef], description: 'Environments of its project that are on now, as the flag was in them.', resolve: (f) => f.environments }),
    tags: t.field({ type: [TagRef], description: 'Tags then.', resolve: (f) => f.tags }),
    dependencies: t.field({ type: [FeatureDependencyRef], description: 'Parents then.', resolve: (f) => f.dependencies }),
    children: t.field({ type: ['String'], description: 'Flags that depended on it then.', resolve: (f) => f.children }),
  }),
});

const FeatureDiffRef = builder.objectRef<FeatureDiff>('FeatureDiff').implement({
  description: 'A flag’s differences between two instants.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The flag.' }),
    diff: t.field({ type: [VersionDiffEntryRef], description: 'What changed.', resolve: (d) => d.diff }),
  }),
});

builder.queryFields((t) => ({
  featureAt: t.field({
    type: PastFeatureRef,
    complexity: WEIGHTS.feature,
    description: 'A flag as it was at an instant or revision (REST: GET /api/admin/projects/:projectId/features/:featureName?at=). NotFoundError where it did not exist.',
    args: {
      project: t.arg.string({ required: true, description: 'The project it is in (or was last in).' }),
      feature: t.arg.string({ required: true, description: 'Flag name.' }),
      at: t.arg({ type: 'DateTime', description: 'The instant.' }),
      revision: t.arg.string({ description: 'Or the revision.' }),
    },
    resolve: (_r, args, ctx) => ctx.services.history.featureAt(args.project, args.feature, defined({ at: args.at ?? undefined, revision: args.revision ?? undefined })),
  }),
  featureDiff: t.field({
    type: [FeatureDiffRef],
    complexity: WEIGHTS.feature,
    description: 'The differences of a flag, or of every flag of a project when `feature` is absent, between two instants (REST: GET …/features/:featureName/diff and GET /api/admin/projects/:projectId/diff).',
    args: {
      project: t.arg.string({ required: true, description: 'Project.' }),
      feature: t.arg.string({ description: 'Flag (default every flag of the project).' }),
      from: t.arg({ type: 'DateTime', required: true, description: 'The earlier instant.' }),
      to: t.arg({ type: 'DateTime', description: 'The later instant (default now).' }),
    },
    resolve: (_r, args, ctx) => ctx.services.history.diff(args.project, args.feature ?? undefined, defined({ from: args.from, to: args.to ?? undefined })),
  }),
}));

const RevertChangeRef = builder.objectRef<RevertStep>('RevertChange').implement({
  description: 'One change a revert made (or put in a draft), as the change request actions name them.',
  fields: (t) => ({
    action: t.exposeString('action', { description: 'createFeature, reviveFeature, moveFeature, updateFeature, addTag, removeTag, addDependency, deleteDependency, addStrategy, updateStrategy, deleteStrategy, updateEnabled, patchVariant or archiveFeature.' }),
    environment: t.string({ nullable: true, description: 'The environment it changed.', resolve: (s) => ('environment' in s ? s.environment : null) }),
    payload: t.field({ type: 'JSON', nullable: true, description: 'What it set.', resolve: (s) => ('payload' in s ? s.payload : null) }),
  }),
});

const RevertDraftRef = builder.objectRef<RevertResult['drafts'][number]>('RevertDraft').implement({
  description: 'The draft change request a revert made for an environment under change requests.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'The environment.' }),
    changeRequestId: t.exposeInt('changeRequestId', { description: 'The draft.' }),
    changes: t.field({ type: [RevertChangeRef], description: 'The changes it holds.', resolve: (d) => d.changes }),
  }),
});

const RevertResultRef = builder.objectRef<RevertResult>('RevertResult').implement({
  description: 'What a revert did.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'The version brought back.' }),
    changes: t.field({ type: [RevertChangeRef], description: 'The changes made, in order.', resolve: (r) => r.changes }),
    drafts: t.field({ type: [RevertDraftRef], description: 'Drafts made for environments under change requests.', resolve: (r) => r.drafts }),
  }),
});

const RevertFeatureInput = builder.inputType('RevertFeatureInput', {
  description: 'Brings a flag, or some of its environments, back to a version.',
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project the flag is in (or was last in).' }),
    feature: t.string({ required: true, description: 'Flag name.' }),
    version: t.int({ required: true, description: 'The version.' }),
    environments: t.stringList({ description: 'Only these environments’ configuration (default: the whole flag).' }),
  }),
});

const RevertEventInput = builder.inputType('RevertEventInput', {
  description: 'Undoes the change an audit event made to its flag.',
  fields: (t) => ({ id: t.int({ required: true, description: 'Event id.' }) }),
});

builder.mutationFields((t) => ({
  revertFeature: t.field({
    type: RevertResultRef,
    description: 'Brings a flag (or some of its environments) back to a version through ordinary changes in one transaction: each needs its own permission and writes its usual event, marked `revertOf`; an environment under change requests gets a draft instead. ConflictError when the version needs something deleted since.',
    args: { input: t.arg({ type: RevertFeatureInput, required: true, description: 'Flag, version and environments.' }) },
    resolve: (_r, { input }, ctx) => ctx.services.reverts.revert(input.project, input.feature, defined({ version: input.version, environments: input.environments ?? undefined })),
  }),
  revertEvent: t.field({
    type: RevertResultRef,
    description: 'Undoes what one event changed in its flag, when nothing touched the same thing since (ConflictError naming what changed otherwise).',
    args: { input: t.arg({ type: RevertEventInput, required: true, description: 'The event.' }) },
    resolve: (_r, { input }, ctx) => ctx.services.reverts.revertEvent(input.id),
  }),
}));
