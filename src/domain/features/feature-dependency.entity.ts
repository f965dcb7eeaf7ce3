import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A child feature's dependency on its parent (migration 0001): the parent enabled or not, and which of its variants. */
export const FeatureDependencySchema = defineEntity({
  name: 'FeatureDependency',
  tableName: 'feature_dependencies',
  properties: {
    parent: p.text().primary(),
    child: p.text().primary(),
    enabled: p.boolean().default(true),
    variants: p.json<string[]>().default('[]'),
  },
});
export type FeatureDependencyRow = InferEntity<typeof FeatureDependencySchema>;
