import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parse } from '../validation';
import type { EventHub } from './event-hub';
import { assertEventTypes, EVENT_TYPES } from './event-types';
import { EventStream, type StreamFilter } from './event-stream';
import { newestEventsOfFeatures, readEventPage, type EventPage, type EventParts } from './event.read-model';
import type { AuditEvent } from './event.shapes';

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
    return readEventPage(this.em, { type: q.type, project: q.project, feature: q.feature }, { limit: q.limit, offset: q.offset, before: q.before }, parts);
  }

  /**
   * The newest `limit` events of each of several features and their totals, in two statements (what a GraphQL list of
   * features asks for when each selects its first page of events).
   */
  async newestForFeatures(names: readonly string[], limit: number): Promise<Map<string, { events: AuditEvent[]; totalEvents: number }>> {
    return newestEventsOfFeatures(this.em, names, limit);
  }

  /** Spec endpoint 8 / D7: the newest 100 events of a feature plus the total; unknown features give an empty list. */
  async forFeature(featureName: string): Promise<{ events: AuditEvent[]; totalEvents: number }> {
    const { events, totalEvents } = await this.search({ feature: featureName, limit: 100 });
    return { events, totalEvents };
  }
}
