import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Feature rows (strategies, environments and the rest are read and written through the read model's SQL). */
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
