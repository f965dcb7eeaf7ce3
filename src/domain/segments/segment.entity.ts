import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Constraint } from '../features/constraint.shapes';

/**
 * The `segments` table (migration 0001); its link table `feature_strategy_segments` has its entity in
 * features/feature-strategy.entity.ts. A segment is a named, reusable list of constraints; feature strategies
 * reference segments by id. SegmentService reads and writes both tables with SQL through the request's EntityManager
 * (or the transaction's); segment.read-model.ts has the select every read of a segment uses.
 */
export const SegmentSchema = defineEntity({
  name: 'Segment',
  tableName: 'segments',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    description: p.text().nullable(),
    project: p.text().nullable(),
    constraints: p.json<Constraint[]>().default('[]'),
    createdBy: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type SegmentRow = InferEntity<typeof SegmentSchema>;
