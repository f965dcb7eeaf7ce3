import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { assertEventTypes } from '../events/event-types';
import { NotFoundError, ValidationError, type ErrorDetail } from '../errors';
import { isUuid, parse, rowId, urlFriendlyName } from '../validation';
import { eventHubOf } from '../events/event-hub';
import { checkAddonUrl } from './address-policy';
import type { DeliveryAttempt } from './delivery-worker';
import { templateProblem } from './formats';
import { MASK, PROVIDER_BY_NAME, PROVIDERS, type AddonProvider } from './providers';

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

interface DeliveryRow {
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

const DELIVERY_COLUMNS = 'd.id, d.seq, d.addon_id, d.event_id, e.type as event_type, d.status, d.attempts, d.created_at, d.next_attempt_at, d.finished_at, d.redelivery_of';

const toDelivery = (r: DeliveryRow): AddonDelivery => ({
  id: r.id,
  addonId: r.addon_id,
  eventId: Number(r.event_id),
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  createdAt: new Date(r.created_at).toISOString(),
  nextAttemptAt: r.status === 'pending' ? new Date(r.next_attempt_at).toISOString() : null,
  finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  redeliveryOf: r.redelivery_of,
});

export const deliveryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().regex(/^[1-9][0-9]{0,17}$/, 'must be the `nextCursor` of an earlier page').optional(),
}).strict();

export type DeliveryQuery = z.input<typeof deliveryQuery>;

/** The stored row: the addon's fields with its real parameters and `created_at`. */
type AddonRow = Omit<Addon, 'createdAt'> & { created_at: Date };

const COLUMNS = 'id, provider, description, enabled, parameters, events, projects, environments, created_at';

const parameterValue = z.union([z.string().max(10_000), z.number(), z.boolean()]);
const parameters = z.record(z.string().max(100), parameterValue);
const eventList = z.array(z.string().max(100)).max(500);
const nameList = z.array(z.string().min(1).max(100)).max(1000);
const description = z.string().max(1000);

export const createSchema = z.object({
  provider: urlFriendlyName(1, 100),
  description: description.nullable().optional(),
  enabled: z.boolean().optional(),
  parameters,
  events: eventList,
  projects: nameList.optional(),
  environments: nameList.optional(),
}).strict();

/** D2: every property optional; absent is untouched, `null` empties (a `null` description becomes ""). */
export const updateSchema = z.object({
  provider: urlFriendlyName(1, 100).optional(),
  description: description.nullable().optional(),
  enabled: z.boolean().optional(),
  parameters: parameters.nullable().optional(),
  events: eventList.nullable().optional(),
  projects: nameList.nullable().optional(),
  environments: nameList.nullable().optional(),
}).strict();

export type CreateAddonInput = z.input<typeof createSchema>;
export type UpdateAddonInput = z.input<typeof updateSchema>;

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
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** What audit events record of an addon: everything but its parameters (Unleash's choice; they may hold secrets). */
const eventData = (a: Addon) => ({ id: a.id, provider: a.provider, enabled: a.enabled, description: a.description, events: a.events, projects: a.projects, environments: a.environments, createdAt: a.createdAt });

/** RFC 9110 token (a header name) and a header value without control characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,200}$/;
const HEADER_VALUE = /^[^\x00-\x08\x0a-\x1f\x7f]{0,8000}$/;

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
};

/**
 * The parameters to store: each one a parameter of the provider, its text valid for its type; a sensitive one sent back
 * as the mask keeps the stored value; every required one present. Every problem is listed, under `parameters/<name>`.
 */
function checkedParameters(provider: AddonProvider, sent: Record<string, string | number | boolean>, stored: Record<string, unknown> | undefined): Record<string, string | number | boolean> {
  const definitions = new Map(provider.parameters.map((p) => [p.name, p]));
  const out = new Map<string, string | number | boolean>();
  const problems: ErrorDetail[] = [];
  for (const [name, raw] of Object.entries(sent)) {
    const at = `parameters/${name}`;
    const definition = definitions.get(name);
    if (!definition) {
      problems.push({ path: at, message: `\`${name}\` is not a parameter of the ${provider.name} provider. Its parameters are: ${provider.parameters.map((p) => p.name).join(', ')}.` });
      continue;
    }
    let value = raw;
    if (value === MASK && definition.sensitive) {
      const kept = stored?.[name];
      if (typeof kept !== 'string' && typeof kept !== 'number' && typeof kept !== 'boolean') {
        problems.push({ path: at, message: `\`${name}\` was sent as the mask ${MASK}, but no value is stored to keep: send the value itself.` });
        continue;
      }
      value = kept;
    }
    if (definition.type === 'url' && value !== '' && (typeof value !== 'string' || !isHttpUrl(value))) {
      problems.push({ path: at, message: `\`${name}\` must be an absolute http or https URL.` });
      continue;
    }
    if ((name === 'contentType' || name === 'authorization') && typeof value === 'string' && !HEADER_VALUE.test(value)) {
      problems.push({ path: at, message: `\`${name}\` is sent as an HTTP header value: it may not hold line breaks or control characters.` });
      continue;
    }
    if (name === 'bodyTemplate' && typeof value === 'string' && value !== '') {
      const problem = templateProblem(value);
      if (problem) {
        problems.push({ path: at, message: `\`bodyTemplate\` is not a valid Mustache template: ${problem}` });
        continue;
      }
    }
    if (name === 'customHeaders' && value !== '') {
      let headers: unknown;
      try {
        headers = typeof value === 'string' ? JSON.parse(value) : undefined;
      } catch {
        headers = undefined;
      }
      if (headers === null || typeof headers !== 'object' || Array.isArray(headers)
        || !Object.entries(headers).every(([k, h]) => HEADER_NAME.test(k) && typeof h === 'string' && HEADER_VALUE.test(h))) {
        problems.push({ path: at, message: '`customHeaders` must be a JSON object of header names and text values, for example {"X-Team": "flags"}.' });
        continue;
      }
    }
    out.set(name, value);
  }
  for (const definition of provider.parameters) {
    const value = out.get(definition.name);
    if (definition.required && (value === undefined || value === '') && !problems.some((p) => p.path === `parameters/${definition.name}`)) {
      problems.push({ path: `parameters/${definition.name}`, message: `The ${provider.name} provider requires the \`${definition.name}\` parameter (${definition.displayName}).` });
    }
  }
  if (problems.length > 0) throw ValidationError.of(problems);
  return Object.fromEntries(out);
}

function checkedEvents(events: string[]): string[] {
  assertEventTypes(events, 'events', 'Addons can listen to the event types the event log lists.');
  return [...new Set(events)];
}

function knownProvider(name: string): AddonProvider {
  const provider = PROVIDER_BY_NAME.get(name);
  if (!provider) throw ValidationError.single('provider', `The \`provider\` property must name a known provider: ${PROVIDERS.map((p) => p.name).join(', ')}. You sent ${JSON.stringify(name)}.`);
  return provider;
}

/**
 * Addons (issue 11, spec endpoint 1): integrations that receive the audit events they listen to. CREATE_ADDON,
 * UPDATE_ADDON and DELETE_ADDON guard the changes; reading needs any admin-API credentials, as in Unleash. Sensitive
 * parameters (URLs with secrets, keys, authorization headers) are stored as given and shown only as the mask.
 */
export class AddonService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService, private readonly policy: { allowPrivateUrls: boolean } = { allowPrivateUrls: false }) {}

  providers(): readonly AddonProvider[] {
    return PROVIDERS;
  }

  async list(): Promise<Addon[]> {
    const rows: AddonRow[] = await this.em.execute(`select ${COLUMNS} from addons order by id`);
    return rows.map(maskedAddon);
  }

  async get(id: string | number): Promise<Addon> {
    return maskedAddon(await this.load(this.em, id));
  }

  async create(input: unknown): Promise<Addon> {
    const data = parse(createSchema, input);
    const provider = knownProvider(data.provider);
    const params = checkedParameters(provider, data.parameters, undefined);
    const events = checkedEvents(data.events);
    await this.access.check('CREATE_ADDON');
    await this.checkAddresses(provider, params);
    return change(this.em, this.principal, async (tx, emit) => {
      const [row]: AddonRow[] = await tx.execute(
        `insert into addons (provider, description, enabled, parameters, events, projects, environments) values (?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb) returning ${COLUMNS}`,
        [provider.name, data.description ?? null, data.enabled ?? true, JSON.stringify(params), JSON.stringify(events), JSON.stringify(data.projects ?? []), JSON.stringify(data.environments ?? [])],
      );
      await this.ensureTagTypes(tx, provider, emit);
      const addon = maskedAddon(row);
      emit({ type: 'addon-config-created', data: eventData(addon) });
      return addon;
    });
  }

  async update(id: string | number, input: unknown): Promise<Addon> {
    const data = parse(updateSchema, input);
    const provider = data.provider === undefined ? undefined : knownProvider(data.provider);
    const sentEvents = data.events === undefined ? undefined : checkedEvents(data.events ?? []);
    await this.access.check('UPDATE_ADDON');
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, id, true);
      const nextProvider = provider ?? knownProvider(row.provider);
      const sameProvider = nextProvider.name === row.provider;
      // Parameters sent replace the stored ones (a masked one keeps its value); absent, they stay (and are checked
      // again against a changed provider); null empties them.
      const sentParameters = data.parameters === undefined ? (sameProvider ? undefined : row.parameters) : (data.parameters ?? {});
      const params = sentParameters === undefined ? row.parameters : checkedParameters(nextProvider, sentParameters, sameProvider ? row.parameters : undefined);
      if (sentParameters !== undefined) await this.checkAddresses(nextProvider, params);
      const events = sentEvents ?? row.events;
      const [updated]: AddonRow[] = await tx.execute(
        `update addons set provider = ?, description = ?, enabled = ?, parameters = ?::jsonb, events = ?::jsonb, projects = ?::jsonb, environments = ?::jsonb where id = ? returning ${COLUMNS}`,
        [
          nextProvider.name,
          data.description === undefined ? row.description : (data.description ?? ''),
          data.enabled ?? row.enabled,
          JSON.stringify(params),
          JSON.stringify(events),
          JSON.stringify(data.projects === undefined ? row.projects : (data.projects ?? [])),
          JSON.stringify(data.environments === undefined ? row.environments : (data.environments ?? [])),
          row.id,
        ],
      );
      if (!sameProvider) await this.ensureTagTypes(tx, nextProvider, emit);
      const before = maskedAddon(row);
      const after = maskedAddon(updated);
      emit({ type: 'addon-config-updated', data: eventData(after), preData: eventData(before) });
      return after;
    });
  }

  async delete(id: string | number): Promise<void> {
    await this.access.check('DELETE_ADDON');
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, id, true);
      await tx.execute('delete from addons where id = ?', [row.id]);
      emit({ type: 'addon-config-deleted', preData: eventData(maskedAddon(row)) });
    });
  }

  /** Deliveries of an addon, newest first, `limit` at a time (default 20, at most 100). */
  async deliveries(addonId: string | number, query: DeliveryQuery): Promise<DeliveryPage> {
    const addon = await this.load(this.em, addonId);
    return (await this.deliveryPages([addon.id], query)).get(addon.id)!;
  }

  /** The same page of deliveries for several addons, in one statement (GraphQL's `Addon.deliveries`). */
  async deliveryPages(addonIds: readonly number[], query: DeliveryQuery): Promise<Map<number, DeliveryPage>> {
    const q = parse(deliveryQuery, query);
    const rows: DeliveryRow[] = await this.em.execute(
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

  /**
   * Sends a delivery's event to its addon again, as a new delivery with its own id (so a receiver that dropped the
   * first as a repeat takes this one): what an operator does after fixing a receiver. UPDATE_ADDON.
   */
  async redeliver(addonId: string | number, deliveryId: string): Promise<AddonDelivery> {
    await this.access.check('UPDATE_ADDON');
    const addon = await this.load(this.em, addonId);
    if (!isUuid(deliveryId)) throw new NotFoundError('Could not find delivery');
    const hub = eventHubOf(this.em);
    const row = await this.em.transactional(async (tx) => {
      const [created]: DeliveryRow[] = await tx.execute(
        `with n as (insert into addon_deliveries (addon_id, event_id, redelivery_of)
                    select addon_id, event_id, id from addon_deliveries where id = ?::uuid and addon_id = ?
                    returning *)
         select ${DELIVERY_COLUMNS} from n d join events e on e.id = d.event_id`,
        [deliveryId, addon.id],
      );
      if (!created) throw new NotFoundError('Could not find delivery');
      await hub?.announceInTransaction(tx as EntityManager, [], 1);
      return created;
    });
    hub?.afterCommit([], 1, false);
    return toDelivery(row);
  }

  /** Where the addon will send must be allowed by the address policy (src/domain/addons/address-policy.ts). */
  private async checkAddresses(provider: AddonProvider, params: Record<string, string | number | boolean>): Promise<void> {
    if (this.policy.allowPrivateUrls) return;
    for (const definition of provider.parameters) {
      const value = params[definition.name];
      if (definition.type !== 'url' || typeof value !== 'string' || value === '') continue;
      const problem = await checkAddonUrl(value);
      if (problem) throw ValidationError.single(`parameters/${definition.name}`, `Addons may not send to loopback, private, link-local or metadata addresses: ${problem}.`);
    }
  }

  /** The tag types a provider reads (slack channels, datadog tags), created when missing, with their events. */
  private async ensureTagTypes(tx: EntityManager, provider: AddonProvider, emit: (e: { type: 'tag-type-created'; data: unknown }) => void): Promise<void> {
    for (const t of provider.tagTypes) {
      const created: Array<{ name: string; description: string | null; icon: string | null }> = await tx.execute(
        'insert into tag_types (name, description, icon) values (?, ?, ?) on conflict (name) do nothing returning name, description, icon', [t.name, t.description, t.icon]);
      if (created.length > 0) emit({ type: 'tag-type-created', data: created[0] });
    }
  }

  /** The addon row, or 404 for an id that is not a positive integer or names no addon; `lock` holds it for update. */
  private async load(em: EntityManager, id: string | number, lock = false): Promise<AddonRow> {
    const n = rowId(id);
    if (n === undefined) throw new NotFoundError('Could not find addon');
    const [row]: AddonRow[] = await em.execute(`select ${COLUMNS} from addons where id = ?${lock ? ' for update' : ''}`, [n]);
    if (!row) throw new NotFoundError('Could not find addon');
    return row;
  }
}
