import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The counters caches compare (one row each, id 1), moved by triggers: `model_version` (migration 0004) by every change
 * of what evaluations and SDK answers show, `last_seen_version` (0019) when SDK metrics record `last_seen_at`. The
 * versions are int8, read as text: node-postgres returns int8 as a string (no type parser is set for it), and so does
 * a raw select, which TableRow describes.
 */
export const ModelVersionSchema = defineEntity({
  name: 'ModelVersion',
  tableName: 'model_version',
  properties: {
    id: p.integer().primary().autoincrement(false),
    version: p.bigint('string'),
  },
});
export type ModelVersionRow = InferEntity<typeof ModelVersionSchema>;

export const LastSeenVersionSchema = defineEntity({
  name: 'LastSeenVersion',
  tableName: 'last_seen_version',
  properties: {
    id: p.integer().primary().autoincrement(false),
    version: p.bigint('string'),
  },
});
export type LastSeenVersionRow = InferEntity<typeof LastSeenVersionSchema>;
