import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';
import { stopSdk } from '../../support/sdk-harness';

/**
 * Issue 32 part 4: Unleash 8.2's SEMVER_GTE, SEMVER_LTE and REGEX operators through the REST doors. Saved on strategies
 * (feature-strategies.test.ts has the per-operator rules) and segments, refused at save when RE2 cannot compile a
 * pattern (400 naming the constraint), through the import too; evaluated alike by the playground, the frontend API
 * and a change request's preview; served unchanged by /api/client/features, where the official Node SDK evaluates
 * them as the playground does. A pattern stored before the rule existed evaluates false everywhere, never a 500.
 */
let app: TestApp;
const P = '/api/admin/projects/default/features';
const env = (feature: string, environment = 'development', project = 'default') => `/api/admin/projects/${project}/features/${feature}/environments/${environment}`;
let frontendToken = '';
let clientToken = '';
let emailSegment = 0;
const sdks: Unleash[] = [];

const ok = async <T = any>(reply: Promise<Reply<T>>, status = 200): Promise<T> => {
  const res = await reply;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const sql = (text: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(text, params);

async function flag(name: string, strategies: unknown[]): Promise<void> {
  await ok(app.post(P, { name }), 201);
  for (const s of strategies) await ok(app.post(`${env(name)}/strategies`, s));
  await ok(app.post(`${env(name)}/on`));
}

const FLAGS = ['op-regex', 'op-semver', 'op-segment', 'op-inverted', 'op-stale'];
/** Contexts and, per flag, whether it is on for them (worked out from the rules below by hand). */
const CASES: Array<{ context: Record<string, unknown>; on: string[] }> = [
  { context: { userId: 'USER-42', properties: { version: '2.0.0', email: 'a@example.com' } }, on: ['op-regex', 'op-semver', 'op-segment'] },
  { context: { userId: 'user-7x', properties: { version: '3.0.0', email: 'a@EXAMPLE.com' } }, on: ['op-semver', 'op-inverted'] },
  { context: { userId: 'admin', properties: { version: '3.0.1', email: 'b@example.com.evil' } }, on: ['op-inverted'] },
  { context: { userId: 'user-1', properties: { version: '2.0.0-rc.1', email: 'x@example.com' } }, on: ['op-regex', 'op-segment'] },
  { context: { properties: { version: 'v2.1.0' } }, on: ['op-inverted'] },
];

beforeAll(async () => {
  app = await startTestApp();
  for (const name of ['version', 'email']) await ok(app.post('/api/admin/context', { name }), 201);
  emailSegment = (await ok(app.post('/api/admin/segments', {
    name: 'example-staff', constraints: [{ contextName: 'email', operator: 'REGEX', value: '@example\\.com$' }],
  }), 201)).id;
  await flag('op-regex', [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'REGEX', value: '^user-\\d+$', caseInsensitive: true }] }]);
  await flag('op-semver', [{ name: 'default', constraints: [
    { contextName: 'version', operator: 'SEMVER_GTE', value: '2.0.0' },
    { contextName: 'version', operator: 'SEMVER_LTE', value: '3.0.0' },
  ] }]);
  await flag('op-segment', [{ name: 'default', segments: [emailSegment] }]);
  await flag('op-inverted', [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'REGEX', value: '\\d$', inverted: true }] }]);
  // A pattern RE2 refuses, as data stored before the save-time rule (or written by another tool) would hold it.
  await flag('op-stale', [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'REGEX', value: 'placeholder' }] }]);
  await sql(`update feature_strategies set constraints = jsonb_set(constraints, '{0,value}', '"(regex"') where feature_name = 'op-stale'`);
  frontendToken = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'ops-frontend', type: 'frontend', environment: 'development', projects: ['default'] }), 201)).secret;
  clientToken = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'ops-client', type: 'client', environment: 'development', projects: ['default'] }), 201)).secret;
});
afterAll(async () => {
  for (const sdk of sdks) stopSdk(sdk);
  await app.close();
});

describe('saving segments', () => {
  const segmentRows = () => sql('select id, name, constraints from segments order by id');

  it('stores SEMVER_GTE, SEMVER_LTE and REGEX constraints in their normalised form', async () => {
    const created = await ok(app.post('/api/admin/segments', { name: 'u8-ok', constraints: [
      { contextName: 'version', operator: 'SEMVER_GTE', value: '1.0.0' },
      { contextName: 'version', operator: 'SEMVER_LTE', value: '1.9.9', inverted: true },
      { contextName: 'userId', operator: 'REGEX', value: '^(?:a|b)+$', caseInsensitive: true },
    ] }), 201);
    expect(created.constraints).toEqual([
      { contextName: 'version', operator: 'SEMVER_GTE', values: [], caseInsensitive: false, inverted: false, value: '1.0.0' },
      { contextName: 'version', operator: 'SEMVER_LTE', values: [], caseInsensitive: false, inverted: true, value: '1.9.9' },
      { contextName: 'userId', operator: 'REGEX', values: [], caseInsensitive: true, inverted: false, value: '^(?:a|b)+$' },
    ]);
    expect((await ok(app.get(`/api/admin/segments/${created.id}`))).constraints).toEqual(created.constraints);
  });

  it('refuses a pattern RE2 cannot compile on create and on update: 400 ValidationError naming the constraint, nothing written', async () => {
    const rows = await segmentRows();
    const events = (await app.events()).length;
    const create = await app.post('/api/admin/segments', { name: 'u8-bad', constraints: [{ contextName: 'userId', operator: 'REGEX', value: '(?<=a)b' }] });
    expect({ status: create.status, name: create.body.name }).toEqual({ status: 400, name: 'ValidationError' });
    expect(create.body.details).toEqual([{ path: 'constraints/0/value', message: expect.stringContaining('RE2') }]);
    const update = await app.put(`/api/admin/segments/${emailSegment}`, { name: 'example-staff', constraints: [
      { contextName: 'email', operator: 'REGEX', value: '@example\\.com$' },
      { contextName: 'userId', operator: 'REGEX', value: '(regex' },
      { contextName: 'version', operator: 'SEMVER_GTE', value: '2' },
    ] });
    expect({ status: update.status, name: update.body.name }).toEqual({ status: 400, name: 'ValidationError' });
    expect(update.body.details).toEqual([
      { path: 'constraints/1/value', message: '"value" must be a regular expression RE2 accepts (missing closing ): `(regex`). You sent "(regex".' },
      { path: 'constraints/2/value', message: expect.stringContaining('semver') },
    ]);
    expect(await segmentRows()).toEqual(rows);
    expect((await app.events()).length).toBe(events);
  });
});

describe('evaluation', () => {
  it('the playground evaluates each operator, in strategies and segments, with each constraint\'s result', async () => {
    for (const { context, on } of CASES) {
      const body = await ok(app.post('/api/admin/playground', { environment: 'development', projects: ['default'], context: { appName: 'u8', ...context } }));
      const enabled = body.features.filter((f: any) => FLAGS.includes(f.name) && f.isEnabled).map((f: any) => f.name).sort();
      expect({ context, enabled }).toEqual({ context, enabled: [...on].sort() });
    }
    const body = await ok(app.post('/api/admin/playground', { environment: 'development', context: { appName: 'u8', ...CASES[1].context } }));
    const semver = body.features.find((f: any) => f.name === 'op-semver').strategies.data[0];
    expect(semver.constraints).toEqual([
      { contextName: 'version', operator: 'SEMVER_GTE', values: [], caseInsensitive: false, inverted: false, value: '2.0.0', result: true },
      { contextName: 'version', operator: 'SEMVER_LTE', values: [], caseInsensitive: false, inverted: false, value: '3.0.0', result: true },
    ]);
    const segment = body.features.find((f: any) => f.name === 'op-segment').strategies.data[0].segments[0];
    expect(segment).toMatchObject({ id: emailSegment, result: false, constraints: [{ operator: 'REGEX', value: '@example\\.com$', result: false }] });
  });

  it('a stored pattern RE2 refuses evaluates false, as in SDKs, and is not a 500', async () => {
    const body = await ok(app.post('/api/admin/playground', { environment: 'development', context: { appName: 'u8', userId: '(regex' } }));
    const stale = body.features.find((f: any) => f.name === 'op-stale');
    expect(stale.isEnabled).toBe(false);
    expect(stale.strategies.data[0].constraints).toEqual([
      { contextName: 'userId', operator: 'REGEX', values: [], caseInsensitive: false, inverted: false, value: '(regex', result: false },
    ]);
  });

  it('the frontend API enables the same flags as the playground', async () => {
    for (const { context, on } of CASES) {
      const body = await ok(app.post('/api/frontend', { context: { appName: 'u8', ...context } }, { token: frontendToken }));
      const enabled = body.toggles.map((t: any) => t.name).filter((n: string) => FLAGS.includes(n)).sort();
      expect({ context, enabled }).toEqual({ context, enabled: [...on].sort() });
    }
  });

  it('the client API serves the constraints unchanged, and the official Node SDK evaluates them as the playground does', async () => {
    const body = await ok(app.get('/api/client/features', { token: clientToken }));
    const constraintsOf = (name: string) => body.features.find((f: any) => f.name === name).strategies[0].constraints;
    expect(constraintsOf('op-regex')).toEqual([{ contextName: 'userId', operator: 'REGEX', values: [], value: '^user-\\d+$', caseInsensitive: true }]);
    expect(constraintsOf('op-semver').map((c: any) => [c.operator, c.value])).toEqual([['SEMVER_GTE', '2.0.0'], ['SEMVER_LTE', '3.0.0']]);
    expect(constraintsOf('op-stale')).toEqual([{ contextName: 'userId', operator: 'REGEX', values: [], value: '(regex' }]);

    const sdk = new Unleash({
      url: `${app.url}/api`, appName: 'u8', customHeaders: { Authorization: clientToken }, disableMetrics: true,
      storageProvider: new InMemStorageProvider(), skipInstanceCountWarning: true,
    });
    sdks.push(sdk);
    const errors: unknown[] = [];
    sdk.on(UnleashEvents.Error, (e) => errors.push(e));
    await new Promise<void>((resolve) => {
      sdk.once(UnleashEvents.Synchronized, () => resolve());
      sdk.once(UnleashEvents.Error, () => resolve());
    });
    expect(errors).toEqual([]);
    for (const { context, on } of CASES) {
      const enabled = FLAGS.filter((f) => sdk.isEnabled(f, { appName: 'u8', ...context } as never)).sort();
      expect({ context, enabled }).toEqual({ context, enabled: [...on].sort() });
    }
  });
});

describe('the import', () => {
  const payload = (featureStrategies: unknown[]) => ({
    project: 'default', environment: 'development',
    data: { features: [{ name: 'u8-imported' }], featureStrategies, tagTypes: [] },
  });

  it('refuses a strategy whose pattern RE2 cannot compile, naming the constraint, and writes nothing', async () => {
    const body = payload([{ name: 'default', featureName: 'u8-imported', constraints: [{ contextName: 'userId', operator: 'REGEX', value: '^(?!admin)' }] }]);
    const validation = await ok(app.post('/api/admin/features-batch/validate', body));
    expect(validation.errors).toEqual([{
      message: 'We detected the following strategies that are not valid:',
      affectedItems: [expect.stringMatching(/^u8-imported \(featureStrategies\/0\/constraints\/0\/value\): "value" must be a regular expression RE2 accepts/)],
    }]);
    const res = await app.post('/api/admin/features-batch/import', body);
    expect({ status: res.status, name: res.body.name }).toEqual({ status: 400, name: 'ValidationError' });
    expect(res.body.details[0].message).toContain('featureStrategies/0/constraints/0/value');
    expect(await sql(`select name from features where name = 'u8-imported'`)).toEqual([]);
  });

  it('imports the new operators and the playground evaluates them', async () => {
    await ok(app.post('/api/admin/features-batch/import', payload([{ name: 'default', featureName: 'u8-imported', constraints: [
      { contextName: 'userId', operator: 'REGEX', value: '^vip-', caseInsensitive: true },
      { contextName: 'version', operator: 'SEMVER_GTE', value: '1.5.0' },
    ] }])));
    await ok(app.post(`${env('u8-imported')}/on`));
    const enabled = async (context: Record<string, unknown>) => (await ok(app.post('/api/admin/playground', { environment: 'development', context: { appName: 'u8', ...context } })))
      .features.find((f: any) => f.name === 'u8-imported').isEnabled;
    expect(await enabled({ userId: 'VIP-1', properties: { version: '1.5.0' } })).toBe(true);
    expect(await enabled({ userId: 'VIP-1', properties: { version: '1.4.9' } })).toBe(false);
    expect(await enabled({ userId: 'guest', properties: { version: '2.0.0' } })).toBe(false);
  });
});

describe('a change request\'s preview', () => {
  const PROJECT = 'u8-cr';
  const CR = `/api/admin/projects/${PROJECT}/environments/production/change-requests`;

  it('evaluates a REGEX and SEMVER_LTE constraint a request adds to a strategy, before and after', async () => {
    await ok(app.post('/api/admin/projects', { id: PROJECT, name: 'U8 change requests' }), 201);
    await ok(app.put(`${CR}/config`, { changeRequestsEnabled: true, requiredApprovals: 1 }), 204);
    await ok(app.post(`/api/admin/projects/${PROJECT}/features`, { name: 'u8-cr-flag' }), 201);
    // Switching on adds the project's default strategy (a 100 % rollout); the request constrains it.
    await ok(app.post(`${env('u8-cr-flag', 'production', PROJECT)}/on`));
    const [strategy] = await ok(app.get(`${env('u8-cr-flag', 'production', PROJECT)}/strategies`));
    expect(strategy).toMatchObject({ name: 'flexibleRollout', parameters: { rollout: '100' }, constraints: [] });
    const request = await ok(app.post(CR, [{ action: 'updateStrategy', feature: 'u8-cr-flag', payload: { id: strategy.id, name: strategy.name, parameters: strategy.parameters, constraints: [
      { contextName: 'email', operator: 'REGEX', value: '@example\\.(com|org)$' },
      { contextName: 'version', operator: 'SEMVER_LTE', value: '1.0.0' },
    ] } }]));
    const contexts = [
      { appName: 'u8', properties: { email: 'a@example.org', version: '1.0.0' } },
      { appName: 'u8', properties: { email: 'a@example.net', version: '0.9.0' } },
      { appName: 'u8', properties: { email: 'a@example.com', version: '1.0.1' } },
    ];
    const body = await ok(app.post(`/api/admin/projects/${PROJECT}/change-requests/${request.id}/preview`, { contexts }));
    const flagResults = body.features.find((f: any) => f.name === 'u8-cr-flag').results;
    expect(flagResults.map((r: any) => [r.before.isEnabled, r.after.isEnabled])).toEqual([[true, true], [true, false], [true, false]]);
    expect(flagResults[1].after.strategies.data[0].constraints.map((c: any) => [c.operator, c.result])).toEqual([['REGEX', false], ['SEMVER_LTE', true]]);
  });
});
