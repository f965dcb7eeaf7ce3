import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENT_COLUMNS, toAuditEvent, type EventDbRow } from './event.store';
import type { AuditEvent } from './event.shapes';

/** The reads of the audit log (newest first) and of committed events by id. */

export interface EventFilter {
  type?: string;
  project?: string;
  feature?: string;
}

export interface EventPage {
  events: AuditEvent[];
  totalEvents: number;
  /** Present when older events remain: pass it as `before` to read the next page. */
  nextBefore: number | null;
}

/** What a caller reads of a page: GraphQL asks only for what is selected (REST always reads both). */
export interface EventParts {
  rows: boolean;
  count: boolean;
}

/** Where a page starts and how long it is: `limit` events after skipping `offset`, older than event `before`. */
export interface EventPageRange {
  limit: number;
  offset?: number;
  before?: number;
}

/** One page of the events matching `f`, newest first, and their total; the two statements run together. */
export async function readEventPage(em: EntityManager, f: EventFilter, q: EventPageRange, parts: EventParts): Promise<EventPage> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.type) { where.push('type = ?'); params.push(f.type); }
  if (f.project) { where.push('project = ?'); params.push(f.project); }
  if (f.feature) { where.push('feature_name = ?'); params.push(f.feature); }
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  const pageWhere = q.before ? `${filter ? `${filter} and` : 'where'} id < ?` : filter;
  const pageParams = q.before ? [...params, q.before] : params;
  const conn = em.getConnection();
  const [rows, count] = await Promise.all([
    parts.rows
      ? conn.execute(`select ${EVENT_COLUMNS} from events ${pageWhere} order by id desc limit ? offset ?`, [...pageParams, q.limit + 1, q.offset ?? 0])
      : [],
    parts.count
      ? conn.execute(`select count(*)::int as count from events ${filter}`, params).then((r) => (r[0] as { count: number }).count)
      : 0,
  ]);
  const more = rows.length > q.limit;
  const events = (rows as unknown as EventDbRow[]).slice(0, q.limit).map(toAuditEvent);
  return { events, totalEvents: count, nextBefore: more && events.length ? events[events.length - 1].id : null };
}

/** The newest `limit` events of each of several features and their totals, in two statements. */
export async function newestEventsOfFeatures(em: EntityManager, names: readonly string[], limit: number): Promise<Map<string, { events: AuditEvent[]; totalEvents: number }>> {
  const out = new Map<string, { events: AuditEvent[]; totalEvents: number }>(names.map((n) => [n, { events: [], totalEvents: 0 }]));
  if (names.length === 0) return out;
  const list = [...new Set(names)];
  const conn = em.getConnection();
  const [rows, counts] = await Promise.all([
    conn.execute(
      `select e.* from unnest(array[?]::text[]) as f(name)
         cross join lateral (select ${EVENT_COLUMNS} from events where feature_name = f.name order by id desc limit ?) e`,
      [list, limit]),
    conn.execute(`select feature_name, count(*)::int as count from events where feature_name in (?) group by feature_name`, [list]),
  ]);
  for (const r of rows as unknown as EventDbRow[]) out.get(r.feature_name as string)?.events.push(toAuditEvent(r));
  for (const c of counts as unknown as Array<{ feature_name: string; count: number }>) {
    const entry = out.get(c.feature_name);
    if (entry) entry.totalEvents = c.count;
  }
  return out;
}

/** The events of the given ids, by id (a notification's events, read outside any transaction). */
export async function eventsByIds(em: EntityManager, ids: number[]): Promise<AuditEvent[]> {
  const rows: EventDbRow[] = await em.getConnection().execute(`select ${EVENT_COLUMNS} from events where id = any(?::bigint[]) order by id`, [`{${ids.join(',')}}`]);
  return rows.map(toAuditEvent);
}
