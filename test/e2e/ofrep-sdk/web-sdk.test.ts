/**
 * Issue 45 acceptance, browser side: the OpenFeature web SDK (@openfeature/web-sdk 1.10.0) with the OFREP web provider
 * (@openfeature/ofrep-web-provider 0.4.3, run in Node) against flagdeck's `/ofrep/v1`.
 *
 * - One bulk request per context, and every typed getter then answers what `/api/frontend` and the playground say
 *   for that context: value, variant and reason (test/support/ofrep-sdk.ts works those out without the OFREP code).
 * - FLAG_NOT_FOUND and TYPE_MISMATCH as the SDK documents them: the caller's default, reason ERROR, errorCode set.
 * - ETag revalidation: polling sends If-None-Match and is answered 304; a change made through the admin API is seen
 *   on the next poll (ConfigurationChanged). With the provider's persisted cache (localStorage), a restarted provider
 *   starts from the cache and revalidates it with a 304.
 * - Push: the provider (0.4.3 reads `eventStreams`, not `refreshConnections`) connects to the bulk answer's SSE URL
 *   as a browser would (no Authorization header) and re-fetches when flagdeck commits a change, without polling.
 *
 * Node 20 has no EventSource and no localStorage: test/support/ofrep-sdk.ts has a browser-like EventSource (installed
 * only for the push test) and an in-memory localStorage (only for the cache test); the other providers run with
 * `cacheMode: 'disabled'` and `changeDetection: 'polling'` or `'none'`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { OpenFeature, ProviderEvents, type Client, type EvaluationDetails, type FlagValue } from '@openfeature/web-sdk';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
import { startTestApp, type TestApp } from '../../support/harness';
import {
  APP_NAME, BrowserEventSource, DEFAULTS, MemoryStorage, OFREP, TYPED_FLAGS, envPath, expectations, expectedDetails, frontendToken, ok,
  recordingFetch, seedTypedFlags, type Details, type Exchange, type FlagKind, type OfrepContext,
} from '../../support/ofrep-sdk';
import { until } from '../../support/until';

let app: TestApp;
let token = '';
const P = '/api/admin/projects/default/features';

const CONTEXTS: OfrepContext[] = [
  { targetingKey: 'u1', region: 'eu', tier: 'pro', appName: APP_NAME },
  { targetingKey: 'u2', region: 'us', tier: 'free', appName: APP_NAME },
  { targetingKey: 'u7', tier: 'enterprise', appName: APP_NAME },
  { userId: 'u3', sessionId: 's9', region: 'eu', tier: 'enterprise', appName: APP_NAME },
  ...Array.from({ length: 12 }, (_, i): OfrepContext => ({ targetingKey: `user-${i}`, region: i % 3 === 0 ? 'eu' : 'apac', tier: i % 2 ? 'pro' : 'free', appName: APP_NAME })),
];

beforeAll(async () => {
  app = await startTestApp();
  await seedTypedFlags(app);
  for (const name of ['watched-poll', 'watched-push', 'watched-cache']) {
    await ok(app.post(P, { name }), 201);
    await ok(app.post(`${envPath(name)}/on`));
  }
  token = await frontendToken(app, 'ofrep-web');
});
afterEach(async () => {
  await OpenFeature.clearProviders();
  for (const es of BrowserEventSource.made) es.close();
});
afterAll(async () => {
  delete (globalThis as Record<string, unknown>).EventSource;
  delete (globalThis as Record<string, unknown>).localStorage;
  await app.close();
});

function provider(log: Exchange[], options: Partial<ConstructorParameters<typeof OFREPWebProvider>[0]> = {}) {
  return new OFREPWebProvider({
    baseUrl: app.url, headers: [['Authorization', token]], fetchImplementation: recordingFetch(log), cacheMode: 'disabled', changeDetection: 'none', ...options,
  });
}

/** The details a typed getter of the web SDK gives, without flagKey and metadata. */
function read(client: Client, flag: string, kind: FlagKind, def: unknown = DEFAULTS[kind]): Details {
  let d: EvaluationDetails<FlagValue>;
  if (kind === 'boolean') d = client.getBooleanDetails(flag, def as boolean);
  else if (kind === 'string') d = client.getStringDetails(flag, def as string);
  else if (kind === 'number') d = client.getNumberDetails(flag, def as number);
  else d = client.getObjectDetails(flag, def as never);
  return { value: d.value, variant: d.variant, reason: d.reason, errorCode: d.errorCode };
}

const bulk = (log: Exchange[]) => log.filter((x) => x.method === 'POST' && x.path === `${OFREP}/evaluate/flags`);

describe('the OpenFeature web SDK with the OFREP web provider', () => {
  it(`evaluates in bulk, and each typed getter answers what /api/frontend and the playground say, over ${CONTEXTS.length} contexts`, async () => {
    const log: Exchange[] = [];
    await OpenFeature.setProviderAndWait(provider(log), CONTEXTS[0]);
    const client = OpenFeature.getClient();
    const mismatches: unknown[] = [];
    const seen = { reasons: new Set<string>(), types: new Set<string>() };
    for (const [i, ctx] of CONTEXTS.entries()) {
      if (i > 0) await OpenFeature.setContext(ctx);
      const want = await expectations(app, token, ctx);
      for (const { name, kind } of TYPED_FLAGS) {
        const expected = expectedDetails(want.get(name)!, kind);
        const got = read(client, name, kind);
        if (JSON.stringify(got) !== JSON.stringify(expected)) mismatches.push({ ctx, name, got, expected });
        seen.reasons.add(expected.reason!);
        if (want.get(name)!.value !== undefined) seen.types.add(typeof want.get(name)!.value);
      }
    }
    expect({ count: mismatches.length, first: mismatches.slice(0, 5) }).toEqual({ count: 0, first: [] });
    expect([...seen.reasons].sort()).toEqual(['DEFAULT', 'DISABLED', 'SPLIT', 'STATIC', 'TARGETING_MATCH']);
    expect([...seen.types].sort()).toEqual(['boolean', 'number', 'object', 'string']);

    // One bulk request per context, each with that context, and no single-flag request.
    expect(log.every((x) => x.path === `${OFREP}/evaluate/flags`)).toBe(true);
    expect(bulk(log).map((x) => x.requestBody.context)).toEqual(CONTEXTS);
    for (const x of bulk(log)) {
      expect(x.status).toBe(200);
      expect(x.etag).toMatch(/^(W\/)?".+"$/);
      expect(x.body.flags.map((f: any) => f.key).sort()).toEqual(expect.arrayContaining(TYPED_FLAGS.map((f) => f.name).sort()));
    }
    // A flag that is off but has variants carries no value (the SDK gives the caller's default), only its variant.
    const off = bulk(log)[0].body.flags.find((f: any) => f.key === 'off-with-variants');
    expect(off).toEqual(expect.objectContaining({ key: 'off-with-variants', variant: 'disabled', reason: 'DISABLED' }));
    expect('value' in off).toBe(false);
  }, 60_000);

  it('gives FLAG_NOT_FOUND and TYPE_MISMATCH as the SDK documents: the default, reason ERROR, the error code', async () => {
    await OpenFeature.setProviderAndWait(provider([]), CONTEXTS[0]); // u1, eu, pro: number-variant is on
    const client = OpenFeature.getClient();
    expect(read(client, 'no-such-flag', 'boolean', true)).toEqual({ value: true, variant: undefined, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    expect(read(client, 'no-such-flag', 'object', { a: 1 })).toEqual({ value: { a: 1 }, variant: undefined, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    const mismatch = (value: unknown) => ({ value, variant: undefined, reason: 'ERROR', errorCode: 'TYPE_MISMATCH' });
    expect(read(client, 'bool-static', 'string', 'd')).toEqual(mismatch('d'));
    expect(read(client, 'bool-static', 'number', 3)).toEqual(mismatch(3));
    expect(read(client, 'string-variant', 'boolean', true)).toEqual(mismatch(true));
    expect(read(client, 'name-variant', 'number', 5)).toEqual(mismatch(5));
    expect(read(client, 'json-variant', 'string', 's')).toEqual(mismatch('s'));
    expect(read(client, 'number-variant', 'object', { n: 1 })).toEqual(mismatch({ n: 1 }));
    expect(read(client, 'number-variant', 'string', 's')).toEqual(mismatch('s'));
    // The same flags read with their own type answer a value (the mismatch was the caller's type, not the flag).
    expect(read(client, 'number-variant', 'number').value).toBe(42.5);
    expect(read(client, 'json-variant', 'object').value).toEqual({ theme: 'dark', sizes: [1, 2], beta: true });
  });

  it('revalidates with its ETag while polling (If-None-Match answered 304) and sees an admin change on the next poll', async () => {
    const log: Exchange[] = [];
    await OpenFeature.setProviderAndWait(provider(log, { pollInterval: 150, changeDetection: 'polling' }), { targetingKey: 'poller' });
    const client = OpenFeature.getClient();
    const changed: string[][] = [];
    client.addHandler(ProviderEvents.ConfigurationChanged, (e) => changed.push(e?.flagsChanged ?? []));
    expect(read(client, 'watched-poll', 'boolean')).toEqual({ value: true, variant: 'on', reason: 'STATIC', errorCode: undefined });
    const first = bulk(log)[0];
    expect(first.status).toBe(200);
    expect(first.requestHeaders.get('if-none-match')).toBeNull();

    await until(async () => bulk(log).filter((x) => x.status === 304).length >= 2, 'two polls answered 304');
    for (const x of bulk(log).slice(1)) {
      expect(x.requestHeaders.get('if-none-match')).toBe(first.etag);
      expect(x.status).toBe(304);
    }
    expect(changed).toEqual([]);
    expect(read(client, 'watched-poll', 'boolean').value).toBe(true);

    await ok(app.post(`${envPath('watched-poll')}/off`));
    await until(async () => changed.length > 0, 'ConfigurationChanged after the admin change');
    expect(changed[0]).toEqual(['watched-poll']);
    expect(read(client, 'watched-poll', 'boolean')).toEqual({ value: false, variant: 'off', reason: 'DISABLED', errorCode: undefined });
    const fresh = bulk(log).find((x) => x.status === 200 && x !== first)!;
    expect(fresh.etag).not.toBe(first.etag);
    // And the new ETag is the one revalidated from then on.
    await until(async () => bulk(log).at(-1)!.requestHeaders.get('if-none-match') === fresh.etag && bulk(log).at(-1)!.status === 304, 'a 304 for the new ETag');
  }, 20_000);

  it('starts a restarted provider from its persisted cache (localStorage) and revalidates it with a 304', async () => {
    (globalThis as Record<string, unknown>).localStorage = new MemoryStorage();
    const ctx = { targetingKey: 'cached-user', region: 'eu' };
    const firstLog: Exchange[] = [];
    await OpenFeature.setProviderAndWait(provider(firstLog, { cacheMode: 'local-cache-first' }), ctx);
    expect(read(OpenFeature.getClient(), 'watched-cache', 'boolean')).toEqual({ value: true, variant: 'on', reason: 'STATIC', errorCode: undefined });
    expect(bulk(firstLog).map((x) => x.status)).toEqual([200]);
    await OpenFeature.clearProviders();

    const log: Exchange[] = [];
    await OpenFeature.setProviderAndWait(provider(log, { cacheMode: 'local-cache-first' }), ctx);
    // Served from the cache at once, then revalidated in the background with the cached ETag.
    await until(async () => bulk(log).length === 1, 'the background revalidation');
    expect(bulk(log)[0].requestHeaders.get('if-none-match')).toBe(bulk(firstLog)[0].etag);
    expect(bulk(log)[0].status).toBe(304);
    expect(read(OpenFeature.getClient(), 'watched-cache', 'boolean')).toEqual({ value: true, variant: 'on', reason: 'CACHED', errorCode: undefined });
    delete (globalThis as Record<string, unknown>).localStorage;
  });

  it('connects to the bulk answer\'s event stream as a browser would and re-fetches when a change is committed (push, no polling)', async () => {
    (globalThis as Record<string, unknown>).EventSource = BrowserEventSource;
    const log: Exchange[] = [];
    await OpenFeature.setProviderAndWait(provider(log, { changeDetection: 'sse', pollInterval: 0 }), { targetingKey: 'pushed', region: 'eu' });
    const client = OpenFeature.getClient();
    const changed: string[][] = [];
    client.addHandler(ProviderEvents.ConfigurationChanged, (e) => changed.push(e?.flagsChanged ?? []));
    expect(read(client, 'watched-push', 'boolean').value).toBe(true);

    const answer = bulk(log)[0].body;
    expect(answer.eventStreams).toEqual([{ type: 'sse', url: expect.any(String), inactivityDelaySec: expect.any(Number) }]);
    expect(answer.refreshConnections).toEqual(answer.eventStreams);
    const url = new URL(answer.eventStreams[0].url); // absolute: a browser page elsewhere resolves a relative URL against itself
    expect(url.origin).toBe(app.url);
    expect(BrowserEventSource.made).toHaveLength(1);
    const es = BrowserEventSource.made[0];
    expect(es.url).toBe(answer.eventStreams[0].url);
    await until(async () => es.readyState === BrowserEventSource.OPEN || es.statuses.length > 0, 'the event stream to answer');
    expect(es.statuses).toEqual([200]);
    expect(es.readyState).toBe(BrowserEventSource.OPEN);

    await new Promise((r) => setTimeout(r, 300));
    expect(bulk(log)).toHaveLength(1); // nothing polls

    await ok(app.post(`${envPath('watched-push')}/off`));
    await until(async () => changed.length > 0, 'ConfigurationChanged pushed over the event stream');
    expect(changed[0]).toEqual(['watched-push']);
    expect(read(client, 'watched-push', 'boolean')).toEqual({ value: false, variant: 'off', reason: 'DISABLED', errorCode: undefined });
    expect(es.messages.map((m) => JSON.parse(m).type)).toContain('refetchEvaluation');
    const refetch = bulk(log)[1];
    expect(refetch.status).toBe(200);
    expect(refetch.requestBody.context).toEqual({ targetingKey: 'pushed', region: 'eu' });
    // The refetch carries what the event said (0.4.3 sends its etag as flagConfigEtag), and was not answered 304.
    const event = JSON.parse(es.messages.find((m) => JSON.parse(m).type === 'refetchEvaluation')!);
    if (event.etag) expect(refetch.query.get('flagConfigEtag')).toBe(event.etag);
  }, 20_000);
});
