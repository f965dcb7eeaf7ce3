import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../access/principal';
import { iso } from '../dates';
import type { TableRow } from '../rows';
import type { EventRow } from './event.entity';
import type { EventType } from './event-types';
import type { Tag } from '../tags/tag.shapes';
import type { AuditEvent } from './event.shapes';

export interface EventInput {
  type: EventType;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: unknown;
  preData?: unknown;
  tags?: Tag[];
}

/** What a change's events may say of why it was made (every event of the change says it). */
export interface EventCause {
  /** The change brings a flag back to this version of it (issue 43). */
  revertOf?: { featureName: string; version: number; eventId?: number };
}

/** An event's row as EVENT_COLUMNS selects it: every column (`id` is int8, so text). */
export type EventDbRow = Omit<TableRow<EventRow>, 'txid'>;

export const EVENT_COLUMNS = 'id, type, created_at, created_by, created_by_user_id, project, environment, feature_name, data, pre_data, tags, revert_of';

export function toAuditEvent(r: EventDbRow): AuditEvent {
  return {
    id: Number(r.id),
    type: r.type,
    createdAt: iso(r.created_at),
    createdBy: r.created_by,
    createdByUserId: r.created_by_user_id,
    project: r.project,
    environment: r.environment,
    featureName: r.feature_name,
    data: r.data ?? null,
    preData: r.pre_data ?? null,
    tags: r.tags ?? [],
    ...(r.revert_of ? { revertOf: r.revert_of } : {}),
  };
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * What `appendEvents` wrote: the event rows (whole when asked for, otherwise only `id, type, project, environment`)
 * and how many addon deliveries they queued.
 */
export interface AppendedEvents {
  rows: EventDbRow[];
  deliveries: number;
  /** The statement also queued the commit's announcement (`announceOn` was given). */
  announced?: boolean;
}

const EVENTS_PER_STATEMENT = 5_000;

/** What the outbox join needs of a new event, and its id for announcing it. */
const KEY_COLUMNS = 'id, type, project, environment';

/**
 * The addon outbox (issue 11): an enabled addon listens to an event when its `events` hold the event's type and, for
 * each of project and environment, the event has none, or the addon's list is empty, starts with `*`, or holds it.
 */
const ADDON_MATCH = `a.enabled and jsonb_exists(a.events, i.type)
  and (i.project is null or a.projects = '[]'::jsonb or a.projects->>0 = '*' or jsonb_exists(a.projects, i.project))
  and (i.environment is null or a.environments = '[]'::jsonb or a.environments->>0 = '*' or jsonb_exists(a.environments, i.environment))`;

/**
 * Appends events inside the caller's transaction (the `em` given must be the transaction's), so an event
 * exists exactly when its change committed. A feature event without explicit tags carries the feature's
 * current tags, read in the same statement. The same statement queues a delivery for every addon that listens to
 * each event (the transactional outbox): a rolled-back change leaves neither events nor deliveries. The rows come
 * back whole only when `wholeRows` (a live stream on this instance reads them); otherwise only their keys.
 * With `announceOn` (a channel), the same statement also queues the notification that announces the events at commit,
 * in the event hub's payload form `<deliveries>:<id>,<id>…` (event-hub.ts), saving a round trip per change.
 */
export async function appendEvents(
  em: EntityManager, principal: Principal, events: EventInput[], wholeRows = false, announceOn?: string, cause: EventCause = {},
): Promise<AppendedEvents> {
  if (events.length === 0) return { rows: [], deliveries: 0 };
  // One statement binds 10 parameters per event and PostgreSQL takes at most 65,535: a large change (an import of
  // thousands of strategies) is written in batches, in order, inside the same transaction.
  if (events.length > EVENTS_PER_STATEMENT) {
    const out: AppendedEvents = { rows: [], deliveries: 0 };
    for (let i = 0; i < events.length; i += EVENTS_PER_STATEMENT) {
      const part = await appendEvents(em, principal, events.slice(i, i + EVENTS_PER_STATEMENT), wholeRows, undefined, cause);
      out.rows.push(...part.rows);
      out.deliveries += part.deliveries;
    }
    return out;
  }
  const values: unknown[] = [];
  const revertOf = json(cause.revertOf);
  const rows = events.map((e) => {
    values.push(e.type, principal.name, principal.userId, e.project ?? null, e.environment ?? null, e.featureName ?? null,
      json(e.data), json(e.preData), e.tags ? JSON.stringify(e.tags) : null, revertOf);
    return '(?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb)';
  });
  if (announceOn !== undefined) values.push(announceOn);
  const inserted: Array<EventDbRow & { queued: number }> = await em.execute(
    `with i as (
       insert into events (type, created_by, created_by_user_id, project, environment, feature_name, data, pre_data, tags, revert_of)
       select v.type, v.created_by, v.created_by_user_id::int, v.project, v.environment, v.feature_name, v.data, v.pre_data,
              coalesce(v.tags, (select coalesce(jsonb_agg(jsonb_build_object('type', ft.tag_type, 'value', ft.tag_value) order by ft.tag_type, ft.tag_value), '[]'::jsonb)
                                 from feature_tags ft where ft.feature_name = v.feature_name)),
              v.revert_of
         from (values ${rows.join(', ')}) as v(type, created_by, created_by_user_id, project, environment, feature_name, data, pre_data, tags, revert_of)
       returning ${wholeRows ? EVENT_COLUMNS : KEY_COLUMNS}),
     q as (insert into addon_deliveries (addon_id, event_id) select a.id, i.id from i join addons a on ${ADDON_MATCH} returning 1)${announceOn === undefined ? '' : `,
     n as materialized (select pg_notify(?, (select count(*) from q)::text || ':' || (select string_agg(id::text, ',' order by id) from i)))`}
     select i.*, (select count(*)::int from q) as queued from i${announceOn === undefined ? '' : ' cross join n'} order by i.id`,
    values,
  );
  return { rows: inserted, deliveries: inserted[0]?.queued ?? 0, announced: announceOn !== undefined };
}

/** Queues a notification on `channel` in the transaction: PostgreSQL sends it only if and when the transaction commits. */
export async function notifyChannel(tx: EntityManager, channel: string, payload: string): Promise<void> {
  await tx.execute('select pg_notify(?, ?)', [channel, payload]);
}
