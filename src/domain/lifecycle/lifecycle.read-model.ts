import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { CompletedStatus, LifecycleSource, LifecycleStageName } from './lifecycle.shapes';

interface Row {
  name: string;
  created_at: Date;
  archived_at: Date | null;
  last_seen_at: Date | null;
  stale: boolean;
  lifetime_days: number | null;
  stage: LifecycleStageName | null;
  status: CompletedStatus | null;
  status_value: string | null;
  entered_at: Date | null;
}

/** What the lifecycles of the named flags are made of (their rows and recorded stages), in one query; absent flags are left out. */
export async function lifecycleSources(em: EntityManager, names: readonly string[]): Promise<Map<string, LifecycleSource>> {
  const out = new Map<string, LifecycleSource>();
  if (names.length === 0) return out;
  const rows: Row[] = await em.execute(
    `select f.name, f.created_at, f.archived_at, f.last_seen_at, f.stale, ft.lifetime_days, l.stage, l.status, l.status_value, l.entered_at
       from features f left join feature_types ft on ft.id = f.type left join feature_lifecycles l on l.feature_name = f.name
      where f.name in (?)`, [[...new Set(names)]]);
  for (const r of rows) {
    let source = out.get(r.name);
    if (!source) out.set(r.name, (source = {
      createdAt: iso(r.created_at), archivedAt: isoOrNull(r.archived_at), lastSeenAt: isoOrNull(r.last_seen_at), stale: r.stale,
      lifetimeDays: r.lifetime_days, recorded: [],
    }));
    if (r.stage !== null && r.entered_at !== null) source.recorded.push({ stage: r.stage, enteredAt: iso(r.entered_at), status: r.status, statusValue: r.status_value });
  }
  return out;
}

/** How many of a project's flags are in each stage, and how many discarded ones SDKs still report. */
export interface LifecycleCounts {
  initial: number;
  preLive: number;
  live: number;
  completed: number;
  archived: number;
  discardedWithTraffic: number;
}

export async function projectLifecycleCounts(em: EntityManager, project: string): Promise<LifecycleCounts> {
  const [row]: Array<Record<keyof LifecycleCounts, number>> = await em.execute(
    `select count(*) filter (where x.stage = 'initial')::int as "initial", count(*) filter (where x.stage = 'pre-live')::int as "preLive",
            count(*) filter (where x.stage = 'live')::int as "live", count(*) filter (where x.stage = 'completed')::int as "completed",
            count(*) filter (where x.stage = 'archived')::int as "archived", count(*) filter (where x.traffic)::int as "discardedWithTraffic"
       from (select case when f.archived_at is not null then 'archived' else coalesce(l.stage, 'initial') end as stage,
                    c.status = 'discarded' and f.last_seen_at > c.entered_at as traffic
               from features f
               left join lateral (select l.stage from feature_lifecycles l where l.feature_name = f.name
                                   order by array_position(array['pre-live', 'live', 'completed'], l.stage) desc limit 1) l on true
               left join feature_lifecycles c on c.feature_name = f.name and c.stage = 'completed'
              where f.project = ?) x`, [project]);
  return row;
}
