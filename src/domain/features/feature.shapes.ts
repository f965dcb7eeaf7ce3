import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { Tag } from '../tags/tag.shapes';
import { Constraint } from './constraint.shapes';
import { StrategyVariant, Variant } from './variant.shapes';

/**
 * Features as both doors answer them, built by feature.read-model.ts: a feature's own properties, its environments
 * with their strategies, its dependencies, the archive's entries and the feature types (src/domain/shapes.ts says how
 * shapes are used).
 */

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
export type FeatureStrategy = z.output<typeof FeatureStrategy>;

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

/** A feature in one environment, without its strategies (those are loaded separately, per GraphQL selection). */
export const FeatureEnvironmentState = z.object(environmentFields);
export type FeatureEnvironmentState = z.output<typeof FeatureEnvironmentState>;

export const FeatureEnvironment = named('FeatureEnvironment', z.object({ ...environmentFields, strategies: z.array(FeatureStrategy) }),
  'A feature in one environment, with its strategies');
export type FeatureEnvironment = z.output<typeof FeatureEnvironment>;

export const FeatureDependency = named('FeatureDependency', z.object({
  feature: z.string().describe('The parent feature'),
  enabled: z.boolean().describe('Whether the parent must be on (true) or off (false)'),
  variants: z.array(z.string()).optional().describe('Variants the parent must resolve to (absent: any)'),
}), 'A parent the feature depends on');
export type FeatureDependency = z.output<typeof FeatureDependency>;

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

/**
 * A feature's own properties (its row), the fields every feature answer starts with (the state export's and
 * application's lists carry exactly these).
 */
export const FeatureSummary = z.object(summaryFields);
export type FeatureSummary = z.output<typeof FeatureSummary>;

/** The spec's Feature with everything nested (REST GET of one feature). */
export const Feature = named('Feature', z.object({
  ...summaryFields,
  enabled: z.boolean().describe('On in at least one environment'),
  environments: z.array(FeatureEnvironment),
  variants: z.array(Variant).describe('Deprecated: the variants of the first environment that has any'),
  tags: z.array(Tag),
  children: z.array(z.string()).describe('Features that depend on this one'),
  dependencies: z.array(FeatureDependency),
}), 'A feature with its environments, strategies, variants, tags and dependencies');
export type Feature = z.output<typeof Feature>;

/** An archived feature as the archive lists it: with the environments it was last seen in. */
export const FeatureArchived = named('FeatureArchived', z.object({
  ...summaryFields,
  environments: z.array(z.object({ name: z.string(), lastSeenAt: timestamp, enabled: z.literal(false) }))
    .describe('The environments where SDKs last saw the feature'),
}), 'An archived feature');
export type ArchivedFeature = z.output<typeof FeatureArchived>;

export const FeatureType = named('FeatureType', z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  lifetimeDays: z.number().int().nullable().describe('Days after which a feature of this type counts as potentially stale (null: never)'),
}));
export type FeatureType = z.output<typeof FeatureType>;
