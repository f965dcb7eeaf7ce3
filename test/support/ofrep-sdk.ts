/**
 * What issue 45's OpenFeature SDK tests share (test/e2e/ofrep-sdk): a set of flags of every value type stored through
 * the admin API, the context mapping OFREP promises (an OpenFeature context onto the Unleash context of the frontend API
 * and the playground), and what an SDK must then answer for a flag, worked out from `/api/frontend` and the playground
 * alone, never from the OFREP code: value, variant and reason.
 *
 * Also a fetch that records each exchange (to see bulk requests, ETags and 304s) and a browser-like EventSource for
 * Node 20, which has none: the web provider connects to a bulk answer's `eventStreams` only when `EventSource` exists.
 */
import type { Reply, TestApp } from './harness';

export const OFREP = '/ofrep/v1';
export const APP_NAME = 'ofrep-sdk-test';
const P = '/api/admin/projects/default/features';
export const envPath = (flag: string) => `${P}/${flag}/environments/development`;

export async function ok<T = any>(call: Promise<Reply<T>>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---- the flags -------------------------------------------------------------------------------------------------

/** Which typed getter reads a flag: the type of the value it has when it is on. */
export type FlagKind = 'boolean' | 'string' | 'number' | 'object';
export interface TypedFlag { name: string; kind: FlagKind }

const variant = (name: string, payload?: { type: string; value: string }, extra: Record<string, unknown> = {}) =>
  ({ name, weightType: 'variable', stickiness: 'default', ...(payload ? { payload } : {}), ...extra });

/** One flag per case of the value mapping and per reason. */
const FLAG_SPECS: Array<TypedFlag & { strategies: Array<Record<string, unknown>>; variants?: unknown[]; on?: boolean; dependsOn?: string }> = [
  { name: 'bool-static', kind: 'boolean', strategies: [{ name: 'default' }] },
  { name: 'bool-disabled', kind: 'boolean', strategies: [{ name: 'default' }], on: false },
  { name: 'bool-targeted', kind: 'boolean', strategies: [{ name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] }] },
  { name: 'bool-rollout', kind: 'boolean', strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'bool-rollout' } }] },
  { name: 'bool-users', kind: 'boolean', strategies: [{ name: 'userWithId', parameters: { userIds: 'u1, u2, u3' } }] },
  { name: 'bool-child', kind: 'boolean', strategies: [{ name: 'default' }], dependsOn: 'bool-targeted' },
  { name: 'string-variant', kind: 'string', strategies: [{ name: 'default' }], variants: [variant('greeting', { type: 'string', value: 'hello' })] },
  { name: 'csv-variant', kind: 'string', strategies: [{ name: 'default' }], variants: [variant('list', { type: 'csv', value: 'a,b,c' })] },
  { name: 'name-variant', kind: 'string', strategies: [{ name: 'default' }], variants: [variant('plain')] },
  {
    name: 'multi-variant', kind: 'string', strategies: [{ name: 'default' }],
    variants: [variant('left', { type: 'string', value: 'L' }), variant('right', { type: 'string', value: 'R' }, { overrides: [{ contextName: 'tier', values: ['enterprise'] }] })],
  },
  {
    name: 'number-variant', kind: 'number', strategies: [{ name: 'default', constraints: [{ contextName: 'tier', operator: 'IN', values: ['pro', 'enterprise'] }] }],
    variants: [variant('limit', { type: 'number', value: '42.5' })],
  },
  { name: 'json-variant', kind: 'object', strategies: [{ name: 'default' }], variants: [variant('config', { type: 'json', value: '{"theme":"dark","sizes":[1,2],"beta":true}' })] },
  {
    name: 'strategy-variant', kind: 'object',
    strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'strategy-variant' }, variants: [variant('from-strategy', { type: 'json', value: '{"source":"strategy"}' })] }],
  },
  { name: 'off-with-variants', kind: 'string', strategies: [{ name: 'default' }], variants: [variant('hidden', { type: 'string', value: 'X' })], on: false },
];
export const TYPED_FLAGS: readonly TypedFlag[] = FLAG_SPECS.map(({ name, kind }) => ({ name, kind }));
const WITH_VARIANTS = new Set(FLAG_SPECS.filter((f) => f.variants || f.strategies.some((s) => s.variants)).map((f) => f.name));

/** Stores the flags above in the default project's development environment (context fields region and tier first). */
export async function seedTypedFlags(app: TestApp): Promise<void> {
  for (const name of ['region', 'tier']) await ok(app.post('/api/admin/context', { name }), 201);
  for (const f of FLAG_SPECS) {
    await ok(app.post(P, { name: f.name }), 201);
    for (const s of f.strategies) await ok(app.post(`${envPath(f.name)}/strategies`, s));
    if (f.variants) await ok(app.put(`${envPath(f.name)}/variants`, f.variants));
    if (f.dependsOn) await ok(app.post(`${P}/${f.name}/dependencies`, { feature: f.dependsOn }));
    if (f.on !== false) await ok(app.post(`${envPath(f.name)}/on`));
  }
}

export async function frontendToken(app: TestApp, name: string, type: 'frontend' | 'client' = 'frontend'): Promise<string> {
  return (await ok(app.post('/api/admin/api-tokens', { tokenName: name, type, environment: 'development', projects: ['default'] }), 201)).secret;
}

/** The default each typed getter is called with: none of them is a value any flag has. */
export const DEFAULTS: Record<FlagKind, unknown> = { boolean: false, string: 'the-default', number: -1, object: { the: 'default' } };

// ---- contexts ----------------------------------------------------------------------------------------------------

export type OfrepContext = Record<string, string | number | boolean | null>;
export interface UnleashContext { userId?: string; sessionId?: string; remoteAddress?: string; currentTime?: string; appName?: string; environment?: string; properties?: Record<string, string> }

const TOP_LEVEL = new Set(['userId', 'sessionId', 'remoteAddress', 'currentTime', 'appName', 'environment']);

/** The Unleash context the contract maps an OpenFeature context to: targetingKey is userId, other keys are properties. */
export function unleashContext(ctx: OfrepContext): UnleashContext {
  const out: Record<string, unknown> = {};
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx)) {
    if (value === null || key === 'targetingKey') continue;
    if (TOP_LEVEL.has(key)) out[key] = String(value);
    else properties[key] = String(value);
  }
  if (ctx.targetingKey !== undefined && ctx.targetingKey !== null && out.userId === undefined) out.userId = String(ctx.targetingKey);
  if (Object.keys(properties).length > 0) out.properties = properties;
  return out as UnleashContext;
}

/** An Unleash context (a client specification case's) as an OpenFeature SDK sends it: flat, userId as targetingKey. */
export function ofrepContext(ctx: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ctx)) if (key !== 'properties') out[key] = value;
  if (out.userId !== undefined) {
    out.targetingKey = out.userId;
    delete out.userId;
  }
  for (const [key, value] of Object.entries((ctx.properties ?? {}) as Record<string, unknown>)) if (!(key in out)) out[key] = value;
  return out;
}

// ---- what the frontend API and the playground say ------------------------------------------------------------------

/** A flag's evaluation details as an OpenFeature SDK gives them, without flagKey and metadata. */
export interface Details { value: unknown; variant?: string; reason?: string; errorCode?: string }

export interface Expectation {
  /** The value OFREP must answer; undefined when it must leave it out (off with variants: the SDK's default). */
  value?: unknown;
  variant: string;
  reason: 'STATIC' | 'TARGETING_MATCH' | 'SPLIT' | 'DISABLED' | 'DEFAULT';
}

const ROLLOUTS = new Set(['flexibleRollout', 'gradualRolloutUserId', 'gradualRolloutSessionId', 'gradualRolloutRandom']);

export function typedPayload(payload: { type: string; value: string }): unknown {
  if (payload.type === 'number') return Number(payload.value);
  if (payload.type === 'json') return JSON.parse(payload.value);
  return payload.value;
}

function contextValue(ctx: UnleashContext, name: string): string | undefined {
  return (ctx as Record<string, unknown>)[name] as string | undefined ?? ctx.properties?.[name];
}

/**
 * The reason for a playground evaluation, by the contract: switched off DISABLED; nothing matched DEFAULT; the first
 * strategy that matched: a rollout under 100% SPLIT, constraints/segments/user ids/addresses TARGETING_MATCH, else
 * STATIC. A flag variant picked by an override is TARGETING_MATCH and one drawn by weight among several is SPLIT
 * (src/domain/playground/explain.ts's rule: the contract says nothing of variants).
 */
function reasonOf(f: any, ctx: UnleashContext): Expectation['reason'] {
  if (!f.isEnabledInCurrentEnvironment) return 'DISABLED';
  if (!f.isEnabled) return 'DEFAULT';
  const s = f.strategies.data.find((d: any) => !d.disabled && d.result.enabled === true);
  let reason: Expectation['reason'] = 'STATIC';
  if (s && ROLLOUTS.has(s.name) && Number(s.parameters.rollout ?? s.parameters.percentage ?? 100) < 100) reason = 'SPLIT';
  else if (s && (s.constraints.length > 0 || s.segments.length > 0 || s.name === 'userWithId' || s.name === 'remoteAddress')) reason = 'TARGETING_MATCH';
  if (f.variant.enabled && f.variants.length > 0) {
    const chosen = f.variants.find((v: any) => v.name === f.variant.name);
    if (chosen?.overrides?.some((o: any) => o.values.includes(contextValue(ctx, o.contextName)))) return 'TARGETING_MATCH';
    if (reason === 'STATIC' && f.variants.filter((v: any) => v.weight > 0).length > 1) return 'SPLIT';
  }
  return reason;
}

/**
 * The value and variant the contract derives from an evaluation (playground or frontend API terms). A flag without
 * variants is its enabled state ("on"/"off"). A flag with variants (its own or a strategy's, as
 * src/domain/ofrep/ofrep-values.ts decides) is read as a variant's payload: with no variant handed out (off, or on by a
 * strategy without variants) it has no value, variant "disabled", and the SDK gives the caller's default.
 */
export function valueOf(isEnabled: boolean, v: { name: string; enabled: boolean; payload?: { type: string; value: string } }, hasVariants: boolean): Omit<Expectation, 'reason'> {
  if (!hasVariants) return { value: isEnabled, variant: isEnabled ? 'on' : 'off' };
  if (!isEnabled || !v.enabled) return { variant: 'disabled' };
  return { value: v.payload ? typedPayload(v.payload) : v.name, variant: v.name };
}

/**
 * What an SDK must answer for each flag in this context, from `POST /api/frontend` (with `token`) and the playground,
 * after checking that the two agree (enabled state and variant). The frontend API lists only enabled flags.
 */
export async function expectations(app: TestApp, token: string, ctx: OfrepContext): Promise<Map<string, Expectation>> {
  const context = { appName: APP_NAME, ...unleashContext(ctx) };
  const frontend = await ok(app.post('/api/frontend', { context }, { token }));
  const toggles = new Map<string, any>(frontend.toggles.map((t: any) => [t.name, t]));
  // The frontend API fills in the caller's address and the default environment name, as Unleash does.
  const played = await ok(app.post('/api/admin/playground', {
    environment: 'development', projects: ['default'], context: { remoteAddress: '127.0.0.1', environment: 'default', ...context },
  }));
  const out = new Map<string, Expectation>();
  for (const f of played.features) {
    const t = toggles.get(f.name);
    const disabled = { name: 'disabled', enabled: false };
    const fromFrontend = { isEnabled: Boolean(t?.enabled), variant: t?.variant ?? disabled };
    if (JSON.stringify(fromFrontend) !== JSON.stringify({ isEnabled: f.isEnabled, variant: f.variant })) {
      throw new Error(`the frontend API and the playground disagree on ${f.name} for ${JSON.stringify(context)}: ${JSON.stringify(fromFrontend)} / ${JSON.stringify(f.variant)}`);
    }
    out.set(f.name, { ...valueOf(f.isEnabled, f.variant, WITH_VARIANTS.has(f.name) || f.variants.length > 0), reason: reasonOf(f, context) });
  }
  return out;
}

/** The details an SDK must give for `flag` read with its kind's default, given the expectation. */
export function expectedDetails(expectation: Expectation, kind: FlagKind): Details {
  return { value: expectation.value === undefined ? DEFAULTS[kind] : expectation.value, variant: expectation.variant, reason: expectation.reason, errorCode: undefined };
}

// ---- recording fetch ---------------------------------------------------------------------------------------------

export interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  requestHeaders: Headers;
  requestBody: any;
  status: number;
  etag: string | null;
  /** The JSON body of a 200 answer. */
  body?: any;
}

/** A fetch for an OFREP provider that appends each exchange to `log`. */
export function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const text = await request.clone().text();
    const res = await fetch(request);
    const url = new URL(request.url);
    const json = res.status === 200 && (res.headers.get('content-type') ?? '').includes('json');
    log.push({
      method: request.method, path: url.pathname, query: url.searchParams, requestHeaders: request.headers, requestBody: text ? JSON.parse(text) : undefined,
      status: res.status, etag: res.headers.get('etag'), ...(json ? { body: await res.clone().json() } : {}),
    });
    return res;
  };
}

// ---- a browser's EventSource ----------------------------------------------------------------------------------------

/**
 * EventSource as a browser has it, over fetch: a GET with `Accept: text/event-stream` and no other header (a browser
 * sends no Authorization, so the URL must be enough), `Last-Event-ID` on a reconnection, `open` / `message` / `error`
 * events, reconnection after a dropped stream, failure for good on an answer that is not a 200 event stream.
 */
export class BrowserEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every instance made, in order (a test closes what is left open). */
  static readonly made: BrowserEventSource[] = [];
  readyState = BrowserEventSource.CONNECTING;
  /** The status of each connection attempt, and the messages received. */
  readonly statuses: number[] = [];
  readonly messages: string[] = [];
  private lastEventId = '';
  private retryMs = 1000;
  private controller?: AbortController;

  constructor(readonly url: string) {
    super();
    BrowserEventSource.made.push(this);
    void this.run();
  }

  close(): void {
    this.readyState = BrowserEventSource.CLOSED;
    this.controller?.abort();
  }

  private async run(): Promise<void> {
    while (this.readyState !== BrowserEventSource.CLOSED) {
      this.controller = new AbortController();
      try {
        const headers: Record<string, string> = { accept: 'text/event-stream' };
        if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
        const res = await fetch(this.url, { headers, signal: this.controller.signal });
        this.statuses.push(res.status);
        if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
          await res.body?.cancel();
          this.readyState = BrowserEventSource.CLOSED;
          this.dispatchEvent(new Event('error'));
          return;
        }
        this.readyState = BrowserEventSource.OPEN;
        this.dispatchEvent(new Event('open'));
        await this.read(res.body!);
      } catch {
        // aborted by close(), or the connection dropped: reconnect below unless closed
      }
      if (this.readyState === BrowserEventSource.CLOSED) return;
      this.readyState = BrowserEventSource.CONNECTING;
      this.dispatchEvent(new Event('error'));
      await new Promise((r) => setTimeout(r, this.retryMs));
    }
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    let data: string[] = [];
    let event = '';
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split(/\r\n|\n|\r/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) {
            const text = data.join('\n');
            this.messages.push(text);
            this.dispatchEvent(new MessageEvent(event || 'message', { data: text, lastEventId: this.lastEventId }));
          }
          data = [];
          event = '';
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
        else if (field === 'id') this.lastEventId = value;
        else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
      }
    }
  }
}

/** A browser's localStorage, in memory (the web provider keeps its flag cache and ETag there). */
export class MemoryStorage {
  private readonly items = new Map<string, string>();
  get length(): number { return this.items.size; }
  key(i: number): string | null { return [...this.items.keys()][i] ?? null; }
  getItem(key: string): string | null { return this.items.get(key) ?? null; }
  setItem(key: string, value: string): void { this.items.set(key, String(value)); }
  removeItem(key: string): void { this.items.delete(key); }
  clear(): void { this.items.clear(); }
}
