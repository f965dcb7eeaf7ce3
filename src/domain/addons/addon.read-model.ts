import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { EventRow } from '../events/event.entity';
import type { TableRow } from '../rows';
import type { AddonDeliveryRow } from './addon-delivery.entity';
import type { AddonRow } from './addon.entity';
import type { Addon, AddonDelivery, AddonDeliveryPage } from './addon.shapes';
import { MASK, PROVIDER_BY_NAME } from './providers';

/** The reads of addons and their deliveries, and the mapping of their rows into what both doors return. */

/** An addon's row as `ADDON_COLUMNS` read it: its real parameters (sensitive ones too) and `created_at`. */
export type AddonDbRow = Pick<TableRow<AddonRow>, 'id' | 'provider' | 'description' | 'enabled' | 'parameters' | 'events' | 'projects' | 'environments' | 'created_at'>;

/** The columns of `AddonDbRow`. */
export const ADDON_COLUMNS = 'id, provider, description, enabled, parameters, events, projects, environments, created_at';

/** A delivery with its event's type, as `DELIVERY_COLUMNS` read it from `addon_deliveries d join events e`. */
export type DeliveryDbRow = Pick<TableRow<AddonDeliveryRow>,
  'id' | 'seq' | 'addon_id' | 'event_id' | 'status' | 'attempts' | 'created_at' | 'next_attempt_at' | 'finished_at' | 'redelivery_of'>
  & { event_type: TableRow<EventRow>['type'] };

export const DELIVERY_COLUMNS = 'd.id, d.seq, d.addon_id, d.event_id, e.type as event_type, d.status, d.attempts, d.created_at, d.next_attempt_at, d.finished_at, d.redelivery_of';

export const toDelivery = (r: DeliveryDbRow): AddonDelivery => ({
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
export function maskedAddon(r: AddonDbRow): Addon {
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

/** Every addon, by id, masked (SQL: its rows are mapped like those the store loads, inserts and updates). */
export async function listAddons(em: EntityManager): Promise<Addon[]> {
  const rows: AddonDbRow[] = await em.execute(`select ${ADDON_COLUMNS} from addons order by id`);
  return rows.map(maskedAddon);
}

/**
 * The same page of deliveries (newest first: `limit` older than `after`, when given) for several addons, in one
 * statement; every addon asked for has a page, empty when it has no deliveries.
 */
export async function readDeliveryPages(em: EntityManager, addonIds: readonly number[], q: { limit: number; after?: string }): Promise<Map<number, AddonDeliveryPage>> {
  const rows: DeliveryDbRow[] = await em.execute(
    `select x.* from unnest(?::int[]) as a(id)
       cross join lateral (
         select ${DELIVERY_COLUMNS} from addon_deliveries d join events e on e.id = d.event_id
          where d.addon_id = a.id${q.after ? ' and d.seq < ?' : ''} order by d.seq desc limit ?) x`,
    [`{${addonIds.join(',')}}`, ...(q.after ? [q.after] : []), q.limit + 1],
  );
  const byAddon = new Map<number, DeliveryDbRow[]>(addonIds.map((id) => [id, []]));
  for (const r of rows) byAddon.get(r.addon_id)?.push(r);
  const out = new Map<number, AddonDeliveryPage>();
  for (const [id, list] of byAddon) {
    const page = list.slice(0, q.limit);
    out.set(id, { deliveries: page.map(toDelivery), nextCursor: list.length > q.limit ? String(page[page.length - 1].seq) : null });
  }
  return out;
}
