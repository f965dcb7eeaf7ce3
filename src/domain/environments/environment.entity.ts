import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const EnvironmentSchema = defineEntity({
  name: 'Environment',
  tableName: 'environments',
  properties: {
    name: p.text().primary(),
    type: p.text(),
    sortOrder: p.integer().default(0),
    enabled: p.boolean().default(true),
    protected: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export type EnvironmentRow = InferEntity<typeof EnvironmentSchema>;
