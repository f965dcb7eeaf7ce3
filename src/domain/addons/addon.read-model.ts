import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import { MASK, PROVIDER_BY_NAME } from './providers';

/** The reads of addons and their deliveries, and the mapping of their rows into what both doors return. */

/** An addon as both doors return it (spec: Addon): sensitive parameters always masked. */
export interface Addon {
  id: number;
  provider: string;
  description: string | null;
  enabled: boolean;
  parameters: Record<string, string | number | boolean>;
  events: string[];
  projects: string[];
  environments: string[];
  createdAt: string;
}

/** One recorded attempt (what `GET /api/admin/addons/:id/deliveries` shows). */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

/** One delivery of one event to one addon, with every attempt (newest deliveries first in lists). */
export interface AddonDelivery {
  /** Also the `Idempotency-Key` header the receiver got. */
  id: string;
  addonId: number;
  eventId: number;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: DeliveryAttempt[];
  createdAt: string;
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt: string | null;
  /** When it was delivered, failed for good or skipped. */
  finishedAt: string | null;
  /** The delivery this one repeats, when an operator asked for it again. */
  redeliveryOf: string | null;
}

export interface DeliveryPage {
  deliveries: AddonDelivery[];
  /** Pass as `after` to read older deliveries; null on the last page. */
  nextCursor: string | null;
}

/** The stored row: the addon's fields with its real parameters and `created_at`. */
export type AddonRow = Omit<Addon, 'createdAt'> & { created_at: Date };

/** The columns of `AddonRow`. */
export const ADDON_COLUMNS = 'id, provider, description, enabled, parameters, events, projects, environments, created_at';

/** A delivery with its event's type, as `DELIVERY_COLUMNS` read it from `addon_deliveries d join events e`. */
export interface DeliveryRow {
  id: string;
  seq: string | number;
  addon_id: number;
  event_id: string | number;
  event_type: string;
  status: AddonDelivery['status'];
  attempts: DeliveryAttempt[];
  created_at: Date;
  next_attempt_at: Date;
  finished_at: Date | null;
  redelivery_of: string | null;
}

export const DELIVERY_COLUMNS = 'd.id, d.seq, d.addon_id, d.event_id, e.type as event_type, d.status, d.attempts, d.created_at, d.next_attempt_at, d.finished_at, d.redelivery_of';

export const toDelivery = (r: DeliveryRow): AddonDelivery => ({
  id: r.id,
  addonId: r.addon_id,
  eventId: Number(r.event_id),
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  createdAt: iso(r.created_at),
  nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
  finishedAt: isoOrNull(r.finished_at),
  redeliveryOf: r.redelivery_of,
});

/** The stored addon with its sensitive parameters masked: what every read, answer and event shows. */
export function maskedAddon(r: AddonRow): Addon {
  const provider = PROVIDER_BY_NAME.get(r.provider);
  const shown: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(r.parameters ?? {})) {
    const definition = provider?.parameters.find((p) => p.name === name);
    shown[name] = definition?.sensitive && value !== '' ? MASK : value;
  }
  return {
    id: r.id,
    provider: r.provider,
    description: r.description,
    enabled: r.enabled,
    parameters: shown,
    events: r.events,
    projects: r.projects,
    environments: r.environments,
    createdAt: iso(r.created_at),
  };
}

/** Every addon, by id, masked. */
export async function listAddons(em: EntityManager): Promise<Addon[]> {
  const rows: AddonRow[] = await em.execute(`select ${ADDON_COLUMNS} from addons order by id`);
  return rows.map(maskedAddon);
}

/**
 * The same page of deliveries (newest first: `limit` older than `after`, when given) for several addons, in one
 * statement; every addon asked for has a page, empty when it has no deliveries.
 */
export async function readDeliveryPages(em: EntityManager, addonIds: readonly number[], q: { limit: number; after?: string }): Promise<Map<number, DeliveryPage>> {
  const rows: DeliveryRow[] = await em.execute(
    `select x.* from unnest(?::int[]) as a(id)
       cross join lateral (
         select ${DELIVERY_COLUMNS} from addon_deliveries d join events e on e.id = d.event_id
          where d.addon_id = a.id${q.after ? ' and d.seq < ?' : ''} order by d.seq desc limit ?) x`,
    [`{${addonIds.join(',')}}`, ...(q.after ? [q.after] : []), q.limit + 1],
  );
  const byAddon = new Map<number, DeliveryRow[]>(addonIds.map((id) => [id, []]));
  for (const r of rows) byAddon.get(r.addon_id)?.push(r);
  const out = new Map<number, DeliveryPage>();
  for (const [id, list] of byAddon) {
    const page = list.slice(0, q.limit);
    out.set(id, { deliveries: page.map(toDelivery), nextCursor: list.length > q.limit ? String(page[page.length - 1].seq) : null });
  }
  return out;
}
