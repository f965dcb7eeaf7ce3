import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { InMemStorageProvider, Unleash, UnleashEvents, type Context } from 'unleash-client';
import type { Principal } from '../../../src/domain/access/principal';
import { EventHub } from '../../../src/domain/events/event-hub';
import { SnapshotCache } from '../../../src/domain/playground/snapshot-cache';
import { createLogger } from '../../../src/logger';
import { errorHandler } from '../../../src/rest/errors';
import { clientFeaturesRouter } from '../../../src/rest/sdk/client-features.routes';
import { seededRandom } from '../../../src/domain/playground/hashing';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';
import { itWhen, NEEDS_POSTGRES } from '../../support/skip';
import { openSse } from '../../support/sse';
import { stopSdk } from '../../support/sdk-harness';

/**
 * Issue 14 parts 1 and 4 with the official Node SDK (unleash-client 6.12.1) against the service the test starts: it
 * evaluates flags exactly as our playground does over 1000 generated contexts (constraints with many operators,
 * segments, strategy and environment variants, dependencies), picks up a change at its next poll (and gets 304s in
 * between), and in streaming mode picks up a change without polling. The stream is also read with a plain SSE reader.
 */
let app: TestApp;
let token = '';
const P = '/api/admin/projects/default/features';
const env = (feature: string) => `${P}/${feature}/environments/development`;
const sdks: Unleash[] = [];

const ok = async <T = any>(reply: Promise<Reply<T>>, status = 200): Promise<T> => {
  const res = await reply;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
  return Date.now() - start;
}

/** Starts the SDK against the test app and waits until it has read the flags; destroyed after each test. */
async function startSdk(options: Partial<ConstructorParameters<typeof Unleash>[0]> = {}): Promise<{ sdk: Unleash; errors: unknown[]; warnings: unknown[] }> {
  const sdk = new Unleash({
    url: `${app.url}/api`, appName: 'sdk-test', customHeaders: { Authorization: token }, disableMetrics: true, refreshInterval: 200,
    storageProvider: new InMemStorageProvider(), skipInstanceCountWarning: true, ...options,
  });
  sdks.push(sdk);
  const errors: unknown[] = [];
  const warnings: unknown[] = [];
  sdk.on(UnleashEvents.Error, (e) => errors.push(e));
  sdk.on(UnleashEvents.Warn, (w) => warnings.push(w));
  let synchronized = false;
  sdk.once(UnleashEvents.Synchronized, () => { synchronized = true; });
  await until('the SDK to synchronize', () => synchronized || errors.length > 0);
  expect(errors).toEqual([]);
  return { sdk, errors, warnings };
}

beforeAll(async () => {
  app = await startTestApp();
  for (const [name, legalValues] of [['region', ['eu', 'us', 'asia']], ['tier', ['free', 'pro', 'enterprise']], ['appVersion', []], ['age', []], ['email', []]] as const) {
    await ok(app.post('/api/admin/context', { name, legalValues: legalValues.map((value) => ({ value })) }), 201);
  }
  const segment = async (name: string, constraints: unknown[]) => (await ok(app.post('/api/admin/segments', { name, constraints }), 201)).id as number;
  const adults = await segment('adults', [{ contextName: 'age', operator: 'NUM_GTE', value: '18' }]);
  const emea = await segment('emea', [{ contextName: 'region', operator: 'IN', values: ['eu'] }]);
  const feature = async (name: string, strategies: unknown[], options: { variants?: unknown[]; on?: boolean } = {}) => {
    await ok(app.post(P, { name, impressionData: name.endsWith('impression') }), 201);
    for (const s of strategies) await ok(app.post(`${env(name)}/strategies`, s));
    if (options.variants) await ok(app.put(`${env(name)}/variants`, options.variants));
    if (options.on ?? true) await ok(app.post(`${env(name)}/on`));
  };
  await feature('sdk-rollout', [{
    name: 'flexibleRollout', parameters: { rollout: '40', stickiness: 'userId', groupId: 'sdk-rollout' },
    constraints: [{ contextName: 'tier', operator: 'IN', values: ['pro', 'enterprise'] }],
    variants: [{ name: 'red', weight: 300, weightType: 'fix', stickiness: 'userId', payload: { type: 'string', value: 'r' } }, { name: 'green', stickiness: 'userId' }],
  }]);
  await feature('sdk-segmented', [{
    name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'sdk-segmented' }, segments: [adults, emea],
    constraints: [{ contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.2.0' }],
  }]);
  await feature('sdk-multi', [
    { name: 'userWithId', parameters: { userIds: 'u1,u7,u13' } },
    { name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'sessionId', groupId: 'sdk-multi' },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['asia'], inverted: true }, { contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['U1'], caseInsensitive: true }] },
  ], { variants: [
    { name: 'x', stickiness: 'sessionId', overrides: [{ contextName: 'userId', values: ['u3', 'u11'] }] },
    { name: 'y', weight: 200, weightType: 'fix', stickiness: 'sessionId', payload: { type: 'json', value: '{"y":true}' } },
    { name: 'z', stickiness: 'sessionId' },
  ] });
  await feature('sdk-dates', [{ name: 'default', constraints: [
    { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2025-06-01T00:00:00.000Z' },
    { contextName: 'age', operator: 'NUM_LT', value: '65' },
  ] }]);
  await feature('sdk-env-variants-impression', [{ name: 'default' }], { variants: [
    { name: 'one', stickiness: 'default', payload: { type: 'number', value: '1' } }, { name: 'two', stickiness: 'default' }, { name: 'three', stickiness: 'default' },
  ] });
  await feature('sdk-parent', [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: 'sdk-parent' } }],
    { variants: [{ name: 'blue', stickiness: 'userId' }, { name: 'green', stickiness: 'userId' }] });
  await feature('sdk-switched-off', [{ name: 'default' }], { on: false });
  for (const [child, dependency] of [['sdk-child-on', { feature: 'sdk-parent' }], ['sdk-child-blue', { feature: 'sdk-parent', variants: ['blue'] }], ['sdk-child-off', { feature: 'sdk-switched-off', enabled: false }]] as const) {
    await feature(child, [{ name: 'default' }]);
    await ok(app.post(`${P}/${child}/dependencies`, dependency));
  }
  await feature('sdk-remote', [{ name: 'remoteAddress', parameters: { IPs: '10.0.0.0/8, 192.168.1.1' } }]);
  await feature('sdk-gradual', [{ name: 'gradualRolloutUserId', parameters: { percentage: '30', groupId: 'sdk-gradual' } }]);
  await feature('sdk-strings', [{ name: 'default', constraints: [
    { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'], caseInsensitive: true },
    { contextName: 'email', operator: 'STR_CONTAINS', values: ['1', '3'] },
    { contextName: 'appVersion', operator: 'SEMVER_LT', value: '2.0.0' },
    { contextName: 'age', operator: 'NUM_EQ', value: '30', inverted: true },
  ] }]);
  await feature('sdk-some-disabled', [
    { name: 'default', disabled: true },
    { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: 'sdk-some-disabled' }, constraints: [{ contextName: 'tier', operator: 'NOT_IN', values: ['free'] }] },
  ]);
  await feature('sdk-no-strategy', []);
  token = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['default'] }), 201)).secret;
});
afterEach(() => {
  for (const sdk of sdks.splice(0)) stopSdk(sdk);
});
afterAll(async () => { await app.close(); });

/** A context drawn from `random`: userId sometimes absent, sessionId always (no random stickiness), the rest mixed. */
function generateContext(random: () => number): { sdk: Context; playground: Record<string, unknown> } {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const properties: Record<string, string> = {};
  const region = pick(['eu', 'us', 'asia', undefined]);
  if (region) properties.region = region;
  properties.tier = pick(['free', 'pro', 'enterprise']);
  properties.appVersion = pick(['1.0.0', '1.2.0', '1.2.1', '2.0.0-beta.1', '2.0.0', '10.1.0']);
  if (random() < 0.8) properties.age = String(10 + Math.floor(random() * 70));
  properties.email = `user${Math.floor(random() * 100)}@${pick(['example.com', 'Example.COM', 'other.org'])}`;
  const time = new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 365 * 86_400_000));
  const base: Record<string, string> = { appName: 'sdk-test', environment: 'default', sessionId: `s${Math.floor(random() * 1000)}`, remoteAddress: pick(['10.1.2.3', '192.168.1.1', '172.16.0.1', '8.8.8.8']) };
  if (random() < 0.7) base.userId = `u${Math.floor(random() * 50)}`;
  return {
    sdk: { ...base, currentTime: time, properties },
    playground: { ...base, currentTime: time.toISOString(), properties },
  };
}

async function batch<T>(tasks: Array<() => Promise<T>>, width = 8): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  }));
  return out;
}

describe('the official Node SDK', () => {
  it('evaluates every flag as the playground does, over 1000 generated contexts', async () => {
    const { sdk, warnings } = await startSdk();
    const random = seededRandom(20261125);
    const contexts = Array.from({ length: 1000 }, () => generateContext(random));
    const answers = await batch(contexts.map((c) => () => ok(app.post('/api/admin/playground', { environment: 'development', projects: ['default'], context: c.playground }))));
    const mismatches: unknown[] = [];
    const enabledCount = new Map<string, number>();
    const variantNames = new Map<string, Set<string>>();
    answers.forEach((answer, i) => {
      for (const f of answer.features) {
        const variant = sdk.getVariant(f.name, contexts[i].sdk);
        const got = { enabled: sdk.isEnabled(f.name, contexts[i].sdk), variant: { name: variant.name, enabled: variant.enabled, payload: variant.payload } };
        const want = { enabled: f.isEnabled, variant: { name: f.variant.name, enabled: f.variant.enabled, payload: f.variant.payload } };
        if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push({ feature: f.name, context: contexts[i].playground, got, want });
        if (f.isEnabled) enabledCount.set(f.name, (enabledCount.get(f.name) ?? 0) + 1);
        if (!variantNames.has(f.name)) variantNames.set(f.name, new Set());
        variantNames.get(f.name)!.add(f.variant.name);
      }
    });
    expect({ count: mismatches.length, features: [...new Set(mismatches.map((m: any) => m.feature))], first: mismatches.slice(0, 3) }).toEqual({ count: 0, features: [], first: [] });
    // The data set is not trivial: every flag with rules is on for some contexts and off for others, and the variant
    // flags show several variants.
    const features = answers[0].features.map((f: any) => f.name);
    expect(features).toHaveLength(15);
    for (const name of features) {
      const on = enabledCount.get(name) ?? 0;
      if (name === 'sdk-switched-off') expect(on).toBe(0);
      else if (['sdk-no-strategy', 'sdk-env-variants-impression', 'sdk-child-off'].includes(name)) expect([name, on]).toEqual([name, 1000]);
      else expect([name, on > 0 && on < 1000]).toEqual([name, true]);
    }
    for (const name of ['sdk-rollout', 'sdk-multi', 'sdk-env-variants-impression', 'sdk-parent']) expect([name, variantNames.get(name)!.size >= 3]).toEqual([name, true]);
    expect(warnings).toEqual([]);
  }, 120_000);

  it('picks up a change after its next poll, and gets 304s while nothing changes', async () => {
    const { sdk, errors } = await startSdk({ refreshInterval: 200 });
    let unchanged = 0;
    sdk.on(UnleashEvents.Unchanged, () => { unchanged += 1; });
    await until('a 304 poll', () => unchanged >= 2);
    const ctx = { userId: 'u1', properties: { tier: 'free' } };
    expect(sdk.isEnabled('sdk-no-strategy', ctx)).toBe(true);
    await ok(app.post(`${env('sdk-no-strategy')}/off`));
    const waited = await until('the SDK to see the flag off', () => !sdk.isEnabled('sdk-no-strategy', ctx));
    expect(waited).toBeLessThan(2000);
    await ok(app.post(`${env('sdk-no-strategy')}/on`));
    await until('the SDK to see the flag on again', () => sdk.isEnabled('sdk-no-strategy', ctx));
    expect(errors).toEqual([]);
  });

  it('in streaming mode (experimentalMode streaming) picks up a change without polling, within a second', async () => {
    let polls = 0;
    const { sdk, errors, warnings } = await startSdk({ refreshInterval: 60_000, experimentalMode: { type: 'streaming' } });
    const modes: unknown[] = [];
    sdk.on(UnleashEvents.Mode, (m) => modes.push(m));
    sdk.on(UnleashEvents.Unchanged, () => { polls += 1; });
    const ctx = { userId: 'u2' };
    expect(sdk.isEnabled('sdk-no-strategy', ctx)).toBe(true);
    const started = Date.now();
    await ok(app.post(`${env('sdk-no-strategy')}/off`));
    await until('the SDK to see the flag off', () => !sdk.isEnabled('sdk-no-strategy', ctx), 3000);
    expect(Date.now() - started).toBeLessThan(1000);
    // A change made without the services (no event is announced) is found by the poll of model_version.
    await app.orm.em.fork().execute(`update feature_environments set enabled = true where feature_name = 'sdk-no-strategy' and environment = 'development'`);
    const afterSql = Date.now();
    await until('the SDK to see the flag on', () => sdk.isEnabled('sdk-no-strategy', ctx), 3000);
    expect(Date.now() - afterSql).toBeLessThan(1000);
    expect({ polls, modes, errors, warnings }).toEqual({ polls: 0, modes: [], errors: [], warnings: [] });
  });
});

/** The client stream read with a plain SSE reader (test/support/sse.ts). */
const openStream = (headers: Record<string, string> = {}, streamToken = token, base = `${app.url}/api/client`) =>
  openSse(`${base}/streaming`, { authorization: streamToken, 'unleash-client-spec': '5.2.0', ...headers });

describe('GET /api/client/streaming read with a plain SSE client', () => {
  it('sends a hydration on connect, then only what changed after each change the token can see, within a second; nothing for changes it cannot see', async () => {
    const stream = await openStream();
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const connected = await stream.expectEvent();
      expect(connected.event).toBe('unleash-connected');
      const polled = await app.get('/api/client/features', { token, headers: { 'unleash-client-spec': '5.2.0', 'accept-encoding': 'identity' } });
      const [hydration] = connected.data.events;
      expect(connected.data.events).toHaveLength(1);
      expect([hydration.type, hydration.features, hydration.segments]).toEqual(['hydration', polled.body.features, polled.body.segments]);
      expect(connected.id).toBe(String(hydration.eventId));

      const started = Date.now();
      await ok(app.put(`${P}/sdk-dates`, { description: 'streamed' }));
      const updated = await stream.expectEvent();
      expect(Date.now() - started).toBeLessThan(1000);
      expect(updated.event).toBe('unleash-updated');
      expect(updated.data.events.map((e: any) => [e.type, e.feature?.name, e.feature?.description])).toEqual([['feature-updated', 'sdk-dates', 'streamed']]);
      expect(Number(updated.id)).toBeGreaterThan(Number(connected.id));

      // Not visible to this token: another project (the version moves, nothing it holds changes).
      await ok(app.post('/api/admin/projects', { id: 'elsewhere', name: 'Elsewhere' }), 201);
      await ok(app.post('/api/admin/projects/elsewhere/features', { name: 'sdk-elsewhere' }), 201);
      expect(await stream.next(1200)).toBe('timeout');
    } finally {
      stream.close();
    }
  });

  it('follows the token\'s scope, segments always apart; a frontend token is refused (403)', async () => {
    const other = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'sdk-elsewhere', type: 'client', environment: 'development', projects: ['elsewhere'] }), 201)).secret;
    const stream = await openStream({ 'unleash-client-spec': '4.0.0' }, other);
    try {
      const [hydration] = (await stream.expectEvent()).data.events;
      expect([hydration.features.map((f: any) => f.name), hydration.segments]).toEqual([['sdk-elsewhere'], []]);
    } finally {
      stream.close();
    }
    const frontend = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'sdk-frontend', type: 'frontend', environment: 'development', projects: ['*'] }), 201)).secret;
    const refused = await app.get('/api/client/streaming', { token: frontend });
    expect([refused.status, refused.body.name]).toEqual([403, 'NoAccessError']);
  });

  it('a bad filter is a 400 before the stream opens', async () => {
    const res = await app.get('/api/client/streaming?tag=nocolon', { token });
    expect([res.status, res.body.name, res.body.details[0].path]).toEqual([400, 'ValidationError', 'tag']);
  });

  it('limits: streams beyond the instance\'s maximum get a 429 with Retry-After; idle streams get keep-alive comments; the poll alone finds changes; HEAD opens nothing', async () => {
    // The router alone, with small limits, behind a door that sets a client token's principal; its own hub, which no
    // change is announced to, so only the poll of model_version can find the change below.
    const hub = new EventHub('local');
    const principal: Principal = { kind: 'api-token', name: 'limits', userId: null, isAdmin: false, rootRoleId: null, tokenType: 'client', tokenProjects: ['default'], tokenEnvironment: 'development' };
    const mini = express();
    mini.use('/api/client', (req, _res, next) => { (req as any).scope = { principal }; next(); },
      clientFeaturesRouter({ orm: app.orm, logger: createLogger('silent'), eventHub: hub, playgroundCache: new SnapshotCache(), metricsFlushMs: 5000, metricsRetentionHours: 48 },
        { streaming: { maxStreams: 1, keepAliveMs: 100, pollMs: 200 } }));
    mini.use(errorHandler(createLogger('silent')));
    const server: Server = await new Promise((resolve) => { const s = mini.listen(0, '127.0.0.1', () => resolve(s)); });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/client`;
    try {
      const first = await openStream({}, token, base);
      expect(typeof (await first.next())).toBe('object');
      const refused = await fetch(`${base}/streaming`);
      expect([refused.status, refused.headers.get('retry-after'), ((await refused.json()) as any).name]).toEqual([429, '30', 'TooManyRequestsError']);
      expect(await first.next(350)).toBe('timeout');
      expect(first.comments.length).toBeGreaterThanOrEqual(2);
      const started = Date.now();
      await app.orm.em.fork().execute(`update features set description = 'seen by the poll' where name = 'sdk-gradual'`);
      const updated = await first.expectEvent(2000);
      expect(updated.data.events.map((e: any) => [e.type, e.feature?.name, e.feature?.description])).toEqual([['feature-updated', 'sdk-gradual', 'seen by the poll']]);
      expect(Date.now() - started).toBeLessThan(1000);
      first.close();
      // The slot is given back when the client goes.
      await until('the slot to be free', async () => {
        const again = await openStream({}, token, base);
        const ok2 = again.res.status === 200;
        again.close();
        return ok2;
      });
      let head: Response | undefined;
      await until('HEAD to find a free slot', async () => (head = await fetch(`${base}/streaming`, { method: 'HEAD' })).status !== 429);
      expect([head!.status, head!.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
      // HEAD took no slot.
      const last = await openStream({}, token, base);
      expect(last.res.status).toBe(200);
      last.close();
    } finally {
      hub.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  const onPostgres = Boolean(process.env.FLAGDECK_TEST_DB);
  itWhen(onPostgres, NEEDS_POSTGRES)('on PostgreSQL, a stream served by one instance follows a change made through another as a delta, within a second', async () => {
    // Two more instances on the same database, announcing commits with LISTEN/NOTIFY as src/server.ts sets them up.
    const a = await startTestApp({ events: 'notify', reset: false });
    const b = await startTestApp({ events: 'notify', reset: false });
    const controller = new AbortController();
    try {
      const res = await fetch(`${b.url}/api/client/streaming`, { headers: { authorization: token, 'unleash-client-spec': '5.2.0' }, signal: controller.signal });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const readUntil = async (needle: string, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        while (!text.includes(needle)) {
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`no ${needle} within ${timeoutMs} ms`);
          let timer: NodeJS.Timeout | undefined;
          const chunk = await Promise.race([reader.read(), new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), left); })]);
          clearTimeout(timer);
          if (chunk && !chunk.done) text += decoder.decode(chunk.value, { stream: true });
        }
      };
      await readUntil('event: unleash-connected', 3000);
      const started = Date.now();
      await ok(a.put(`${P}/sdk-dates`, { description: 'changed through another instance' }));
      await readUntil('changed through another instance', 1000);
      expect(Date.now() - started).toBeLessThan(1000);
      // As a delta: the one flag, not the whole state again.
      const update = text.slice(text.lastIndexOf('event: unleash-updated'));
      expect([update.includes('"type":"feature-updated"'), update.includes('"type":"hydration"')]).toEqual([true, false]);
    } finally {
      controller.abort();
      await a.close();
      await b.close();
    }
  });

  it('streams end when the service stops (the event hub closes)', async () => {
    const stream = await openStream();
    expect(typeof (await stream.next())).toBe('object');
    app.eventHub.close();
    expect(await stream.next(2000)).toBe('end');
  });
});
