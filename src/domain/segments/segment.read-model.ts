import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import { normalizeConstraint } from '../features/constraints';
import type { Constraint } from '../features/constraint.shapes';
import { SEGMENT_SELECT, type SegmentRow, type SegmentStrategy } from './segment.entity';

export type { SegmentStrategy } from './segment.entity';

/** The reads of segments and the mapping of their rows into the `Segment` both doors return. */

/** A segment as both doors return it. */
export interface Segment {
  id: number;
  name: string;
  /** Null when none was given. */
  description: string | null;
  /** Null for a global segment, usable by strategies of every project. */
  project: string | null;
  constraints: Constraint[];
  createdBy: string | null;
  createdAt: string;
  /** Distinct features (archived included) whose strategies use the segment. */
  usedInFeatures: number;
  /** Distinct projects whose strategies use the segment. */
  usedInProjects: number;
}

/** A segment row as both doors (and the state export) return it. */
export const toSegment = (r: SegmentRow): Segment => ({
  id: r.id,
  name: r.name,
  description: r.description ?? null,
  project: r.project ?? null,
  // jsonb does not keep key order: re-normalizing gives every read the same shape as a fresh write.
  constraints: (r.constraints ?? []).map(normalizeConstraint),
  createdBy: r.created_by ?? null,
  createdAt: iso(r.created_at),
  usedInFeatures: r.used_in_features,
  usedInProjects: r.used_in_projects,
});

/** Every segment, by id, with its usage counts. */
export async function listSegments(em: EntityManager): Promise<Segment[]> {
  const rows: SegmentRow[] = await em.execute(`${SEGMENT_SELECT} order by s.id`);
  return rows.map(toSegment);
}

/** The segments of the given ids (integers) that exist, in one query. */
export async function segmentsByIds(em: EntityManager, ids: number[]): Promise<Map<number, Segment>> {
  const rows: SegmentRow[] = await em.execute(`${SEGMENT_SELECT} where s.id in (?)`, [ids]);
  return new Map(rows.map((r) => [r.id, toSegment(r)]));
}

/** Whether a segment has the name (names are unique across all segments). */
export async function segmentNameTaken(em: EntityManager, name: string): Promise<boolean> {
  const rows: unknown[] = await em.execute('select 1 from segments where name = ? limit 1', [name]);
  return rows.length > 0;
}

/**
 * The strategies that use a segment, by feature, environment and sort order, in one query; undefined when there is no
 * segment of that id.
 */
export async function strategiesUsingSegment(em: EntityManager, segmentId: number): Promise<SegmentStrategy[] | undefined> {
  const rows: Array<{ id: string | null; feature_name: string; project: string; environment: string; strategy_name: string }> =
    await em.execute(
      `select fs.id, fs.feature_name, fs.project, fs.environment, fs.strategy_name
         from segments s
         left join feature_strategy_segments fss on fss.segment_id = s.id
         left join feature_strategies fs on fs.id = fss.feature_strategy_id
        where s.id = ?
        order by fs.feature_name, fs.environment, fs.sort_order, fs.created_at, fs.id`,
      [segmentId],
    );
  if (rows.length === 0) return undefined;
  return rows.filter((r) => r.id !== null).map((r) => ({
    id: r.id as string, featureName: r.feature_name, projectId: r.project, environment: r.environment, strategyName: r.strategy_name,
  }));
}
