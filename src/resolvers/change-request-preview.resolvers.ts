import type { ChangeRequestPreview, PreviewConfiguration, PreviewFeature, PreviewResult, PreviewWarning } from '../domain/change-requests/change-request-preview.shapes';
import { builder } from './builder';
import { ChangeRequestRef } from './change-requests.resolvers';
import { WEIGHTS } from './cost';
import { FeatureStrategyRef, FeatureVariantRef } from './feature-environments.resolvers';
import { FeatureDependencyRef } from './features.resolvers';
import { defined } from './input';
import { PlaygroundContextInput, PlaygroundFeatureRef } from './playground.resolvers';

/** Issue 12 part 9 on the GraphQL door: `ChangeRequest.preview(contexts)`, the same service and answer as REST. */

const ConfigurationRef = builder.objectRef<PreviewConfiguration>('ChangeRequestPreviewConfiguration').implement({
  description: "A feature's configuration in the request's environment (as the feature environment shows it), before or after the request.",
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'Whether the feature is on in the environment.' }),
    strategies: t.field({
      type: [FeatureStrategyRef],
      description: 'Strategies in evaluation order. A strategy the request adds has a fresh id (the apply assigns its own); `segmentIds` is the previewed list, while `segments` reads the segments as they are now.',
      resolve: (c) => c.strategies,
    }),
    variants: t.field({ type: [FeatureVariantRef], description: 'Variants in the environment.', resolve: (c) => c.variants }),
    dependencies: t.field({ type: [FeatureDependencyRef], description: 'Parent features.', resolve: (c) => c.dependencies }),
  }),
});

const ResultRef = builder.objectRef<PreviewResult>('ChangeRequestPreviewResult').implement({
  description: 'One context evaluated against a feature before and after the request.',
  fields: (t) => ({
    context: t.field({ type: 'JSON', description: 'The context as sent (absent fields left out).', resolve: (r) => r.context }),
    before: t.field({ type: PlaygroundFeatureRef, nullable: true, description: 'The playground result now; null when the feature is not active.', resolve: (r) => r.before }),
    after: t.field({ type: PlaygroundFeatureRef, nullable: true, description: 'The playground result after the request; null when it archives the feature.', resolve: (r) => r.after }),
    changed: t.exposeBoolean('changed', { description: '`isEnabled` or the variant name differs (a missing feature counts as off, variant `disabled`).' }),
  }),
});

const FeatureRef = builder.objectRef<PreviewFeature>('ChangeRequestPreviewFeature').implement({
  description: 'A feature the request affects.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Feature name.' }),
    project: t.exposeString('project', { description: 'Its project.' }),
    reasons: t.exposeStringList('reasons', { description: 'Why it is shown: `change` (a change names it), `segment` (it uses a changed segment), `parent` (it depends on a feature shown for one of those).' }),
    before: t.field({ type: ConfigurationRef, nullable: true, description: 'Its configuration now; null when it is not active (archived since).', resolve: (f) => f.before }),
    after: t.field({ type: ConfigurationRef, nullable: true, description: 'Its configuration after the request; null when the request archives it.', resolve: (f) => f.after }),
    results: t.field({ type: [ResultRef], description: 'One per context, in the order sent.', resolve: (f) => f.results }),
  }),
});

const WarningRef = builder.objectRef<PreviewWarning>('ChangeRequestPreviewWarning').implement({
  description: 'A change the preview left out because applying it would be refused now.',
  fields: (t) => ({
    changeId: t.exposeInt('changeId', { description: 'The change.' }),
    action: t.exposeString('action', { description: 'Its action.' }),
    feature: t.exposeString('feature', { nullable: true, description: 'The feature it names (null for segment changes).' }),
    message: t.exposeString('message', { description: 'Why the apply would refuse it.' }),
  }),
});

const PreviewRef = builder.objectRef<ChangeRequestPreview>('ChangeRequestPreview').implement({
  description: "What a change request would do: every feature it affects, configured and evaluated before and after, on an in-memory copy (nothing is written).",
  fields: (t) => ({
    environment: t.exposeString('environment', { description: "The request's environment." }),
    features: t.field({ type: [FeatureRef], description: 'Features named by a change first (first change first), then those using a changed segment or depending on a shown feature.', resolve: (p) => p.features }),
    changedCount: t.exposeInt('changedCount', { description: 'Feature × context pairs whose `isEnabled` or variant name differs.' }),
    warnings: t.field({ type: [WarningRef], description: 'Changes left out because the apply would refuse them now.', resolve: (p) => p.warnings }),
  }),
});

builder.objectField(ChangeRequestRef, 'preview', (t) => t.field({
  type: PreviewRef,
  description: 'Preview before approving: the request applied in memory and each context evaluated before and after, as REST `POST …/change-requests/:id/preview`. 1 to 1000 contexts; at most the playground combination limit of feature × context results per request. Needs no permission beyond authentication.',
  args: { contexts: t.arg({ type: [PlaygroundContextInput], required: true, description: 'Client contexts (1 to 1000).' }) },
  complexity: (args) => ({ field: WEIGHTS.changeRequestPreview + WEIGHTS.changeRequestPreviewContext * (Array.isArray(args.contexts) ? args.contexts.length : 0), multiplier: 1 }),
  resolve: (request, { contexts }, ctx) => ctx.services.changeRequestPreview.previewOf(request, { contexts: contexts.map((c) => defined(c)) }),
}));
