import { z } from 'zod';
import { OPERATORS } from '../../../domain/features/constraints';
import { named, timestamp } from '../../../domain/shapes';
import { Tag } from '../../../domain/tags/tag.shapes';

/**
 * Answer shapes of the feature, playground and event routes, written from the read models that build them
 * (src/domain/features/feature.read-model.ts, src/domain/playground/evaluate.ts, src/domain/events/event.store.ts).
 */

// ---- constraints and variants ------------------------------------------------------------------------------------

const constraintFields = {
  contextName: z.string().describe('The context field the constraint tests'),
  operator: z.enum(OPERATORS),
  values: z.array(z.string()).describe('The values of the list operators (empty for the others)'),
  value: z.string().optional().describe('The single value of the number, date and semver operators, or the RE2 pattern of REGEX (absent when none was given)'),
  caseInsensitive: z.boolean().describe('Whether the string operators and REGEX ignore case'),
  inverted: z.boolean().describe('A true result becomes false and the other way round'),
};

export const Constraint = named('Constraint', z.object(constraintFields), 'A condition on one context field');

export const FeatureVariantPayload = named('FeatureVariantPayload', z.object({
  type: z.enum(['json', 'csv', 'string', 'number']),
  value: z.string().describe('The payload as text (JSON text for `json`)'),
}));

const variantFields = {
  name: z.string(),
  weight: z.number().int().min(0).max(1000).describe('Share of 1000; `variable` weights are shared out so that all add up to 1000'),
  weightType: z.enum(['variable', 'fix']),
  stickiness: z.string().describe('The context field that keeps a user on the same variant (`default`: userId, then sessionId, then random)'),
  payload: FeatureVariantPayload.optional(),
};

export const StrategyVariant = named('StrategyVariant', z.object(variantFields), 'A variant of a strategy');

export const Variant = named('Variant', z.object({
  ...variantFields,
  overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) }))
    .describe('Context values that always get this variant, whatever the weights'),
}), 'A variant of a feature in an environment');

// ---- features ------------------------------------------------------------------------------------------------------

export const FeatureStrategy = named('FeatureStrategy', z.object({
  id: z.string().describe('uuid'),
  name: z.string().describe('The strategy type'),
  title: z.string().nullable(),
  disabled: z.boolean().describe('A disabled strategy is not evaluated and not sent to SDKs'),
  featureName: z.string(),
  sortOrder: z.number().int(),
  segments: z.array(z.number().int()).describe('Ids of the segments it uses'),
  constraints: z.array(Constraint),
  variants: z.array(StrategyVariant),
  parameters: z.record(z.string(), z.string()),
}), 'A strategy of a feature in an environment');

const environmentFields = {
  name: z.string().describe('The environment'),
  featureName: z.string(),
  environment: z.string().describe('The environment (again, as Unleash sends it)'),
  type: z.string().describe('The environment type'),
  enabled: z.boolean().describe('Whether the feature is on in this environment'),
  sortOrder: z.number().int(),
  variantCount: z.number().int(),
  variants: z.array(Variant),
  lastSeenAt: timestamp.nullable().describe('When an SDK last reported metrics for the feature here'),
  hasStrategies: z.boolean(),
  hasEnabledStrategies: z.boolean(),
};

export const FeatureEnvironment = named('FeatureEnvironment', z.object({ ...environmentFields, strategies: z.array(FeatureStrategy) }),
  'A feature in one environment, with its strategies');

export const FeatureDependency = named('FeatureDependency', z.object({
  feature: z.string().describe('The parent feature'),
  enabled: z.boolean().describe('Whether the parent must be on (true) or off (false)'),
  variants: z.array(z.string()).optional().describe('Variants the parent must resolve to (absent: any)'),
}), 'A parent the feature depends on');

const summaryFields = {
  name: z.string(),
  type: z.string().describe('The feature type (release, experiment, operational, kill-switch, permission, …)'),
  description: z.string().nullable(),
  project: z.string(),
  stale: z.boolean(),
  impressionData: z.boolean(),
  createdAt: timestamp,
  archivedAt: timestamp.nullable(),
  archived: z.boolean(),
  lastSeenAt: timestamp.nullable().describe('Deprecated: use the environments’ lastSeenAt'),
  favorite: z.boolean(),
};

/** The fields every feature answer starts with (the state export's and application's lists carry exactly these). */
export const FeatureSummary = z.object(summaryFields);

export const Feature = named('Feature', z.object({
  ...summaryFields,
  enabled: z.boolean().describe('On in at least one environment'),
  environments: z.array(FeatureEnvironment),
  variants: z.array(Variant).describe('Deprecated: the variants of the first environment that has any'),
  tags: z.array(Tag),
  children: z.array(z.string()).describe('Features that depend on this one'),
  dependencies: z.array(FeatureDependency),
}), 'A feature with its environments, strategies, variants, tags and dependencies');

/** A feature's environment in the project overview (the feature list and the health report). */
export const FeatureOverviewEnvironment = named('FeatureOverviewEnvironment', z.object({
  name: z.string(),
  enabled: z.boolean().describe('Whether the feature is on in this environment'),
  type: z.string().describe('The environment type'),
  sortOrder: z.number().int(),
  variantCount: z.number().int(),
  lastSeenAt: timestamp.nullable().describe('When an SDK last reported metrics for the feature here'),
  hasStrategies: z.boolean(),
  hasEnabledStrategies: z.boolean(),
}), 'A feature in one environment of the project overview, without strategies');

const overviewFields = {
  type: z.string().describe('The feature type'),
  description: z.string().nullable(),
  name: z.string(),
  createdAt: timestamp,
  lastSeenAt: timestamp.nullable().describe('Deprecated: use the environments’ lastSeenAt'),
  stale: z.boolean(),
  impressionData: z.boolean(),
  environments: z.array(FeatureOverviewEnvironment).describe('Every switched-on environment of the project, by sort order then name'),
  tags: z.array(Tag).optional().describe('Only when the feature has tags'),
};

export const FeatureListItem = named('FeatureListItem', z.object({
  ...overviewFields,
  favorite: z.boolean(),
}), 'A non-archived feature of a project list, as the project overview shows it');

/** A feature of the health report: the list's item without `favorite`. */
export const HealthReportFeature = named('HealthReportFeature', z.object(overviewFields), 'A non-archived feature of the project');

export const FeatureArchived = named('FeatureArchived', z.object({
  ...summaryFields,
  environments: z.array(z.object({ name: z.string(), lastSeenAt: timestamp, enabled: z.literal(false) }))
    .describe('The environments where SDKs last saw the feature'),
}), 'An archived feature');

export const FeatureType = named('FeatureType', z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  lifetimeDays: z.number().int().nullable().describe('Days after which a feature of this type counts as potentially stale (null: never)'),
}));

export const FeatureVariants = z.object({ version: z.literal(1), variants: z.array(Variant) });

// ---- events --------------------------------------------------------------------------------------------------------

export const Event = named('Event', z.object({
  id: z.number().int().min(1).describe('Increases with every event'),
  type: z.string().describe('The event type (feature-created, feature-strategy-add, …)'),
  createdAt: timestamp,
  createdBy: z.string().describe('Who made the change (user name or email, or the API token’s name)'),
  createdByUserId: z.number().int().nullable(),
  project: z.string().nullable(),
  environment: z.string().nullable(),
  featureName: z.string().nullable(),
  data: z.unknown().describe('The subject after the change (its shape depends on the type), or null'),
  preData: z.unknown().describe('The subject before the change, or null'),
  tags: z.array(Tag).describe('The feature’s tags at the time of the event'),
}), 'An audit log entry');

// ---- playground ----------------------------------------------------------------------------------------------------

export const PlaygroundConstraint = named('PlaygroundConstraint', z.object({ ...constraintFields, result: z.boolean() }),
  'A constraint and whether the context passed it');

export const PlaygroundVariant = named('PlaygroundVariant', z.object({
  name: z.string().describe('`disabled` when the feature is off or has no variants'),
  enabled: z.boolean(),
  payload: FeatureVariantPayload.optional(),
}), 'The variant the context gets');

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

export const PlaygroundStrategy = named('PlaygroundStrategy', z.object({
  name: z.string(),
  id: z.string(),
  title: z.string().optional().describe('Present when the strategy has a title'),
  disabled: z.boolean(),
  parameters: z.record(z.string(), z.string()),
  result: PlaygroundStrategyResult,
  constraints: z.array(PlaygroundConstraint),
  segments: z.array(z.object({ id: z.number().int(), name: z.string(), result: z.boolean(), constraints: z.array(PlaygroundConstraint) })),
  links: z.object({ edit: z.string().describe('The strategy’s page in the admin UI') }),
}), 'One strategy and how the context fared');

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

export const PlaygroundFeature = named('PlaygroundFeature', z.object(playgroundFeatureFields), 'A feature evaluated against the context');

/** The request as sent, echoed back (unknown properties included). */
const playgroundInput = z.record(z.string(), z.unknown()).describe('The request body as sent');

export const PlaygroundResult = named('PlaygroundResult', z.object({ input: playgroundInput, features: z.array(PlaygroundFeature) }));

export const PlaygroundAdvancedEntry = named('PlaygroundAdvancedEntry', z.object({
  ...playgroundFeatureFields,
  environment: z.string(),
  context: z.record(z.string(), z.unknown()).describe('The combination of context values evaluated (properties flattened)'),
}), 'A feature evaluated in one environment against one combination of context values');

export const AdvancedPlaygroundResult = named('AdvancedPlaygroundResult', z.object({
  input: playgroundInput,
  features: z.array(z.object({
    name: z.string(),
    projectId: z.string(),
    environments: z.record(z.string(), z.array(PlaygroundAdvancedEntry)).describe('By environment name: one entry per combination of context values'),
  })),
}));
