import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NotFoundError, ValidationError } from '../errors';
import { isUuid, parse, urlFriendlyName } from '../validation';
import { eventHubOf } from '../events/event-hub';
import { insertMissingTagType } from '../tags/tag.store';
import { checkAddonUrl } from './address-policy';
import { checkedEvents, checkedParameters, knownProvider } from './addon-parameters';
import {
  listAddons, maskedAddon, readDeliveryPages, toDelivery,
} from './addon.read-model';
import type { Addon, AddonDefinition, AddonDelivery, AddonDeliveryPage } from './addon.shapes';
import { deleteAddon, insertAddon, insertRedelivery, loadAddon, updateAddon } from './addon.store';
import { PROVIDERS } from './providers';

export const deliveryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().regex(/^[1-9][0-9]{0,17}$/, 'must be the `nextCursor` of an earlier page').optional(),
}).strict();

export type DeliveryQuery = z.input<typeof deliveryQuery>;

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

/** What audit events record of an addon: everything but its parameters (Unleash's choice; they may hold secrets). */
const eventData = (a: Addon) => ({ id: a.id, provider: a.provider, enabled: a.enabled, description: a.description, events: a.events, projects: a.projects, environments: a.environments, createdAt: a.createdAt });

/**
 * Addons (issue 11, spec endpoint 1): integrations that receive the audit events they listen to. CREATE_ADDON,
 * UPDATE_ADDON and DELETE_ADDON guard the changes; reading needs any admin-API credentials, as in Unleash. Sensitive
 * parameters (URLs with secrets, keys, authorization headers) are stored as given and shown only as the mask.
 */
export class AddonService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService, private readonly policy: { allowPrivateUrls: boolean } = { allowPrivateUrls: false }) {}

  providers(): readonly AddonDefinition[] {
    return PROVIDERS;
  }

  async list(): Promise<Addon[]> {
    return listAddons(this.em);
  }

  async get(id: string | number): Promise<Addon> {
    return maskedAddon(await loadAddon(this.em, id));
  }

  async create(input: unknown): Promise<Addon> {
    const data = parse(createSchema, input);
    const provider = knownProvider(data.provider);
    const params = checkedParameters(provider, data.parameters, undefined);
    const events = checkedEvents(data.events);
    await this.access.check('CREATE_ADDON');
    await this.checkAddresses(provider, params);
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await insertAddon(tx, {
        provider: provider.name, description: data.description ?? null, enabled: data.enabled ?? true, parameters: params, events,
        projects: data.projects ?? [], environments: data.environments ?? [],
      });
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
      const row = await loadAddon(tx, id, 'update');
      const nextProvider = provider ?? knownProvider(row.provider);
      const sameProvider = nextProvider.name === row.provider;
      // Parameters sent replace the stored ones (a masked one keeps its value); absent, they stay (and are checked
      // again against a changed provider); null empties them.
      const sentParameters = data.parameters === undefined ? (sameProvider ? undefined : row.parameters) : (data.parameters ?? {});
      const params = sentParameters === undefined ? row.parameters : checkedParameters(nextProvider, sentParameters, sameProvider ? row.parameters : undefined);
      if (sentParameters !== undefined) await this.checkAddresses(nextProvider, params);
      const events = sentEvents ?? row.events;
      const updated = await updateAddon(tx, row.id, {
        provider: nextProvider.name,
        description: data.description === undefined ? row.description : (data.description ?? ''),
        enabled: data.enabled ?? row.enabled,
        parameters: params,
        events,
        projects: data.projects === undefined ? row.projects : (data.projects ?? []),
        environments: data.environments === undefined ? row.environments : (data.environments ?? []),
      });
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
      const row = await loadAddon(tx, id, 'update');
      await deleteAddon(tx, row.id);
      emit({ type: 'addon-config-deleted', preData: eventData(maskedAddon(row)) });
    });
  }

  /** Deliveries of an addon, newest first, `limit` at a time (default 20, at most 100). */
  async deliveries(addonId: string | number, query: DeliveryQuery): Promise<AddonDeliveryPage> {
    const addon = await loadAddon(this.em, addonId);
    return (await this.deliveryPages([addon.id], query)).get(addon.id)!;
  }

  /** The same page of deliveries for several addons, in one statement (GraphQL's `Addon.deliveries`). */
  async deliveryPages(addonIds: readonly number[], query: DeliveryQuery): Promise<Map<number, AddonDeliveryPage>> {
    const q = parse(deliveryQuery, query);
    return readDeliveryPages(this.em, addonIds, q);
  }

  /**
   * Sends a delivery's event to its addon again, as a new delivery with its own id (so a receiver that dropped the
   * first as a repeat takes this one): what an operator does after fixing a receiver. UPDATE_ADDON.
   */
  async redeliver(addonId: string | number, deliveryId: string): Promise<AddonDelivery> {
    await this.access.check('UPDATE_ADDON');
    const addon = await loadAddon(this.em, addonId);
    if (!isUuid(deliveryId)) throw new NotFoundError('Could not find delivery');
    const hub = eventHubOf(this.em);
    const row = await this.em.transactional(async (tx) => {
      const created = await insertRedelivery(tx as EntityManager, addon.id, deliveryId);
      if (!created) throw new NotFoundError('Could not find delivery');
      await hub?.announceInTransaction(tx as EntityManager, [], 1);
      return created;
    });
    hub?.afterCommit([], 1, false);
    return toDelivery(row);
  }

  /** Where the addon will send must be allowed by the address policy (src/domain/addons/address-policy.ts). */
  private async checkAddresses(provider: AddonDefinition, params: Record<string, string | number | boolean>): Promise<void> {
    if (this.policy.allowPrivateUrls) return;
    for (const definition of provider.parameters) {
      const value = params[definition.name];
      if (definition.type !== 'url' || typeof value !== 'string' || value === '') continue;
      const problem = await checkAddonUrl(value);
      if (problem) throw ValidationError.single(`parameters/${definition.name}`, `Addons may not send to loopback, private, link-local or metadata addresses: ${problem}.`);
    }
  }

  /** The tag types a provider reads (slack channels, datadog tags), created when missing, with their events. */
  private async ensureTagTypes(tx: EntityManager, provider: AddonDefinition, emit: (e: { type: 'tag-type-created'; data: unknown }) => void): Promise<void> {
    for (const t of provider.tagTypes) {
      const created = await insertMissingTagType(tx, t);
      if (created) emit({ type: 'tag-type-created', data: created });
    }
  }
}
