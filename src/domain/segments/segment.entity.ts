import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Constraint } from '../features/constraint.shapes';

/**
 * The `segments` table (migration 0001) and its link table `feature_strategy_segments` (whose entity is in
 * features/feature-strategy.entity.ts). A segment is a named, reusable list of constraints; feature strategies
 * reference segments by id. SegmentService reads and writes both tables with SQL through the request's EntityManager
 * (or the transaction's).
 */

/** A row of `segments` with the two usage counts every read computes (jsonb parsed, timestamptz as Date). */
export interface SegmentRow {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[] | null;
  created_by: string | null;
  created_at: Date;
  used_in_features: number;
  used_in_projects: number;
}

/**
 * The select list of every segment read, in the order of `SegmentRow`, for `from segments s`. The usage counts
 * are the distinct features (archived ones included) and projects whose strategies reference the segment.
 */
export const SEGMENT_SELECT = `
  select s.id, s.name, s.description, s.project, s.constraints, s.created_by, s.created_at,
         coalesce(u.features, 0)::int as used_in_features, coalesce(u.projects, 0)::int as used_in_projects
    from segments s
    left join lateral (
      select count(distinct fs.feature_name) as features, count(distinct fs.project) as projects
        from feature_strategy_segments fss
        join feature_strategies fs on fs.id = fss.feature_strategy_id
       where fss.segment_id = s.id
    ) u on true`;

/** A strategy that uses a segment, as `GET /api/admin/segments/:id/strategies` lists it. */
export interface SegmentStrategy {
  id: string;
  featureName: string;
  projectId: string;
  environment: string;
  strategyName: string;
}

/** The table's columns (`SegmentRow` is the row every read selects, with its usage counts). */
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
export type SegmentEntity = InferEntity<typeof SegmentSchema>;
