import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The lifecycle stages a flag entered after `initial` (migration 0027); `archived` is the flag's own archived_at. */
export const FeatureLifecycleSchema = defineEntity({
  name: 'FeatureLifecycle',
  tableName: 'feature_lifecycles',
  properties: {
    featureName: p.text().primary(),
    stage: p.enum(['pre-live', 'live', 'completed']).primary(),
    status: p.text().nullable(),
    statusValue: p.text().nullable(),
    enteredAt: p.datetime().defaultRaw('now()'),
  },
});
export type FeatureLifecycleRow = InferEntity<typeof FeatureLifecycleSchema>;
