import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import { isPotentiallyStale } from './staleness';

/** Every active flag as a search over all of them needs it (the Flags page, the command palette): one row each. */
export interface FeatureIndexEntry {
  name: string;
  project: string;
  type: string;
  description: string | null;
  stale: boolean;
  potentiallyStale: boolean;
  /** On in at least one of its project's environments that are switched on (as `Feature.enabled`). */
  enabled: boolean;
  createdAt: string;
  lastSeenAt: string | null;
  tags: Array<{ type: string; value: string }>;
  /** Its lifecycle stage (`pre-live` as the service writes it). */
  stage: string;
}

interface Row {
  name: string; project: string; type: string; description: string | null; stale: boolean; created_at: Date; last_seen_at: Date | null;
  lifetime_days: number | null; enabled: boolean; tags: Array<{ type: string; value: string }>; stage: string;
}

/**
 * Every active flag, by name, in one statement of hash joins (tags, switches and lifecycle stages grouped once for all
 * flags, not looked up per flag): 10,000 flags are one request, where pages of the feature list with their loaders took
 * ten. `now` decides "potentially stale" as the health report does.
 */
export async function featureIndex(em: EntityManager, now: number): Promise<FeatureIndexEntry[]> {
  const rows: Row[] = await em.execute(
    `select f.name, f.project, f.type, f.description, f.stale, f.created_at, f.last_seen_at, ft.lifetime_days,
            on_.feature_name is not null as enabled, coalesce(t.tags, '[]'::json) as tags,
            case coalesce(l.rank, 0) when 3 then 'completed' when 2 then 'live' when 1 then 'pre-live' else 'initial' end as stage
       from features f
       left join feature_types ft on ft.id = f.type
       left join (select distinct fe.feature_name from feature_environments fe
                    join features x on x.name = fe.feature_name
                    join project_environments pe on pe.project_id = x.project and pe.environment_name = fe.environment
                    join environments e on e.name = fe.environment and e.enabled
                   where fe.enabled) on_ on on_.feature_name = f.name
       left join (select feature_name, json_agg(json_build_object('type', tag_type, 'value', tag_value) order by tag_type, tag_value) as tags
                    from feature_tags group by feature_name) t on t.feature_name = f.name
       left join (select feature_name, max(array_position(array['pre-live', 'live', 'completed'], stage)) as rank
                    from feature_lifecycles group by feature_name) l on l.feature_name = f.name
      where f.archived_at is null
      order by f.name`);
  return rows.map((r) => ({
    name: r.name, project: r.project, type: r.type, description: r.description, stale: r.stale,
    potentiallyStale: isPotentiallyStale(r.stale, new Date(r.created_at).getTime(), r.lifetime_days, now),
    enabled: r.enabled, createdAt: iso(r.created_at), lastSeenAt: isoOrNull(r.last_seen_at), tags: r.tags, stage: r.stage,
  }));
}
