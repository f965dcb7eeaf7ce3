import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors';
import type { FeatureNaming, ProjectMode } from './project.service';

/**
 * The project health report (spec endpoint 10, design D5): everything is computed live on each request, with
 * a fixed number of SQL queries whatever the number of projects, features, environments or strategies.
 *
 * Definitions (reference §2 endpoint 10), over the project's non-archived features:
 * - staleCount: stale features; activeCount: non-stale features;
 * - potentiallyStaleCount: non-stale features whose type has a lifetime and that are at least that many days
 *   (× 24 h) old: release/experiment 40, operational 7, kill-switch and permission never;
 * - health = round(100 − 100·stale/total − 100·potentiallyStale/total), 100 without features. Unleash stores
 *   it and refreshes it hourly; here it is computed from the same counts as above on each request.
 * - stats: current window = the last 30 days (t ≥ now − 30 d), past window = now − 60 d ≤ t < now − 30 d;
 *   created* counts non-archived features by created_at, archived* archived ones by archived_at,
 *   projectActivity* events of the project by created_at; avgTimeToProd is over every release feature of the
 *   project (archived ones included, not limited to 30 days): whole days from creation to its first
 *   feature-environment-enabled event in a production-type environment after creation, averaged, 1 decimal.
 * - members and projectMembersAddedCurrentWindow are 0: there are no project roles yet.
 * Environments switched off (D6) are left out of both environment lists, as from the project's own listing.
 */

export interface HealthReportFeatureEnvironment {
  name: string;
  enabled: boolean;
  type: string;
  sortOrder: number;
  variantCount: number;
  lastSeenAt: string | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
}

export interface HealthReportFeature {
  type: string;
  description: string | null;
  name: string;
  createdAt: string;
  stale: boolean;
  impressionData: boolean;
  lastSeenAt: string | null;
  environments: HealthReportFeatureEnvironment[];
  /** Empty when the feature has none (REST then leaves the property out, as Unleash does). */
  tags: Array<{ value: string; type: string }>;
}

export interface HealthReportEnvironment {
  environment: string;
  changeRequestsEnabled: boolean;
  /** Null when the project uses the built-in default (REST then leaves the property out). */
  defaultStrategy: Record<string, unknown> | null;
}

export interface ProjectStats {
  avgTimeToProdCurrentWindow: number;
  createdCurrentWindow: number;
  createdPastWindow: number;
  archivedCurrentWindow: number;
  archivedPastWindow: number;
  projectActivityCurrentWindow: number;
  projectActivityPastWindow: number;
  projectMembersAddedCurrentWindow: number;
}

/** The report without REST's envelope (`version`, `favorite`). */
export interface ProjectHealthReport {
  id: string;
  name: string;
  description: string | null;
  defaultStickiness: string;
  mode: ProjectMode;
  featureLimit: number | null;
  members: number;
  health: number;
  environments: HealthReportEnvironment[];
  features: HealthReportFeature[];
  updatedAt: string | null;
  createdAt: string;
  stats: ProjectStats;
  featureNaming: FeatureNaming;
  potentiallyStaleCount: number;
  activeCount: number;
  staleCount: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

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

interface ProjectDbRow {
  id: string; name: string; description: string | null; mode: string; default_stickiness: string; feature_limit: number | null;
  feature_naming_pattern: string | null; feature_naming_example: string | null; feature_naming_description: string | null;
  created_at: Date; updated_at: Date | null;
  environments: Array<{ environment: string; defaultStrategy: Record<string, unknown> | null; changeRequestsEnabled: boolean; type: string; sortOrder: number }>;
  created_current: number; created_past: number; archived_current: number; archived_past: number;
  activity_current: number; activity_past: number; avg_days: number | null;
}
interface FeatureDbRow {
  project: string; name: string; type: string; description: string | null; created_at: Date; stale: boolean;
  impression_data: boolean; last_seen_at: Date | null; lifetime_days: number | null;
}
interface FeatureEnvironmentDbRow {
  feature_name: string; environment: string; enabled: boolean; variant_count: number;
  last_seen_at: Date | null; has_strategies: boolean; has_enabled_strategies: boolean;
}

export class HealthReportService {
  constructor(private readonly em: EntityManager) {}

  /** One project's report; 404 NotFoundError "No project found" for an unknown id. Needs no permission. */
  async healthReport(projectId: string): Promise<ProjectHealthReport> {
    const [report] = await this.healthReports([projectId]);
    if (!report) throw new NotFoundError('No project found');
    return report;
  }

  /**
   * Reports of several projects (the GraphQL dataloader's batch), in the order asked; unknown ids are left out.
   * Four queries in all, whatever the number of projects and features.
   */
  async healthReports(projectIds: readonly string[], now = new Date()): Promise<ProjectHealthReport[]> {
    const ids = [...new Set(projectIds)];
    if (ids.length === 0) return [];
    const current = new Date(now.getTime() - 30 * DAY_MS).toISOString();
    const past = new Date(now.getTime() - 60 * DAY_MS).toISOString();

    // Four statements, run concurrently (on the embedded single-connection database the pool queues them).
    const [projects, features, featureEnvironments, tags] = await Promise.all([
      // The project with its switched-on environments and every stats window.
      this.em.execute<ProjectDbRow[]>(
        `select p.id, p.name, p.description, p.mode, p.default_stickiness, p.feature_limit, p.feature_naming_pattern,
                p.feature_naming_example, p.feature_naming_description, p.created_at, p.updated_at,
                (select coalesce(json_agg(json_build_object('environment', pe.environment_name, 'defaultStrategy', pe.default_strategy, 'changeRequestsEnabled', pe.change_requests_enabled,
                                                            'type', e.type, 'sortOrder', e.sort_order) order by e.sort_order, e.name), '[]')
                   from project_environments pe join environments e on e.name = pe.environment_name and e.enabled
                  where pe.project_id = p.id) as environments,
                fs.created_current, fs.created_past, fs.archived_current, fs.archived_past,
                es.activity_current, es.activity_past, ttp.avg_days
           from projects p
           cross join lateral (
             select count(*) filter (where archived_at is null and created_at >= ?::timestamptz)::int as created_current,
                    count(*) filter (where archived_at is null and created_at >= ?::timestamptz and created_at < ?::timestamptz)::int as created_past,
                    count(*) filter (where archived_at >= ?::timestamptz)::int as archived_current,
                    count(*) filter (where archived_at >= ?::timestamptz and archived_at < ?::timestamptz)::int as archived_past
               from features where project = p.id) fs
           cross join lateral (
             select count(*) filter (where created_at >= ?::timestamptz)::int as activity_current,
                    count(*) filter (where created_at < ?::timestamptz)::int as activity_past
               from events where project = p.id and created_at >= ?::timestamptz) es
           -- The first enable of each release feature in a production-type environment after its creation (index
           -- events_enabled_feature_idx, migration 0002), in whole days, averaged to 1 decimal.
           cross join lateral (
             select round(avg(floor(extract(epoch from (first_enabled.at - f.created_at)) / 86400)::numeric), 1)::float8 as avg_days
               from features f
               cross join lateral (select min(ev.created_at) as at
                                     from events ev join environments e on e.name = ev.environment and e.type = 'production'
                                    where ev.feature_name = f.name and ev.type = 'feature-environment-enabled'
                                      and ev.created_at > f.created_at) first_enabled
              where f.project = p.id and f.type = 'release' and first_enabled.at is not null) ttp
          where p.id in (?)`,
        [current, past, current, current, past, current, current, current, past, ids]),
      this.em.execute<FeatureDbRow[]>(
        `select f.project, f.name, f.type, f.description, f.created_at, f.stale, f.impression_data, f.last_seen_at, ft.lifetime_days
           from features f left join feature_types ft on ft.id = f.type
          where f.project in (?) and f.archived_at is null order by f.name`, [ids]),
      // The features' environment configurations, with their strategies counted in SQL (through the
      // (feature_name, environment) index: the cost follows the project's size, not the table's). Which
      // environments are listed, and in what order, comes from the project's environments above.
      this.em.execute<FeatureEnvironmentDbRow[]>(
        `select fe.feature_name, fe.environment, fe.enabled, fe.last_seen_at,
                case when jsonb_typeof(fe.variants) = 'array' then jsonb_array_length(fe.variants) else 0 end as variant_count,
                s.strategies > 0 as has_strategies, coalesce(s.enabled_strategies, false) as has_enabled_strategies
           from features f
           join feature_environments fe on fe.feature_name = f.name
           cross join lateral (select count(*) as strategies, bool_or(not fs.disabled) as enabled_strategies
                                 from feature_strategies fs where fs.feature_name = fe.feature_name and fs.environment = fe.environment) s
          where f.project in (?) and f.archived_at is null`, [ids]),
      this.em.execute<Array<{ feature_name: string; tag_type: string; tag_value: string }>>(
        `select t.feature_name, t.tag_type, t.tag_value
           from feature_tags t join features f on f.name = t.feature_name
          where f.project in (?) and f.archived_at is null order by t.feature_name, t.tag_type, t.tag_value`, [ids]),
    ]);

    const configuration = new Map(featureEnvironments.map((r) => [`${r.feature_name}\u0000${r.environment}`, r]));
    const tagsByFeature = group(tags, (r) => r.feature_name);
    const featuresByProject = group(features, (r) => r.project);
    const byId = new Map(projects.map((p) => [p.id, p]));

    const reports: ProjectHealthReport[] = [];
    for (const id of ids) {
      const p = byId.get(id);
      if (!p) continue;
      let stale = 0;
      let active = 0;
      let potentiallyStale = 0;
      const reportFeatures = (featuresByProject.get(id) ?? []).map((f): HealthReportFeature => {
        if (f.stale) stale++;
        else {
          active++;
          if (f.lifetime_days !== null && now.getTime() - new Date(f.created_at).getTime() >= f.lifetime_days * DAY_MS) potentiallyStale++;
        }
        return {
          type: f.type,
          description: f.description,
          name: f.name,
          createdAt: iso(f.created_at)!,
          stale: f.stale,
          impressionData: f.impression_data,
          lastSeenAt: iso(f.last_seen_at),
          // Every switched-on environment of the project, by sort order then name; one without a configuration
          // row (which the feature service always writes) reads as disabled and empty.
          environments: p.environments.map((e) => {
            const c = configuration.get(`${f.name}\u0000${e.environment}`);
            return {
              name: e.environment,
              enabled: c?.enabled ?? false,
              type: e.type,
              sortOrder: e.sortOrder,
              variantCount: c?.variant_count ?? 0,
              lastSeenAt: iso(c?.last_seen_at ?? null),
              hasStrategies: c?.has_strategies ?? false,
              hasEnabledStrategies: c?.has_enabled_strategies ?? false,
            };
          }),
          tags: (tagsByFeature.get(f.name) ?? []).map((t) => ({ value: t.tag_value, type: t.tag_type })),
        };
      });
      reports.push({
        id,
        name: p.name,
        description: p.description,
        defaultStickiness: p.default_stickiness,
        mode: p.mode as ProjectMode,
        featureLimit: p.feature_limit,
        members: 0,
        health: healthRating(active, stale, potentiallyStale),
        environments: p.environments.map((l) => ({
          environment: l.environment,
          changeRequestsEnabled: l.changeRequestsEnabled,
          defaultStrategy: l.defaultStrategy ?? null,
        })),
        features: reportFeatures,
        updatedAt: iso(p.updated_at),
        createdAt: iso(p.created_at)!,
        stats: {
          avgTimeToProdCurrentWindow: p.avg_days ?? 0,
          createdCurrentWindow: p.created_current,
          createdPastWindow: p.created_past,
          archivedCurrentWindow: p.archived_current,
          archivedPastWindow: p.archived_past,
          projectActivityCurrentWindow: p.activity_current,
          projectActivityPastWindow: p.activity_past,
          projectMembersAddedCurrentWindow: 0,
        },
        featureNaming: { pattern: p.feature_naming_pattern, example: p.feature_naming_example, description: p.feature_naming_description },
        potentiallyStaleCount: potentiallyStale,
        activeCount: active,
        staleCount: stale,
      });
    }
    return reports;
  }
}

function group<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
