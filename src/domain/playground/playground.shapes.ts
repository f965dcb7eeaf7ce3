import { z } from 'zod';
import { named } from '../shapes';
import { constraintFields } from '../features/constraint.shapes';
import { FeatureVariantPayload, StrategyVariant, Variant } from '../features/variant.shapes';

/**
 * The spec's "Playground evaluation result", as the engine (evaluate.ts) builds it and both doors answer it
 * (src/domain/shapes.ts says how shapes are used). The engine imports only the types, so evaluating loads no zod.
 */

/** A constraint as stored (defaults filled) plus its result in this evaluation. */
export const PlaygroundConstraint = named('PlaygroundConstraint', z.object({ ...constraintFields, result: z.boolean() }),
  'A constraint and whether the context passed it');
export type PlaygroundConstraintResult = z.output<typeof PlaygroundConstraint>;

/** `{name, enabled, payload?}`; the disabled variant is `{name: "disabled", enabled: false}` with no payload key. */
export const PlaygroundVariant = named('PlaygroundVariant', z.object({
  name: z.string().describe('`disabled` when the feature is off or has no variants'),
  enabled: z.boolean(),
  payload: FeatureVariantPayload.optional(),
}), 'The variant the context gets');
export type PlaygroundVariant = z.output<typeof PlaygroundVariant>;

/** Result of one strategy: complete, or `incomplete` (unknown/custom strategy) / `unevaluated` (disabled strategy). */
export const PlaygroundStrategyResult = named('PlaygroundStrategyResult', z.union([
  z.object({
    evaluationStatus: z.literal('complete'),
    enabled: z.boolean(),
    variant: PlaygroundVariant.optional().describe('The strategy’s variant for the context, when it has variants'),
    variants: z.array(StrategyVariant).optional(),
  }),
  z.object({
    evaluationStatus: z.enum(['incomplete', 'unevaluated']).describe('`incomplete`: a strategy type the service cannot evaluate; `unevaluated`: a disabled strategy'),
    enabled: z.union([z.literal(false), z.literal('unknown')]).describe('false when constraints or segments already fail'),
  }),
]));
export type PlaygroundStrategyResult = z.output<typeof PlaygroundStrategyResult>;

const PlaygroundSegmentResult = z.object({ id: z.number().int(), name: z.string(), result: z.boolean(), constraints: z.array(PlaygroundConstraint) });
export type PlaygroundSegmentResult = z.output<typeof PlaygroundSegmentResult>;

export const PlaygroundStrategy = named('PlaygroundStrategy', z.object({
  name: z.string(),
  id: z.string(),
  title: z.string().optional().describe('Present when the strategy has a title'),
  disabled: z.boolean(),
  parameters: z.record(z.string(), z.string()),
  result: PlaygroundStrategyResult,
  constraints: z.array(PlaygroundConstraint),
  segments: z.array(PlaygroundSegmentResult),
  links: z.object({ edit: z.string().describe('The strategy’s page in the admin UI') }),
}), 'One strategy and how the context fared');
export type PlaygroundStrategyEvaluation = z.output<typeof PlaygroundStrategy>;

const playgroundFeatureFields = {
  name: z.string(),
  projectId: z.string(),
  strategies: z.object({
    result: z.union([z.boolean(), z.literal('unknown')]).describe('`unknown` when some strategy could not be evaluated and none is true'),
    data: z.array(PlaygroundStrategy),
  }),
  hasUnsatisfiedDependency: z.boolean(),
  isEnabledInCurrentEnvironment: z.boolean(),
  isEnabled: z.boolean(),
  variant: PlaygroundVariant,
  variants: z.array(z.union([Variant, StrategyVariant])).describe('The enabling strategy’s variants, else the feature’s in the environment'),
};

/** The spec's "Playground evaluation result (per feature)". */
export const PlaygroundFeature = named('PlaygroundFeature', z.object(playgroundFeatureFields), 'A feature evaluated against the context');
export type PlaygroundFeatureEvaluation = z.output<typeof PlaygroundFeature>;

/** The request as sent, echoed back (unknown properties included). */
const playgroundInput = z.record(z.string(), z.unknown()).describe('The request body as sent');

export const PlaygroundResult = named('PlaygroundResult', z.object({ input: playgroundInput, features: z.array(PlaygroundFeature) }));
export type PlaygroundResult = z.output<typeof PlaygroundResult>;

export const PlaygroundAdvancedEntry = named('PlaygroundAdvancedEntry', z.object({
  ...playgroundFeatureFields,
  environment: z.string(),
  context: z.record(z.string(), z.unknown()).describe('The combination of context values evaluated (properties flattened)'),
}), 'A feature evaluated in one environment against one combination of context values');
export type AdvancedPlaygroundEntry = z.output<typeof PlaygroundAdvancedEntry>;

const AdvancedPlaygroundFeature = z.object({
  name: z.string(),
  projectId: z.string(),
  environments: z.record(z.string(), z.array(PlaygroundAdvancedEntry)).describe('By environment name: one entry per combination of context values'),
});
/** `environments` is a prototype-free object (`nameMap`), as an environment may be named `__proto__` or `toString`. */
export type AdvancedPlaygroundFeature = z.output<typeof AdvancedPlaygroundFeature>;

export const AdvancedPlaygroundResult = named('AdvancedPlaygroundResult', z.object({
  input: playgroundInput,
  features: z.array(AdvancedPlaygroundFeature),
}));
export type AdvancedPlaygroundResult = z.output<typeof AdvancedPlaygroundResult>;
