import type { FeatureIndexEntry } from '../domain/features/feature-index.read-model';
import { builder } from './builder';
import { WEIGHTS } from './cost';
import { LifecycleStageEnum } from './lifecycle.resolvers';
import { TagRef } from './tags.resolvers';

/**
 * Every flag in one list, for a search over all of them (issue 44: the Flags page and the command palette). One
 * statement answers it; the fields are plain values, so 10,000 flags cost no loader round.
 */
const FeatureIndexEntryRef = builder.objectRef<FeatureIndexEntry>('FeatureIndexEntry').implement({
  description: 'An active flag as a search over every flag needs it.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Flag name.' }),
    project: t.exposeString('project', { description: 'Its project.' }),
    type: t.exposeString('type', { description: 'Its type.' }),
    description: t.exposeString('description', { nullable: true, description: 'Its description.' }),
    stale: t.exposeBoolean('stale', { description: 'Marked stale.' }),
    potentiallyStale: t.exposeBoolean('potentiallyStale', { description: 'Not marked stale, and older than its type’s expected lifetime.' }),
    enabled: t.exposeBoolean('enabled', { description: 'On in at least one of its project’s environments that are switched on.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Its creation.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true, description: 'Its latest SDK report, in any environment.' }),
    tags: t.field({ type: [TagRef], description: 'Its tags.', resolve: (f) => f.tags }),
    stage: t.field({ type: LifecycleStageEnum, description: 'Its lifecycle stage.', resolve: (f) => f.stage as never }),
  }),
});

builder.queryFields((t) => ({
  featureIndex: t.field({
    type: [FeatureIndexEntryRef],
    // One statement over every flag (hash joins), whatever the count: as a page query of the largest size.
    complexity: WEIGHTS.features * 10,
    description: 'Every active flag of every project, by name, in one list: what a search over all flags needs (the Flags page and the command palette).',
    resolve: (_root, _args, ctx) => ctx.services.features.index(),
  }),
}));
