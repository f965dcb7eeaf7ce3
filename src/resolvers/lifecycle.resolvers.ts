import type { FeatureEnvironmentState } from '../domain/features/feature.shapes';
import type { LifecycleCounts } from '../domain/lifecycle/lifecycle.read-model';
import { environmentStage } from '../domain/lifecycle/lifecycle.rules';
import { completeSchema } from '../domain/lifecycle/lifecycle.service';
import { COMPLETED_STATUSES, type FeatureLifecycle, type LifecycleStageName, type LifecycleStageSpan } from '../domain/lifecycle/lifecycle.shapes';
import { builder } from './builder';
import { WEIGHTS } from './cost';
import { FeatureEnvironmentRef, featureKey } from './feature-environments.resolvers';
import { FeatureRef, FeatureRefInput } from './features.resolvers';
import { defined } from './input';
import { loaders } from './loaders';
import { ProjectRef } from './projects.resolvers';
import { enumType, zodInput } from './zod-input';

/**
 * Flag lifecycle (issue 44): where each flag is, the time it spent in each stage, and completing a flag. The REST doors
 * are src/rest/lifecycle.routes.ts. GraphQL names `pre-live` `preLive` (an enum value cannot hold a hyphen).
 */

const STAGE_DESCRIPTIONS: Record<LifecycleStageName, string> = {
  initial: 'Created, not yet switched on outside production nor reported by an SDK.',
  'pre-live': 'Switched on outside production, or reported by an SDK in some environment.',
  live: 'Reported by an SDK in a production environment.',
  completed: 'Marked completed by a user: kept or discarded.',
  archived: 'Archived.',
};
export const LifecycleStageEnum = builder.enumType('LifecycleStage', {
  description: 'A stage of a flag’s lifecycle (Unleash 6.2), in the order a flag goes through them.',
  values: {
    initial: { value: 'initial', description: STAGE_DESCRIPTIONS.initial },
    preLive: { value: 'pre-live', description: STAGE_DESCRIPTIONS['pre-live'] },
    live: { value: 'live', description: STAGE_DESCRIPTIONS.live },
    completed: { value: 'completed', description: STAGE_DESCRIPTIONS.completed },
    archived: { value: 'archived', description: STAGE_DESCRIPTIONS.archived },
  } as const,
});
const CompletedStatusEnum = enumType('CompletedStatus', COMPLETED_STATUSES, {
  description: 'How a completed flag ended.',
  valueDescriptions: { kept: 'Its code path stays (statusValue may name the variant kept).', discarded: 'Its code path goes.' },
});

const LifecycleStageSpanRef = builder.objectRef<LifecycleStageSpan>('FeatureLifecycleStage').implement({
  description: 'A stage the flag entered, and how long it stayed.',
  fields: (t) => ({
    stage: t.field({ type: LifecycleStageEnum, description: 'The stage.', resolve: (s) => s.stage }),
    enteredAt: t.expose('enteredStageAt', { type: 'DateTime', description: 'When the flag entered it.' }),
    leftAt: t.expose('leftStageAt', { type: 'DateTime', nullable: true, description: 'When it entered the next one (null: it is still here).' }),
    durationMs: t.exposeFloat('durationMs', { description: 'Milliseconds spent in it (until now for the current stage).' }),
    status: t.field({ type: CompletedStatusEnum, nullable: true, description: 'Completed only: kept or discarded.', resolve: (s) => s.status ?? null }),
    statusValue: t.string({ nullable: true, description: 'Completed only: what was kept, if given.', resolve: (s) => s.statusValue ?? null }),
  }),
});

const FeatureLifecycleRef = builder.objectRef<FeatureLifecycle>('FeatureLifecycle').implement({
  description: 'Where a flag is in its lifecycle (REST: GET /api/admin/projects/:projectId/features/:featureName/lifecycle).',
  fields: (t) => ({
    stage: t.field({ type: LifecycleStageEnum, description: 'The current stage: the furthest one entered.', resolve: (l) => l.stage }),
    enteredStageAt: t.expose('enteredStageAt', { type: 'DateTime', description: 'When it entered the current stage.' }),
    stages: t.field({ type: [LifecycleStageSpanRef], description: 'Every stage entered, in order, with the time spent in each.', resolve: (l) => l.stages }),
    trafficAfterDiscard: t.exposeBoolean('trafficAfterDiscard', { description: 'Completed as discarded, yet an SDK reported it since: its code is still in use.' }),
    potentiallyStale: t.exposeBoolean('potentiallyStale', { description: 'Not marked stale, and older than its type’s expected lifetime.' }),
  }),
});

const LifecycleCountsRef = builder.objectRef<LifecycleCounts>('LifecycleCounts').implement({
  description: 'How many of a project’s flags are in each lifecycle stage.',
  fields: (t) => ({
    initial: t.exposeInt('initial', { description: STAGE_DESCRIPTIONS.initial }),
    preLive: t.exposeInt('preLive', { description: STAGE_DESCRIPTIONS['pre-live'] }),
    live: t.exposeInt('live', { description: STAGE_DESCRIPTIONS.live }),
    completed: t.exposeInt('completed', { description: STAGE_DESCRIPTIONS.completed }),
    archived: t.exposeInt('archived', { description: STAGE_DESCRIPTIONS.archived }),
    discardedWithTraffic: t.exposeInt('discardedWithTraffic', { description: 'Completed as discarded, yet reported by an SDK since.' }),
  }),
});

builder.objectFields(FeatureRef, (t) => ({
  lifecycle: t.field({
    type: FeatureLifecycleRef,
    description: 'Its lifecycle: stage, the time spent in each, and warnings (loaded with the other features’ in one query).',
    resolve: async (f, _args, ctx) => (await loaders(ctx).lifecycles.load(f.name))!,
  }),
  potentiallyStale: t.boolean({
    description: 'Not marked stale, and older than its type’s expected lifetime.',
    resolve: async (f, _args, ctx) => (await loaders(ctx).lifecycles.load(f.name))?.potentiallyStale ?? false,
  }),
}));

builder.objectField(FeatureEnvironmentRef, 'lifecycleStage', (t) => t.field({
  type: LifecycleStageEnum,
  description: 'Its lifecycle stage in this environment: live once reported here and the environment is of type production, pre-live once reported or switched on, else initial.',
  resolve: (e: FeatureEnvironmentState) => environmentStage(e),
}));

builder.objectField(ProjectRef, 'lifecycleCounts', (t) => t.field({
  type: LifecycleCountsRef,
  complexity: WEIGHTS.features,
  description: 'How many of its flags are in each lifecycle stage, and how many discarded ones are still reported.',
  resolve: (p, _args, ctx) => ctx.services.lifecycle.projectCounts(p.id),
}));

const CompleteFeatureInput = zodInput('CompleteFeatureInput', completeSchema, {
  description: 'Marks a flag completed.',
  descriptions: { status: 'Kept or discarded.', statusValue: 'What was kept (a variant, say), 1..200 characters.' },
  fields: (t) => featureKey(t),
});

builder.mutationFields((t) => ({
  completeFeature: t.field({
    type: FeatureLifecycleRef,
    description: 'Marks a flag completed, kept or discarded; again changes the status, not when (REST: POST …/lifecycle/complete). Event feature-completed.',
    args: { input: t.arg({ type: CompleteFeatureInput, required: true, description: 'The flag and how it ended.' }) },
    resolve: (_root, { input: { project, feature, ...rest } }, ctx) => ctx.services.lifecycle.complete(project, feature, defined(rest)),
  }),
  uncompleteFeature: t.field({
    type: FeatureLifecycleRef,
    description: 'Takes back a flag’s completed stage (REST: POST …/lifecycle/uncomplete). Event feature-uncompleted.',
    args: { input: t.arg({ type: FeatureRefInput, required: true, description: 'The flag.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.lifecycle.uncomplete(input.project, input.feature),
  }),
}));
