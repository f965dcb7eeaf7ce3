import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import { normalizeConstraint } from '../features/constraints';
import type { FeatureStrategyRow } from '../features/feature-strategy.entity';
import type { TableRow } from '../rows';
import { SegmentSchema, type SegmentRow } from './segment.entity';
import type { Segment, SegmentStrategy } from './segment.shapes';

/** The reads of segments and the mapping of their rows into the `Segment` both doors return. */

/** A row of `segments` as every read selects it (SEGMENT_SELECT), with the two usage counts every read computes. */
export type SegmentDbRow = Pick<TableRow<SegmentRow>, 'id' | 'name' | 'description' | 'project' | 'constraints' | 'created_by' | 'created_at'>
  & { used_in_features: number; used_in_projects: number };

/**
 * The select list of every segment read, in the order of `SegmentDbRow`, for `from segments s`. The usage counts
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

/** A segment row as both doors (and the state export) return it. */
export const toSegment = (r: SegmentDbRow): Segment => ({
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
  const rows: SegmentDbRow[] = await em.execute(`${SEGMENT_SELECT} order by s.id`);
  return rows.map(toSegment);
}

/** The segments of the given ids (integers) that exist, in one query. */
export async function segmentsByIds(em: EntityManager, ids: number[]): Promise<Map<number, Segment>> {
  const rows: SegmentDbRow[] = await em.execute(`${SEGMENT_SELECT} where s.id in (?)`, [ids]);
  return new Map(rows.map((r) => [r.id, toSegment(r)]));
}

/** Whether a segment has the name (names are unique across all segments). */
export async function segmentNameTaken(em: EntityManager, name: string): Promise<boolean> {
  return (await em.count(SegmentSchema, { name })) > 0;
}

/**
 * The strategies that use a segment, by feature, environment and sort order, in one query; undefined when there is no
 * segment of that id.
 */
export async function strategiesUsingSegment(em: EntityManager, segmentId: number): Promise<SegmentStrategy[] | undefined> {
  const rows: Array<Pick<TableRow<FeatureStrategyRow>, 'feature_name' | 'project' | 'environment' | 'strategy_name'> & { id: string | null }> =
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
