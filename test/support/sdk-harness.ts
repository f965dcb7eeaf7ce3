/**
 * The official Node SDK (unleash-client) against a test app, in each of the ways it reads flags, and a check that an
 * SDK holds exactly what `GET /api/client/features` answers for its token. Used by the issue 32 acceptance tests
 * (test/e2e/rest/sdk-specification.test.ts, test/e2e/rest/sdk-follows-changes.test.ts).
 */
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import type { TestApp } from './harness';

type UnleashOptions = ConstructorParameters<typeof Unleash>[0];

/**
 * How an SDK reads flags: `full` polls whole answers from /api/client/features (the SDK's default), `streaming` holds
 * /api/client/streaming open, `delta` polls /api/client/delta (issue 32).
 */
export type SdkMode = 'full' | 'streaming' | 'delta';
export const ALL_SDK_MODES: readonly SdkMode[] = ['full', 'streaming', 'delta'];
export const SDK_MODE_OPTIONS: Record<SdkMode, Partial<UnleashOptions>> = {
  full: {},
  streaming: { experimentalMode: { type: 'streaming' } },
  delta: { experimentalMode: { type: 'polling', format: 'delta' } },
};

/** The `Unleash-Client-Spec` the SDK sends (its SUPPORTED_SPEC_VERSION): segments come once, referenced by id. */
export const SDK_CLIENT_SPEC = '5.2.0';

export interface ClientState {
  features: Array<Record<string, any>>;
  segments: Array<Record<string, any>>;
}

export interface SdkHandle {
  mode: SdkMode;
  sdk: Unleash;
  /** Where the SDK's repository saves each state it applies: its flags and segments as it holds them. */
  storage: InMemStorageProvider<any>;
  appName: string;
  errors: unknown[];
  warnings: unknown[];
  /** Mode switches the SDK made (a stream that fails over to polling reports one). */
  modeChanges: unknown[];
  destroy(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Destroys an SDK client for good. destroy() stops its repository, which drops every listener of the repository, yet a
 * fetch it did not cancel can still fail once the test's app has closed (CI saw ECONNREFUSED from the fetcher, twice):
 * the repository re-emits it as 'error', which unheard fails whichever test file the worker runs next.
 */
export function stopSdk(sdk: Unleash): void {
  sdk.destroy();
  (sdk as unknown as { repository?: { on(event: string, listener: () => void): unknown } }).repository?.on(UnleashEvents.Error, () => undefined);
  sdk.on(UnleashEvents.Error, () => undefined);
}

/**
 * Starts the SDK in `mode` with `token` and waits until it has read flags once (Synchronized). Fails, naming the mode,
 * when it reports an error or warning first or does not synchronize within `timeoutMs`.
 */
export async function startSdk(app: TestApp, token: string, mode: SdkMode, options: Partial<UnleashOptions> = {}, timeoutMs = 5000): Promise<SdkHandle> {
  const storage = new InMemStorageProvider<any>();
  const appName = options.appName ?? `sdk-${mode}`;
  const sdk = new Unleash({
    url: `${app.url}/api`, appName, customHeaders: { Authorization: token }, disableMetrics: true, refreshInterval: 200,
    storageProvider: storage, skipInstanceCountWarning: true, ...SDK_MODE_OPTIONS[mode], ...options,
  });
  const stop = () => stopSdk(sdk);
  const handle: SdkHandle = { mode, sdk, storage, appName, errors: [], warnings: [], modeChanges: [], destroy: stop };
  sdk.on(UnleashEvents.Error, (e) => handle.errors.push(e));
  sdk.on(UnleashEvents.Warn, (w) => handle.warnings.push(w));
  sdk.on(UnleashEvents.Mode, (m) => handle.modeChanges.push(m));
  let synchronized = false;
  sdk.once(UnleashEvents.Synchronized, () => { synchronized = true; });
  const started = Date.now();
  while (!synchronized) {
    if (handle.errors.length > 0 || handle.warnings.length > 0 || Date.now() - started > timeoutMs) {
      stop();
      const why = handle.errors.length || handle.warnings.length ? `reported ${describe([...handle.errors, ...handle.warnings])}` : `did not synchronize within ${timeoutMs} ms`;
      throw new Error(`the SDK in ${mode} mode ${why}`);
    }
    await sleep(10);
  }
  return handle;
}

function describe(items: unknown[]): string {
  return items.map((i) => (i instanceof Error ? i.message : typeof i === 'string' ? i : JSON.stringify(i))).join('; ');
}

/** What `GET /api/client/features` answers for `token`, as the SDK asks for it (segments sent once). */
export async function clientAnswer(app: TestApp, token: string): Promise<ClientState> {
  const res = await app.get('/api/client/features', { token, headers: { 'unleash-client-spec': SDK_CLIENT_SPEC } });
  if (res.status !== 200) throw new Error(`GET /api/client/features answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { features: res.body.features, segments: res.body.segments ?? [] };
}

/** The flags and segments the SDK holds now (as its repository last saved them). */
export async function sdkState(handle: SdkHandle): Promise<ClientState> {
  const saved = await handle.storage.get(handle.appName);
  return { features: saved?.features ?? [], segments: saved?.segments ?? [] };
}

/** JSON with object keys sorted, so two values compare by content (list order is kept: it matters to SDKs). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/**
 * How `got` differs from `want`: flags missing, extra or different (both versions shown), and segments likewise.
 * Empty when they hold the same flags and segments with the same content (order of flags and segments aside).
 */
export function stateDifferences(want: ClientState, got: ClientState): string[] {
  const out: string[] = [];
  const compare = (kind: string, key: (x: Record<string, any>) => string, a: Array<Record<string, any>>, b: Array<Record<string, any>>) => {
    const wanted = new Map(a.map((x) => [key(x), x]));
    const held = new Map(b.map((x) => [key(x), x]));
    for (const [k, w] of wanted) {
      const h = held.get(k);
      if (!h) out.push(`${kind} ${k} missing; the client API has ${canonical(w)}`);
      else if (canonical(h) !== canonical(w)) out.push(`${kind} ${k} differs:\n    client API: ${canonical(w)}\n    SDK:        ${canonical(h)}`);
    }
    for (const [k, h] of held) if (!wanted.has(k)) out.push(`${kind} ${k} is held by the SDK but not in the client API: ${canonical(h)}`);
  };
  compare('flag', (f) => String(f.name), want.features, got.features);
  compare('segment', (s) => String(s.id), want.segments, got.segments);
  return out;
}

/**
 * Waits until the SDK holds exactly what the client API answers for `token` (read again on each try, so a change
 * still being committed is waited for too); on timeout fails with the differences of the last try.
 */
export async function untilSdkMatches(app: TestApp, token: string, handle: SdkHandle, timeoutMs = 5000, label = ''): Promise<void> {
  const started = Date.now();
  let differences: string[] = [];
  for (;;) {
    const want = await clientAnswer(app, token);
    differences = stateDifferences(want, await sdkState(handle));
    if (differences.length === 0) return;
    if (Date.now() - started > timeoutMs) break;
    await sleep(50);
  }
  const shown = differences.slice(0, 8).join('\n  ');
  const more = differences.length > 8 ? `\n  ... and ${differences.length - 8} more` : '';
  throw new Error(`${label ? `${label}: ` : ''}the SDK in ${handle.mode} mode does not hold the client API's answer after ${timeoutMs} ms `
    + `(${differences.length} difference${differences.length === 1 ? '' : 's'}):\n  ${shown}${more}`);
}
