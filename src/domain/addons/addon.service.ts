import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { EVENT_TYPE_SET } from '../events/event-types';
import { NotFoundError, ValidationError, type ErrorDetail } from '../errors';
import { parse, rowId, urlFriendlyName } from '../validation';
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

/** The stored row: the addon's fields with its real parameters and `created_at`. */
type AddonRow = Omit<Addon, 'createdAt'> & { created_at: Date };

const COLUMNS = 'id, provider, description, enabled, parameters, events, projects, environments, created_at';

const parameterValue = z.union([z.string().max(10_000), z.number(), z.boolean()]);
const parameters = z.record(z.string().max(100), parameterValue);
const eventList = z.array(z.string().max(100)).max(500);
const nameList = z.array(z.string().min(1).max(100)).max(1000);
const description = z.string().max(1000);

const createSchema = z.object({
  provider: urlFriendlyName(1, 100),
  description: description.nullable().optional(),
  enabled: z.boolean().optional(),
  parameters,
  events: eventList,
  projects: nameList.optional(),
  environments: nameList.optional(),
}).strict();

/** D2: every property optional; absent is untouched, `null` empties (a `null` description becomes ""). */
const updateSchema = z.object({
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
    if (name === 'customHeaders' && value !== '') {
      let headers: unknown;
      try {
        headers = typeof value === 'string' ? JSON.parse(value) : undefined;
      } catch {
        headers = undefined;
      }
      if (headers === null || typeof headers !== 'object' || Array.isArray(headers) || !Object.values(headers).every((h) => typeof h === 'string')) {
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
  const problems = events.flatMap((e, i) => (EVENT_TYPE_SET.has(e) ? [] : [{ path: `events/${i}`, message: `\`${e}\` is not an event type. Addons can listen to the event types the event log lists.` }]));
  if (problems.length > 0) throw ValidationError.of(problems);
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
