import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Addons (migration 0011): `parameters` as given (sensitive ones too: every read masks them); `events`, `projects` and
 * `environments` are lists of names (an empty list of projects or environments means all of them).
 */
export const AddonSchema = defineEntity({
  name: 'Addon',
  tableName: 'addons',
  properties: {
    id: p.integer().primary(),
    provider: p.text(),
    description: p.text().nullable(),
    enabled: p.boolean().default(true),
    parameters: p.json<Record<string, string | number | boolean>>().default('{}'),
    events: p.json<string[]>().default('[]'),
    projects: p.json<string[]>().default('[]'),
    environments: p.json<string[]>().default('[]'),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type AddonRow = InferEntity<typeof AddonSchema>;
