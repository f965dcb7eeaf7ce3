import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parse } from '../validation';
import type { EventHub } from './event-hub';
import { assertEventTypes, EVENT_TYPES } from './event-types';
import { EventStream, type StreamFilter } from './event-stream';
import { EVENT_COLUMNS, toAuditEvent, type AuditEvent } from './event.store';

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

export const filterSchema = z.object({
  type: z.string().min(1).max(100).optional(),
  project: z.string().min(1).max(1000).optional(),
  feature: z.string().min(1).max(1000).optional(),
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).max(10_000_000).optional(),
  before: z.number().int().min(1).optional(),
}).strict();

export type EventQuery = z.input<typeof filterSchema>;

/** The live stream's filter: at most one entry per event type (a longer list must repeat one or name an unknown one). */
export const streamFilterSchema = z.object({
  types: z.array(z.string().max(100)).min(1).max(EVENT_TYPES.length).optional(),
  project: z.string().min(1).max(1000).optional(),
  feature: z.string().min(1).max(1000).optional(),
}).strict();

export type StreamFilterInput = z.input<typeof streamFilterSchema>;

/** What a caller reads of a page: GraphQL asks only for what is selected (REST always reads both). */
export interface EventParts {
  rows: boolean;
  count: boolean;
}

/** Reads the audit log, newest first. Reading needs only an authenticated caller (Unleash: permission NONE). */
export class EventService {
  constructor(private readonly em: EntityManager, private readonly hub?: EventHub) {}

  /**
   * The live event stream: every audit event committed from now on that matches `filter`, in commit order, until the
   * reader returns, `signal` aborts or the service stops (src/domain/events/event-stream.ts). Needs only an
   * authenticated caller, as reading the log does.
   */
  stream(filter: StreamFilterInput, signal?: AbortSignal): EventStream {
    const f = parse(streamFilterSchema, filter);
    assertEventTypes(f.types ?? [], 'types', 'A stream can follow the event types the event log lists.');
    if (!this.hub) throw new Error('EventService.stream needs the instance\'s event hub (ServiceOptions.eventHub)');
    const parsed: StreamFilter = { types: f.types, project: f.project, feature: f.feature };
    return new EventStream(this.hub, parsed, signal);
  }

  async search(query: EventQuery, parts: EventParts = { rows: true, count: true }): Promise<EventPage> {
    const q = parse(filterSchema, query);
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.type) { where.push('type = ?'); params.push(q.type); }
    if (q.project) { where.push('project = ?'); params.push(q.project); }
    if (q.feature) { where.push('feature_name = ?'); params.push(q.feature); }
    const filter = where.length ? `where ${where.join(' and ')}` : '';
    const pageWhere = q.before ? `${filter ? `${filter} and` : 'where'} id < ?` : filter;
    const pageParams = q.before ? [...params, q.before] : params;
    const conn = this.em.getConnection();
    const [rows, count] = await Promise.all([
      parts.rows
        ? conn.execute(`select ${EVENT_COLUMNS} from events ${pageWhere} order by id desc limit ? offset ?`, [...pageParams, q.limit + 1, q.offset ?? 0])
        : [],
      parts.count
        ? conn.execute(`select count(*)::int as count from events ${filter}`, params).then((r) => (r[0] as { count: number }).count)
        : 0,
    ]);
    const more = rows.length > q.limit;
    const events = (rows as unknown as Parameters<typeof toAuditEvent>[0][]).slice(0, q.limit).map(toAuditEvent);
    return { events, totalEvents: count, nextBefore: more && events.length ? events[events.length - 1].id : null };
  }

  /**
   * The newest `limit` events of each of several features and their totals, in two statements (what a GraphQL list of
   * features asks for when each selects its first page of events).
   */
  async newestForFeatures(names: readonly string[], limit: number): Promise<Map<string, { events: AuditEvent[]; totalEvents: number }>> {
    const out = new Map<string, { events: AuditEvent[]; totalEvents: number }>(names.map((n) => [n, { events: [], totalEvents: 0 }]));
    if (names.length === 0) return out;
    const list = [...new Set(names)];
    const conn = this.em.getConnection();
    const [rows, counts] = await Promise.all([
      conn.execute(
        `select e.* from unnest(array[?]::text[]) as f(name)
           cross join lateral (select ${EVENT_COLUMNS} from events where feature_name = f.name order by id desc limit ?) e`,
        [list, limit]),
      conn.execute(`select feature_name, count(*)::int as count from events where feature_name in (?) group by feature_name`, [list]),
    ]);
    for (const r of rows as unknown as Parameters<typeof toAuditEvent>[0][]) out.get(r.feature_name as string)?.events.push(toAuditEvent(r));
    for (const c of counts as unknown as Array<{ feature_name: string; count: number }>) {
      const entry = out.get(c.feature_name);
      if (entry) entry.totalEvents = c.count;
    }
    return out;
  }

  /** Spec endpoint 8 / D7: the newest 100 events of a feature plus the total; unknown features give an empty list. */
  async forFeature(featureName: string): Promise<{ events: AuditEvent[]; totalEvents: number }> {
    const { events, totalEvents } = await this.search({ feature: featureName, limit: 100 });
    return { events, totalEvents };
  }
}
