import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type * as ProxyClient from 'unleash-proxy-client' with { 'resolution-mode': 'import' };
import { seededRandom } from '../../../src/domain/playground/hashing';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Issue 14 acceptance: the official browser SDK (`unleash-proxy-client`, run in Node) against the frontend API sees the
 * same answers as the playground evaluates for the same contexts: rollouts with each stickiness, constraints of every
 * kind, segments, strategy and feature variants with payloads and overrides, a dependency, userWithId and
 * remoteAddress, over a few hundred seeded contexts, by GET and by POST. It also revalidates with its ETag (304) and
 * picks up a change on its next fetch.
 */

// The package is an ES module whose Node entry point is CommonJS (build/index.cjs): required at run time, its types
// read as the ES module's.
const { InMemoryStorageProvider, UnleashClient } = require('unleash-proxy-client') as typeof ProxyClient;
type UnleashClient = ProxyClient.UnleashClient;

let app: TestApp;
const P = '/api/admin/projects/default/features';
const env = (f: string) => `${P}/${f}/environments/development`;
let frontendToken = '';
const APP_NAME = 'sdk-web';
const CONTEXTS = 300;

async function ok<T = any>(call: Promise<Reply<T>>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
async function flag(name: string, strategies: Array<Record<string, unknown>>, on = true) {
  await ok(app.post(P, { name }), 201);
  for (const strategy of strategies) await ok(app.post(`${env(name)}/strategies`, strategy));
  if (on) await ok(app.post(`${env(name)}/on`));
}
const FLAGS: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  for (const name of ['region', 'tier', 'version', 'age']) await ok(app.post('/api/admin/context', { name }), 201);
  const euPro = await ok(app.post('/api/admin/segments', { name: 'eu-pro', constraints: [
    { contextName: 'region', operator: 'IN', values: ['eu', 'uk'] },
    { contextName: 'tier', operator: 'IN', values: ['pro', 'enterprise'] },
  ] }), 201);
  const rollout = (percent: number, stickiness: string, groupId: string) => ({ name: 'flexibleRollout', parameters: { rollout: String(percent), stickiness, groupId } });
  await flag('rollout-default', [rollout(50, 'default', 'rollout-default')]);
  await flag('rollout-user', [rollout(30, 'userId', 'rollout-user')]);
  await flag('rollout-session', [rollout(60, 'sessionId', 'rollout-session')]);
  await flag('rollout-region', [rollout(40, 'region', 'rollout-region')]);
  await flag('constraints', [{ name: 'default', constraints: [
    { contextName: 'region', operator: 'IN', values: ['eu', 'uk'] },
    { contextName: 'tier', operator: 'NOT_IN', values: ['free'] },
  ] }]);
  await flag('semver', [{ name: 'default', constraints: [{ contextName: 'version', operator: 'SEMVER_GT', value: '1.2.0' }] }]);
  await flag('numbers', [{ name: 'default', constraints: [{ contextName: 'age', operator: 'NUM_GTE', value: '18' }] }]);
  await flag('strings', [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'STR_ENDS_WITH', values: ['7', '3'], caseInsensitive: true, inverted: true }] }]);
  await flag('dates', [{ name: 'default', constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2020-01-01T00:00:00.000Z' }] }]);
  await flag('segmented', [{ name: 'default', segments: [euPro.id] }]);
  await flag('strategy-variants', [{ ...rollout(80, 'default', 'sv'), variants: [
    { name: 'sv-a', weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'A' } },
    { name: 'sv-b', weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"b":true}' } },
  ] }]);
  await flag('feature-variants', [{ name: 'default' }]);
  await ok(app.put(`${env('feature-variants')}/variants`, [
    { name: 'blue', weightType: 'variable', stickiness: 'default', payload: { type: 'csv', value: 'a,b' } },
    { name: 'green', weightType: 'fix', weight: 200, stickiness: 'default', overrides: [{ contextName: 'tier', values: ['enterprise'] }] },
    { name: 'red', weightType: 'variable', stickiness: 'default' },
  ]));
  // Sticky on region; enabled only where a region is given (without one the variant would be drawn at random).
  await flag('region-variants', [{ name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'uk', 'us', 'apac'] }] }]);
  await ok(app.put(`${env('region-variants')}/variants`, [
    { name: 'north', weightType: 'variable', stickiness: 'region' },
    { name: 'south', weightType: 'variable', stickiness: 'region' },
  ]));
  await flag('user-with-id', [{ name: 'userWithId', parameters: { userIds: 'u1, u2, u3, u50' } }]);
  await flag('remote', [{ name: 'remoteAddress', parameters: { IPs: '10.0.0.0/8, 127.0.0.1' } }]);
  await flag('parent', [rollout(50, 'default', 'parent')]);
  await flag('child', [{ name: 'default' }]);
  await ok(app.post(`${P}/child/dependencies`, { feature: 'parent' }));
  await flag('disabled-strategy', [{ ...rollout(0, 'default', 'ds'), sortOrder: 0 }, { name: 'default', sortOrder: 1, disabled: true }]);
  await flag('switched-off', [{ name: 'default' }], false);
  await flag('either', [
    { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u10', 'u11'] }] },
    rollout(10, 'userId', 'either'),
  ]);
  FLAGS.push(...(await ok(app.get(P))).features.map((f: any) => f.name));
  expect(FLAGS.length).toBeGreaterThanOrEqual(20);
  frontendToken = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'sdk-fe', type: 'frontend', environment: 'development', projects: ['default'] }), 201)).secret;
});
afterAll(async () => { await app.close(); });

interface SdkContext {
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  currentTime?: string;
  properties?: Record<string, string>;
}

/** Seeded contexts: the same on every run. Every one has a sessionId, as the SDK always sends one. */
function contexts(count: number, seed: number): SdkContext[] {
  const random = seededRandom(seed);
  const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)];
  const out: SdkContext[] = [];
  for (let i = 0; i < count; i++) {
    const context: SdkContext = { sessionId: `s${Math.floor(random() * 100_000)}` };
    if (random() < 0.7) context.userId = `u${Math.floor(random() * 200)}`;
    const remote = pick([undefined, undefined, '10.1.2.3', '192.168.1.7']);
    if (remote) context.remoteAddress = remote;
    if (random() < 0.2) context.currentTime = pick(['2019-06-01T00:00:00.000Z', '2031-06-01T00:00:00.000Z']);
    const properties: Record<string, string> = {};
    for (const [name, values] of Object.entries({
      region: ['eu', 'uk', 'us', 'apac'], tier: ['free', 'pro', 'enterprise'], version: ['1.0.0', '1.2.1', '2.0.0-beta.1', 'not-a-version'], age: ['17', '18', '65', 'old'],
    })) {
      if (random() < 0.75) properties[name] = pick(values);
    }
    context.properties = properties;
    out.push(context);
  }
  return out;
}

/** What the playground says for this context, by flag: `{isEnabled, variant}`. The frontend API fills in the caller's address. */
async function playground(context: SdkContext): Promise<Record<string, { isEnabled: boolean; variant: unknown }>> {
  const body = await ok(app.post('/api/admin/playground', {
    environment: 'development', projects: ['default'],
    context: { appName: APP_NAME, environment: 'default', remoteAddress: '127.0.0.1', ...context },
  }));
  return Object.fromEntries(body.features.map((f: any) => [f.name, { isEnabled: f.isEnabled, variant: f.variant }]));
}

/** What the SDK says for each flag, in the playground's terms. */
function sdkView(client: UnleashClient): Record<string, { isEnabled: boolean; variant: unknown }> {
  return Object.fromEntries(FLAGS.map((name) => {
    const { name: variantName, enabled, payload } = client.getVariant(name);
    return [name, { isEnabled: client.isEnabled(name), variant: payload === undefined ? { name: variantName, enabled } : { name: variantName, enabled, payload } }];
  }));
}

/** A client of the official SDK with a fetch that records each answer's status (to see the 304s). */
function sdk(options: { usePOSTrequests?: boolean; context?: SdkContext } = {}) {
  const statuses: number[] = [];
  const recordingFetch = async (url: string, init: RequestInit) => {
    const res = await globalThis.fetch(url, init);
    statuses.push(res.status);
    return res;
  };
  const client = new UnleashClient({
    url: `${app.url}/api/frontend`, clientKey: frontendToken, appName: APP_NAME, refreshInterval: 0, disableMetrics: true,
    fetch: recordingFetch, storageProvider: new InMemoryStorageProvider(), ...options,
  });
  return { client, statuses };
}

describe('the official browser SDK (unleash-proxy-client) against the frontend API', () => {
  it(`sees what the playground evaluates, over ${CONTEXTS} seeded contexts, by GET and by POST`, async () => {
    const viaGet = sdk();
    const viaPost = sdk({ usePOSTrequests: true });
    try {
      await viaGet.client.start();
      await viaPost.client.start();
      const mismatches: unknown[] = [];
      const seen = { enabled: 0, disabled: 0, variants: new Set<string>() };
      const list = contexts(CONTEXTS, 14);
      for (let i = 0; i < list.length; i++) {
        const context = list[i];
        const { client } = i % 3 === 2 ? viaPost : viaGet;
        await client.updateContext(context);
        expect(client.getError()).toBeUndefined();
        const want = await playground(context);
        const got = sdkView(client);
        for (const name of FLAGS) {
          if (JSON.stringify(got[name]) !== JSON.stringify(want[name])) mismatches.push({ context, name, sdk: got[name], playground: want[name] });
          if (want[name].isEnabled) seen.enabled += 1; else seen.disabled += 1;
          seen.variants.add(`${name}:${(want[name].variant as { name: string }).name}`);
        }
      }
      expect({ count: mismatches.length, first: mismatches.slice(0, 3) }).toEqual({ count: 0, first: [] });
      // The contexts exercise both answers and every variant.
      expect(seen.enabled).toBeGreaterThan(CONTEXTS * 3);
      expect(seen.disabled).toBeGreaterThan(CONTEXTS * 3);
      for (const v of ['strategy-variants:sv-a', 'strategy-variants:sv-b', 'feature-variants:blue', 'feature-variants:green', 'feature-variants:red', 'region-variants:north', 'region-variants:south']) {
        expect(seen.variants).toContain(v);
      }
      expect(viaGet.statuses.every((s) => s === 200 || s === 304)).toBe(true);
      expect(viaPost.statuses.every((s) => s === 200)).toBe(true);
    } finally {
      viaGet.client.stop();
      viaPost.client.stop();
    }
  }, 120_000);

  it('revalidates with its ETag (304, toggles kept) and picks up a change on its next fetch', async () => {
    const { client, statuses } = sdk({ context: { userId: 'u1', sessionId: 's1', properties: { region: 'eu', tier: 'pro' } } });
    try {
      await client.start();
      expect(statuses).toEqual([200]);
      expect(client.isEnabled('user-with-id')).toBe(true);
      const before = client.getAllToggles();
      await client.updateToggles();
      expect(statuses.at(-1)).toBe(304);
      expect(client.getAllToggles()).toEqual(before);
      await ok(app.post(`${env('user-with-id')}/off`));
      await client.updateToggles();
      expect(statuses.at(-1)).toBe(200);
      expect(client.isEnabled('user-with-id')).toBe(false);
      expect(client.getAllToggles()).toHaveLength(before.length - 1);
    } finally {
      client.stop();
    }
  });
});
