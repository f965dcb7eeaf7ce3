import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import { NotFoundError } from '../errors';
import { EVENT_COLUMNS, type EventDbRow } from '../events/event.store';
import { rowId } from '../validation';
import type { TableRow } from '../rows';
import type { AddonDeliveryRow } from './addon-delivery.entity';
import { AddonSchema, type AddonRow } from './addon.entity';
import { ADDON_COLUMNS, DELIVERY_COLUMNS, type AddonDbRow, type DeliveryDbRow } from './addon.read-model';
import type { AddonDeliveryAttempt } from './addon.shapes';

/**
 * The writes and locks of addons and of their delivery outbox (addon.service.ts says what each rule is for,
 * delivery-worker.ts how deliveries are claimed and recorded).
 */

/**
 * The addon row, or 404 for an id that is not a positive integer or names no addon; `lock` (inside a change) locks it
 * first. SQL: its row is mapped like those `insertAddon` and `updateAddon` return, and the change that follows is a statement.
 */
export async function loadAddon(em: EntityManager, id: string | number, lock?: RowLock): Promise<AddonDbRow> {
  const n = rowId(id);
  if (n === undefined) throw new NotFoundError('Could not find addon');
  const [row]: AddonDbRow[] = await em.execute(`select ${ADDON_COLUMNS} from addons where id = ?${lockClause(lock)}`, [n]);
  if (!row) throw new NotFoundError('Could not find addon');
  return row;
}

/** What an addon stores (its parameters as given, sensitive ones included). */
export type AddonFields = Omit<AddonDbRow, 'id' | 'created_at'>;

export async function insertAddon(tx: EntityManager, a: AddonFields): Promise<AddonDbRow> {
  const [row]: AddonDbRow[] = await tx.execute(
    `insert into addons (provider, description, enabled, parameters, events, projects, environments) values (?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb) returning ${ADDON_COLUMNS}`,
    [a.provider, a.description, a.enabled, JSON.stringify(a.parameters), JSON.stringify(a.events), JSON.stringify(a.projects), JSON.stringify(a.environments)],
  );
  return row;
}

export async function updateAddon(tx: EntityManager, id: number, a: AddonFields): Promise<AddonDbRow> {
  const [updated]: AddonDbRow[] = await tx.execute(
    `update addons set provider = ?, description = ?, enabled = ?, parameters = ?::jsonb, events = ?::jsonb, projects = ?::jsonb, environments = ?::jsonb where id = ? returning ${ADDON_COLUMNS}`,
    [a.provider, a.description, a.enabled, JSON.stringify(a.parameters), JSON.stringify(a.events), JSON.stringify(a.projects), JSON.stringify(a.environments), id],
  );
  return updated;
}

export async function deleteAddon(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeDelete(AddonSchema, { id });
}

/** A new delivery repeating the addon's delivery `deliveryId` (an id checked to be a uuid); undefined when the addon has no such delivery. */
export async function insertRedelivery(tx: EntityManager, addonId: number, deliveryId: string): Promise<DeliveryDbRow | undefined> {
  const [created]: DeliveryDbRow[] = await tx.execute(
    `with n as (insert into addon_deliveries (addon_id, event_id, redelivery_of)
                select addon_id, event_id, id from addon_deliveries where id = ?::uuid and addon_id = ?
                returning *)
     select ${DELIVERY_COLUMNS} from n d join events e on e.id = d.event_id`,
    [deliveryId, addonId],
  );
  return created;
}

/** A claimed delivery with what sending it needs: the addon's provider, parameters and state, and the event. */
export type ClaimedRow = EventDbRow
  & Pick<TableRow<AddonDeliveryRow>, 'addon_id' | 'attempt_count'>
  & Pick<TableRow<AddonRow>, 'provider' | 'parameters' | 'enabled'>
  & { delivery_id: TableRow<AddonDeliveryRow>['id']; claim: string };

/** The event's columns as the claim statement reads them (`e.id, e.type, …`). */
const CLAIMED_EVENT_COLUMNS = EVENT_COLUMNS.split(', ').map((c) => `e.${c}`).join(', ');

/**
 * Claims up to `limit` due pending deliveries in one statement (`for update skip locked`: two workers never pick the
 * same row): they get the `claim` id and their next attempt moves `leaseSeconds` ahead. Run outside any transaction.
 */
export function claimDeliveries(em: EntityManager, limit: number, claim: string, leaseSeconds: number): Promise<ClaimedRow[]> {
  return em.getConnection().execute(
    `with due as (
       select id from addon_deliveries
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at limit ? for update skip locked),
     claimed as (
       update addon_deliveries d set claim = ?, next_attempt_at = now() + make_interval(secs => ?)
         from due where d.id = due.id
       returning d.id, d.addon_id, d.event_id, d.attempt_count)
     select c.id as delivery_id, c.addon_id, c.attempt_count, a.provider, a.parameters, a.enabled, ?::uuid as claim, ${CLAIMED_EVENT_COLUMNS}
       from claimed c join addons a on a.id = c.addon_id join events e on e.id = c.event_id`,
    [limit, claim, leaseSeconds, claim],
  ) as Promise<ClaimedRow[]>;
}

/** One attempt's outcome: the delivery's new status, and the wait (seconds) before the next attempt when it is retried. */
export interface DeliveryOutcome {
  id: string;
  claim: string;
  attempt: AddonDeliveryAttempt;
  status: string;
  retry: number | null;
}

/** Records attempts and the deliveries' new states in one statement, each only while its claim is still the one given. */
export async function recordOutcomes(em: EntityManager, outcomes: DeliveryOutcome[]): Promise<void> {
  await em.getConnection().execute(
    `update addon_deliveries d
        set attempt_count = d.attempt_count + 1, attempts = d.attempts || jsonb_build_array(v.attempt), status = v.status, claim = null,
            next_attempt_at = case when v.retry is null then d.next_attempt_at else now() + make_interval(secs => v.retry) end,
            finished_at = case when v.status = 'pending' then null else now() end
       from jsonb_to_recordset(?::jsonb) as v(id uuid, claim uuid, attempt jsonb, status text, retry float8)
      where d.id = v.id and d.claim = v.claim`,
    [JSON.stringify(outcomes)],
  );
}
