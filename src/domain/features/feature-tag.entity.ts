import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The tags a feature carries (migration 0001). */
export const FeatureTagSchema = defineEntity({
  name: 'FeatureTag',
  tableName: 'feature_tags',
  properties: {
    featureName: p.text().primary(),
    tagType: p.text().primary(),
    tagValue: p.text().primary(),
    createdAt: p.datetime().defaultRaw('now()'),
    createdByUserId: p.integer().nullable(),
  },
});
export type FeatureTagRow = InferEntity<typeof FeatureTagSchema>;
