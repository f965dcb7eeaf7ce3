import { advancedSchema, basicSchema, contextSchema } from '../domain/playground/playground.service';
import type {
  AdvancedPlaygroundEntry, AdvancedPlaygroundFeature, PlaygroundConstraintResult, PlaygroundFeatureEvaluation, PlaygroundSegmentResult,
  PlaygroundStrategyEvaluation, PlaygroundVariant,
} from '../domain/playground/playground.shapes';
import { ConstraintOperatorEnum } from './constraints';
import { LIST_MULTIPLIER, WEIGHTS } from './cost';
import { builder } from './builder';
import { defined } from './input';
import { zodInput, type InputFields } from './zod-input';
import { FeatureVariantRef, PayloadRef, StrategyVariantRef } from './feature-environments.resolvers';

const PlaygroundVariantRef = builder.objectRef<PlaygroundVariant>('PlaygroundVariant').implement({
  description: 'The variant a context gets; `disabled` (enabled false) when none.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Variant name, or "disabled".' }),
    enabled: t.exposeBoolean('enabled', { description: 'False when the feature is off or has no variants.' }),
    payload: t.field({ type: PayloadRef, nullable: true, description: 'The variant payload, if any.', resolve: (v) => v.payload ?? null }),
  }),
});

const PlaygroundConstraintRef = builder.objectRef<PlaygroundConstraintResult>('PlaygroundConstraint').implement({
  description: 'A constraint and whether it held for the context.',
  fields: (t) => ({
    contextName: t.exposeString('contextName', { description: 'Context field.' }),
    operator: t.expose('operator', { type: ConstraintOperatorEnum, description: 'Operator.' }),
    values: t.exposeStringList('values', { description: 'Values of list operators.' }),
    value: t.string({ nullable: true, description: 'Value of single-value operators.', resolve: (c) => c.value ?? null }),
    caseInsensitive: t.exposeBoolean('caseInsensitive', { description: 'Whether case is ignored.' }),
    inverted: t.exposeBoolean('inverted', { description: 'Whether the result is negated.' }),
    result: t.exposeBoolean('result', { description: 'Whether it held.' }),
  }),
});

const PlaygroundSegmentRef = builder.objectRef<PlaygroundSegmentResult>('PlaygroundSegment').implement({
  description: 'A segment of a strategy and whether all its constraints held.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Segment id.' }),
    name: t.exposeString('name', { description: 'Segment name.' }),
    result: t.exposeBoolean('result', { description: 'Whether every constraint held.' }),
    constraints: t.field({ type: [PlaygroundConstraintRef], description: 'Its constraints with results.', resolve: (s) => s.constraints }),
  }),
});

const PlaygroundStrategyResultRef = builder.objectRef<PlaygroundStrategyEvaluation['result']>('PlaygroundStrategyResult').implement({
  description: 'How a strategy evaluated.',
  fields: (t) => ({
    enabled: t.field({ type: 'JSON', description: 'true, false, or "unknown" when the strategy could not be fully evaluated.', resolve: (r) => r.enabled }),
    evaluationStatus: t.exposeString('evaluationStatus', { description: 'complete, incomplete (unknown strategy) or unevaluated (disabled strategy).' }),
    variant: t.field({ type: PlaygroundVariantRef, nullable: true, description: 'The strategy variant picked, when complete.', resolve: (r) => ('variant' in r ? r.variant ?? null : null) }),
    variants: t.field({ type: [StrategyVariantRef], nullable: true, description: 'The strategy\'s variants, when complete.', resolve: (r) => ('variants' in r ? r.variants ?? null : null) }),
  }),
});

const PlaygroundStrategyRef = builder.objectRef<PlaygroundStrategyEvaluation>('PlaygroundStrategy').implement({
  description: 'One strategy of a feature, evaluated.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Strategy id.' }),
    name: t.exposeString('name', { description: 'Strategy type name.' }),
    title: t.string({ nullable: true, description: 'Title, when set.', resolve: (s) => s.title ?? null }),
    disabled: t.exposeBoolean('disabled', { description: 'Disabled strategies are never evaluated (result unknown).' }),
    parameters: t.field({ type: 'JSON', description: 'Parameters.', resolve: (s) => s.parameters }),
    result: t.field({ type: PlaygroundStrategyResultRef, description: 'Result.', resolve: (s) => s.result }),
    constraints: t.field({ type: [PlaygroundConstraintRef], description: 'Constraints with results.', resolve: (s) => s.constraints }),
    segments: t.field({ type: [PlaygroundSegmentRef], description: 'Segments with results.', resolve: (s) => s.segments }),
    editLink: t.string({ description: '`links.edit`: where the admin UI edits the strategy.', resolve: (s) => s.links.edit }),
  }),
});

const PlaygroundStrategiesRef = builder.objectRef<PlaygroundFeatureEvaluation['strategies']>('PlaygroundStrategies').implement({
  description: 'The strategies of a feature and their combined result.',
  fields: (t) => ({
    result: t.field({ type: 'JSON', description: 'true, false, or "unknown" when no strategy is true and one could not be evaluated.', resolve: (s) => s.result }),
    data: t.field({ type: [PlaygroundStrategyRef], description: 'Each strategy, in sort order.', resolve: (s) => s.data }),
  }),
});

const playgroundFeatureFields = {
  description: 'A feature evaluated for one context in one environment.',
};

export const PlaygroundFeatureRef = builder.objectRef<PlaygroundFeatureEvaluation>('PlaygroundFeature').implement({
  ...playgroundFeatureFields,
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Feature name.' }),
    projectId: t.exposeString('projectId', { description: 'Project id.' }),
    strategies: t.field({ type: PlaygroundStrategiesRef, description: 'Strategy results.', resolve: (f) => f.strategies }),
    hasUnsatisfiedDependency: t.exposeBoolean('hasUnsatisfiedDependency', { description: 'A parent dependency is not satisfied.' }),
    isEnabledInCurrentEnvironment: t.exposeBoolean('isEnabledInCurrentEnvironment', { description: 'The environment switch.' }),
    isEnabled: t.exposeBoolean('isEnabled', { description: 'Whether the context gets the feature.' }),
    variant: t.field({ type: PlaygroundVariantRef, description: 'The variant the context gets.', resolve: (f) => f.variant }),
    variants: t.field({ type: [FeatureVariantRef], description: 'The enabling strategy\'s variants, else the environment\'s.', resolve: (f) => f.variants }),
  }),
});

const AdvancedPlaygroundEntryRef = builder.objectRef<AdvancedPlaygroundEntry>('AdvancedPlaygroundEntry').implement({
  description: 'A feature evaluated for one combination of context values in one environment.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'Environment.' }),
    context: t.field({ type: 'JSON', description: 'The combination evaluated (properties flattened to the top level).', resolve: (e) => e.context }),
    evaluation: t.field({ type: PlaygroundFeatureRef, description: 'The result.', resolve: (e) => e }),
  }),
});

const AdvancedPlaygroundEnvironmentRef = builder.objectRef<{ environment: string; entries: AdvancedPlaygroundEntry[] }>('AdvancedPlaygroundEnvironment').implement({
  description: 'A feature\'s results in one environment, one per context combination.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'Environment.' }),
    entries: t.field({ type: [AdvancedPlaygroundEntryRef], description: 'One result per combination.', resolve: (e) => e.entries }),
  }),
});

const AdvancedPlaygroundFeatureRef = builder.objectRef<AdvancedPlaygroundFeature>('AdvancedPlaygroundFeature').implement({
  description: 'A feature with its results per environment.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Feature name.' }),
    projectId: t.exposeString('projectId', { description: 'Project id.' }),
    environments: t.field({
      type: [AdvancedPlaygroundEnvironmentRef],
      description: 'Results per environment, in the order requested.',
      resolve: (f) => Object.entries(f.environments).map(([environment, entries]) => ({ environment, entries })),
    }),
  }),
});

export const PlaygroundContextInput = zodInput('PlaygroundContextInput', contextSchema, {
  description: 'The client context a flag is evaluated for.',
  descriptions: {
    appName: 'Application name (non-empty).',
    userId: 'User id; comma-separated values expand in the advanced playground.',
    sessionId: 'Session id.',
    remoteAddress: 'IP address.',
    environment: 'Deprecated context environment (default "default"), which constraints on `environment` read.',
    currentTime: 'RFC 3339 time of the evaluation (default now).',
  },
  fields: (t) => ({ properties: t.field({ type: 'JSON', description: 'Other context fields: name to string value.' }) }),
});
// The REST body's `projects` may also be "*" (all); GraphQL says that by leaving it out.
const projects = (t: InputFields) => ({
  projects: t.stringList({ description: 'Projects to include (default all).' }),
});
const PlaygroundInput = zodInput('PlaygroundInput', basicSchema, {
  description: 'What to evaluate: one environment.',
  descriptions: { environment: 'Environment.', context: 'The context.' },
  fields: projects,
});
const AdvancedPlaygroundInput = zodInput('AdvancedPlaygroundInput', advancedSchema, {
  description: 'What to evaluate: several environments and every combination of comma-separated context values.',
  descriptions: { environments: 'Environments (at least 1).', context: 'The context.' },
  fields: projects,
});

/** GraphQL's context as the REST body: absent fields dropped, so the same validation and expansion apply. */
const body = <T extends { projects?: string[] | null; context: object }>(input: T) =>
  ({ ...defined(input), projects: input.projects ?? '*', context: defined(input.context) });

builder.queryFields((t) => ({
  playground: t.field({
    type: [PlaygroundFeatureRef],
    complexity: { field: WEIGHTS.playground, multiplier: LIST_MULTIPLIER },
    description: 'Evaluates a context against the features of the chosen projects in one environment (REST: POST /api/admin/playground).',
    args: { input: t.arg({ type: PlaygroundInput, required: true, description: 'Environment, projects and context.' }) },
    resolve: async (_r, { input }, ctx) => (await ctx.services.playground.evaluate(body(input))).features,
  }),
  advancedPlayground: t.field({
    type: [AdvancedPlaygroundFeatureRef],
    complexity: { field: WEIGHTS.advancedPlayground, multiplier: LIST_MULTIPLIER },
    description: 'Evaluates every combination of the comma-separated context values in several environments (REST: POST /api/admin/playground/advanced). More than PLAYGROUND_COMBINATION_LIMIT (default 15,000) environment × feature × context combinations in one request is a 400 ValidationError.',
    args: { input: t.arg({ type: AdvancedPlaygroundInput, required: true, description: 'Environments, projects and context.' }) },
    resolve: async (_r, { input }, ctx) => (await ctx.services.playground.evaluateAdvanced(body(input))).features,
  }),
}));
