import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import type { HealthReportEnvironment } from './health-report.shapes';
import type { ProjectRow } from './project.entity';

/** The reads of the project health report (health-report.service.ts gives the definitions) and of projects' health. */

/** health = round(100 − 100·stale/total − 100·potentiallyStale/total); 100 when there are no features. */
export function healthRating(active: number, stale: number, potentiallyStale: number): number {
  const total = active + stale;
  if (total === 0) return 100;
  return Math.round(100 - (100 * stale) / total - (100 * potentiallyStale) / total);
}

/**
 * The health of several projects without building their reports: one grouped query applying the same definitions as
 * the report (stale; potentially stale = not stale and older than its type's lifetime × 24 h at `now`).
 */
export async function healthRatings(em: EntityManager, projectIds: readonly string[], now = new Date()): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows: Array<{ project: string; active: number; stale: number; potentially: number }> = await em.execute(
    `select f.project, count(*) filter (where not f.stale)::int as active, count(*) filter (where f.stale)::int as stale,
            count(*) filter (where not f.stale and ft.lifetime_days is not null
                               and f.created_at <= ?::timestamptz - ft.lifetime_days * interval '1 day')::int as potentially
       from features f left join feature_types ft on ft.id = f.type
      where f.archived_at is null and f.project in (?) group by f.project`, [now.toISOString(), projectIds as string[]]);
  return new Map(rows.map((r) => [r.project, healthRating(r.active, r.stale, r.potentially)]));
}

/** A project row as the report reads it: with its switched-on environments and its audit-log activity in both windows. */
export type ProjectReportRow = Pick<TableRow<ProjectRow>,
  'id' | 'name' | 'description' | 'mode' | 'default_stickiness' | 'feature_limit' | 'feature_naming_pattern' | 'feature_naming_example'
  | 'feature_naming_description' | 'created_at' | 'updated_at'> & {
  environments: HealthReportEnvironment[];
  activity_current: number; activity_past: number;
};

/**
 * The rows of the given projects (unknown ids have none), in one query; `current` and `past` (ISO times) start the
 * current and the past window.
 */
export function projectReportRows(em: EntityManager, ids: string[], current: string, past: string): Promise<ProjectReportRow[]> {
  return em.execute<ProjectReportRow[]>(
    `select p.id, p.name, p.description, p.mode, p.default_stickiness, p.feature_limit, p.feature_naming_pattern,
            p.feature_naming_example, p.feature_naming_description, p.created_at, p.updated_at,
            (select coalesce(json_agg(json_build_object('environment', pe.environment_name, 'defaultStrategy', pe.default_strategy, 'changeRequestsEnabled', pe.change_requests_enabled)
                                      order by e.sort_order, e.name), '[]')
               from project_environments pe join environments e on e.name = pe.environment_name and e.enabled
              where pe.project_id = p.id) as environments,
            (select count(*) from events where project = p.id and created_at >= ?::timestamptz)::int as activity_current,
            (select count(*) from events where project = p.id and created_at >= ?::timestamptz and created_at < ?::timestamptz)::int as activity_past
       from projects p
      where p.id in (?)`,
    [current, past, current, ids]);
}
