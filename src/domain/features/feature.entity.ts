import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Constraint } from './constraints';
import type { FeatureVariant, StrategyVariant } from './variants';

export const FeatureSchema = defineEntity({
  name: 'Feature',
  tableName: 'features',
  properties: {
    name: p.text().primary(),
    project: p.text(),
    type: p.text().default('release'),
    description: p.text().nullable(),
    stale: p.boolean().default(false),
    impressionData: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    archivedAt: p.datetime().nullable(),
    lastSeenAt: p.datetime().nullable(),
    createdByUserId: p.integer().nullable(),
  },
});
export type FeatureRow = InferEntity<typeof FeatureSchema>;

export const FeatureEnvironmentSchema = defineEntity({
  name: 'FeatureEnvironment',
  tableName: 'feature_environments',
  properties: {
    featureName: p.text().primary(),
    environment: p.text().primary(),
    enabled: p.boolean().default(false),
    variants: p.json<FeatureVariant[]>().default('[]'),
    lastSeenAt: p.datetime().nullable(),
  },
});
export type FeatureEnvironmentRow = InferEntity<typeof FeatureEnvironmentSchema>;

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
    parameters: p.json<Record<string, string>>(),
    constraints: p.json<Constraint[]>(),
    variants: p.json<StrategyVariant[]>(),
    sortOrder: p.integer().default(0),
    disabled: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export type FeatureStrategyRow = InferEntity<typeof FeatureStrategySchema>;

export const FeatureTypeSchema = defineEntity({
  name: 'FeatureType',
  tableName: 'feature_types',
  properties: {
    id: p.text().primary(),
    name: p.text(),
    description: p.text().nullable(),
    lifetimeDays: p.integer().nullable(),
  },
});
export type FeatureTypeRow = InferEntity<typeof FeatureTypeSchema>;
