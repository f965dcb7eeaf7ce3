import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Constraint } from './constraint.shapes';
import type { StrategyVariant } from './variant.shapes';

/** A feature's strategies in an environment (migration 0001); `project` is the feature's, kept for triggers and reads. */
export const FeatureStrategySchema = defineEntity({
  name: 'FeatureStrategy',
  tableName: 'feature_strategies',
  properties: {
    id: p.uuid().primary(),
    featureName: p.text(),
    project: p.text(),
    environment: p.text(),
    strategyName: p.text(),
    title: p.text().nullable(),
    parameters: p.json<Record<string, string>>().default('{}'),
    constraints: p.json<Constraint[]>().default('[]'),
    variants: p.json<StrategyVariant[]>().default('[]'),
    sortOrder: p.integer().default(0),
    disabled: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type FeatureStrategyRow = InferEntity<typeof FeatureStrategySchema>;

/** The segments a strategy uses (migration 0001). */
export const FeatureStrategySegmentSchema = defineEntity({
  name: 'FeatureStrategySegment',
  tableName: 'feature_strategy_segments',
  properties: {
    featureStrategyId: p.uuid().primary(),
    segmentId: p.integer().primary(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type FeatureStrategySegmentRow = InferEntity<typeof FeatureStrategySegmentSchema>;
