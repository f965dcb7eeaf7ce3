import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { FeatureVariant } from './variant.shapes';

/** A feature's configuration in one environment (migration 0001): switched on or off, and its variants. */
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
