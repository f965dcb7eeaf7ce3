import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { FeatureState, SegmentState } from './feature-state';

/**
 * Versions of flags and segments (migration 0024), written only at commit by `model_version_advance()` (migration 0025)
 * and read with SQL by history.read-model.ts. Revisions are int8 and transaction ids xid8, both read as text (as
 * revision-log.entity.ts).
 */
export const FeatureVersionSchema = defineEntity({
  name: 'FeatureVersion',
  tableName: 'feature_versions',
  properties: {
    featureName: p.text().primary(),
    version: p.integer().primary().autoincrement(false),
    revision: p.bigint('string'),
    committedAt: p.datetime(),
    txid: p.string().columnType('xid8').runtimeType('string'),
    /** Null: the flag was deleted. */
    state: p.json<FeatureState>().nullable(),
  },
});
export type FeatureVersionRow = InferEntity<typeof FeatureVersionSchema>;

export const SegmentVersionSchema = defineEntity({
  name: 'SegmentVersion',
  tableName: 'segment_versions',
  properties: {
    segmentId: p.integer().primary().autoincrement(false),
    version: p.integer().primary().autoincrement(false),
    revision: p.bigint('string'),
    committedAt: p.datetime(),
    txid: p.string().columnType('xid8').runtimeType('string'),
    state: p.json<SegmentState>().nullable(),
  },
});
export type SegmentVersionRow = InferEntity<typeof SegmentVersionSchema>;

/** The earliest instant versions describe (one row, id 1; none: every instant). */
export const HistoryHorizonSchema = defineEntity({
  name: 'HistoryHorizon',
  tableName: 'history_horizon',
  properties: {
    id: p.integer().primary().autoincrement(false),
    since: p.datetime(),
  },
});
export type HistoryHorizonRow = InferEntity<typeof HistoryHorizonSchema>;
