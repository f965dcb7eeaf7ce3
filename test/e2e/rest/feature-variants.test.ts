import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/environments', { name: 'staging', type: 'test' })).status).toBe(201);
  expect((await app.post('/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

const P = '/api/admin/projects';
const featurePath = (f: string, project = 'default') => `${P}/${project}/features/${f}`;
const variantsPath = (f: string, env = 'development', project = 'default') => `${featurePath(f, project)}/environments/${env}/variants`;
const patch = (path: string, body: unknown) => app.request('PATCH', path, body);

async function createFeature(name: string, project = 'default'): Promise<void> {
  expect((await app.post(`${P}/${project}/features`, { name })).status).toBe(201);
}

const lastEventId = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.events[0]?.id ?? 0;
/** Events written after `since`, oldest first. */
const eventsSince = async (since: number): Promise<any[]> => (await app.events()).filter((e) => e.id > since).reverse();

const feature = async (f: string, project = 'default') => (await app.get(featurePath(f, project))).body;
const envVariants = async (f: string, env = 'development') => (await app.get(variantsPath(f, env))).body.variants;

/** Runs a request that must fail, and checks that nothing was written: no event, the features read back the same. */
async function failsWithoutChange(features: string[], call: () => Promise<Reply>, status: number, name: string): Promise<Reply> {
  const since = await lastEventId();
  const before = await Promise.all(features.map((f) => feature(f)));
  const res = await call();
  expect({ status: res.status, name: res.body?.name }).toEqual({ status, name });
  expect(typeof res.body.message).toBe('string');
  expect(await eventsSince(since)).toEqual([]);
  expect(await Promise.all(features.map((f) => feature(f)))).toEqual(before);
  return res;
}

/** A stored variant: every default filled in. */
const variant = (name: string, weight: number, extra: Record<string, unknown> = {}) => ({
  name, weight, weightType: 'variable', stickiness: 'default', overrides: [], ...extra,
});

describe('environment variants: GET and PUT', () => {
  beforeAll(async () => { await createFeature('var'); });

  it('GET answers {version: 1, variants: []} for a feature without variants', async () => {
    const res = await app.get(variantsPath('var'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, variants: [] });
  });

  it('PUT shares 1000 between three variable variants (334/333/333), sorts by name, and records the event', async () => {
    const since = await lastEventId();
    const res = await app.put(variantsPath('var'), [{ name: 'c' }, { name: 'a', weight: 900 }, { name: 'b', weightType: 'variable', stickiness: 'userId' }]);
    expect(res.status).toBe(200);
    // The remainder goes to the first variable variants in the order sent (c, then a), and the list is sorted afterwards.
    const stored = [variant('a', 333), variant('b', 333, { stickiness: 'userId' }), variant('c', 334)];
    expect(res.body).toEqual({ version: 1, variants: stored });
    expect(res.body.variants.reduce((sum: number, v: any) => sum + v.weight, 0)).toBe(1000);
    expect(await envVariants('var')).toEqual(stored);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'feature-environment-variants-updated', project: 'default', environment: 'development', featureName: 'var',
      createdBy: 'admin', data: { variants: stored }, preData: { variants: [] },
    });
    // The other environment and the environment summary in the feature.
    expect(await envVariants('var', 'production')).toEqual([]);
    const env = (await feature('var')).environments.find((e: any) => e.name === 'development');
    expect(env).toMatchObject({ variantCount: 3, variants: stored });
  });

  it('the remainder follows the order sent; sending the same list again writes no event', async () => {
    const since = await lastEventId();
    const list = [{ name: 'a' }, { name: 'b', stickiness: 'userId' }, { name: 'c' }];
    const res = await app.put(variantsPath('var'), list);
    expect(res.status).toBe(200);
    expect(res.body.variants.map((v: any) => [v.name, v.weight])).toEqual([['a', 334], ['b', 333], ['c', 333]]);
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['feature-environment-variants-updated']);
    const again = await lastEventId();
    const same = await app.put(variantsPath('var'), list);
    expect(same.body).toEqual(res.body);
    expect(await eventsSince(again)).toEqual([]);
  });

  it('500 variable + 200 fix resolves to 800/200; fix variants keep their weight', async () => {
    const since = await lastEventId();
    const res = await app.put(variantsPath('var'), [
      { name: 'control', weight: 500, weightType: 'variable' },
      { name: 'treatment', weight: 200, weightType: 'fix', payload: { type: 'string', value: 'blue' } },
    ]);
    expect(res.status).toBe(200);
    const stored = [variant('control', 800), variant('treatment', 200, { weightType: 'fix', payload: { type: 'string', value: 'blue' } })];
    expect(res.body.variants).toEqual(stored);
    const [event] = await eventsSince(since);
    expect(event.preData).toEqual({ variants: [variant('a', 334), variant('b', 333, { stickiness: 'userId' }), variant('c', 333)] });
    expect(event.data).toEqual({ variants: stored });
  });

  it('stores payloads of every type and overrides', async () => {
    const res = await app.put(variantsPath('var'), [
      { name: 'json', payload: { type: 'json', value: '{"colour":"red","n":[1,2]}' }, overrides: [{ contextName: 'userId', values: ['1', '2'] }] },
      { name: 'csv', payload: { type: 'csv', value: 'a,b\n1,2' } },
      { name: 'num', weightType: 'fix', weight: 0, payload: { type: 'number', value: '42.5' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.variants).toEqual([
      variant('csv', 500, { payload: { type: 'csv', value: 'a,b\n1,2' } }),
      variant('json', 500, { payload: { type: 'json', value: '{"colour":"red","n":[1,2]}' }, overrides: [{ contextName: 'userId', values: ['1', '2'] }] }),
      variant('num', 0, { weightType: 'fix', payload: { type: 'number', value: '42.5' } }),
    ]);
    expect(await envVariants('var')).toEqual(res.body.variants);
  });

  it('refuses lists that cannot add up to 1000 (400 ValidationError), changing nothing', async () => {
    const noVariable = await failsWithoutChange(['var'], () => app.put(variantsPath('var'), [{ name: 'a', weightType: 'fix', weight: 500 }, { name: 'b', weightType: 'fix', weight: 500 }]), 400, 'ValidationError');
    expect(noVariable.body.details).toEqual([{ path: '', message: expect.stringContaining('"variable"') }]);
    const tooMuchFix = await failsWithoutChange(['var'], () => app.put(variantsPath('var'), [{ name: 'a', weightType: 'fix', weight: 800 }, { name: 'b', weightType: 'fix', weight: 300 }, { name: 'c' }]), 400, 'ValidationError');
    expect(tooMuchFix.body.details).toEqual([{ path: '', message: expect.stringContaining('100%') }]);
    const fixWithoutWeight = await failsWithoutChange(['var'], () => app.put(variantsPath('var'), [{ name: 'a', weightType: 'fix' }, { name: 'b' }]), 400, 'ValidationError');
    expect(fixWithoutWeight.body.details).toHaveLength(1);
  });

  it('refuses weights outside 0..1000, duplicate names, bad weight types and invalid payloads, naming the property', async () => {
    const cases: Array<[unknown, string]> = [
      [[{ name: 'a', weight: 1001 }], '0/weight'],
      [[{ name: 'a' }, { name: 'b', weight: -1 }], '1/weight'],
      [[{ name: 'a', weight: 10.5 }], '0/weight'],
      [[{ name: 'a' }, { name: 'a' }], '1/name'],
      [[{ name: 'a', weightType: 'heavy' }], '0/weightType'],
      [[{ name: '' }], '0/name'],
      [[{ name: 'a', payload: { type: 'json', value: '{not json' } }], '0/payload/value'],
      [[{ name: 'a', payload: { type: 'number', value: 'many' } }], '0/payload/value'],
      [[{ name: 'a', payload: { type: 'xml', value: '<a/>' } }], '0/payload/type'],
      [[{ name: 'a', overrides: [{ contextName: 'userId' }] }], '0/overrides/0/values'],
      [[{ name: 'a', colour: 'red' }], '0/colour'],
      [{ variants: [] }, ''],
    ];
    for (const [body, path] of cases) {
      const res = await failsWithoutChange(['var'], () => app.put(variantsPath('var'), body), 400, 'ValidationError');
      expect({ body, paths: res.body.details.map((d: any) => d.path) }).toEqual({ body, paths: [path] });
    }
  });

  it('PUT [] removes every variant and records the event', async () => {
    const before = await envVariants('var');
    const since = await lastEventId();
    const res = await app.put(variantsPath('var'), []);
    expect(res.body).toEqual({ version: 1, variants: [] });
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'feature-environment-variants-updated', data: { variants: [] }, preData: { variants: before } });
  });

  it('404 for an unknown environment, feature or a feature of another project; 400 for an environment the project lacks', async () => {
    await createFeature('var-other', 'other');
    const otherBefore = await feature('var-other', 'other');
    for (const method of ['GET', 'PUT', 'PATCH'] as const) {
      const body = method === 'PUT' ? [{ name: 'a' }] : method === 'PATCH' ? [{ op: 'add', path: '/-', value: { name: 'a' } }] : undefined;
      const send = (path: string) => app.request(method, path, body);
      await failsWithoutChange(['var'], () => send(variantsPath('var', 'nowhere')), 404, 'NotFoundError');
      await failsWithoutChange([], () => send(variantsPath('nope')), 404, 'NotFoundError');
      await failsWithoutChange([], () => send(variantsPath('var-other', 'development', 'default')), 404, 'NotFoundError');
      const unlinked = await failsWithoutChange(['var'], () => send(variantsPath('var', 'staging')), 400, 'ValidationError');
      expect(unlinked.body.details[0].path).toBe('environment');
    }
    expect(await feature('var-other', 'other')).toEqual(otherBefore);
  });
});

describe('environment variants: PATCH', () => {
  beforeAll(async () => {
    await createFeature('var-patch');
    expect((await app.put(variantsPath('var-patch'), [{ name: 'a' }, { name: 'b' }])).status).toBe(200);
  });

  it('applies a JSON patch to the stored list, resolves the weights again and records the event', async () => {
    const before = await envVariants('var-patch');
    expect(before).toEqual([variant('a', 500), variant('b', 500)]);
    const since = await lastEventId();
    const res = await patch(variantsPath('var-patch'), [
      { op: 'add', path: '/-', value: { name: 'c', weightType: 'variable', weight: 0, stickiness: 'default' } },
      { op: 'replace', path: '/0/stickiness', value: 'sessionId' },
    ]);
    expect(res.status).toBe(200);
    const after = [variant('a', 334, { stickiness: 'sessionId' }), variant('b', 333), variant('c', 333)];
    expect(res.body).toEqual({ version: 1, variants: after });
    expect(await envVariants('var-patch')).toEqual(after);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'feature-environment-variants-updated', project: 'default', environment: 'development', featureName: 'var-patch',
      data: { variants: after }, preData: { variants: before },
    });
  });

  it('writes no event for a patch that changes nothing', async () => {
    const since = await lastEventId();
    const res = await patch(variantsPath('var-patch'), [{ op: 'test', path: '/1/name', value: 'b' }]);
    expect(res.status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('refuses malformed patches, failing tests and results that break the rules (400), changing nothing', async () => {
    await failsWithoutChange(['var-patch'], () => patch(variantsPath('var-patch'), { op: 'add' }), 400, 'ValidationError');
    await failsWithoutChange(['var-patch'], () => patch(variantsPath('var-patch'), [{ op: 'jump', path: '/0' }]), 400, 'ValidationError');
    await failsWithoutChange(['var-patch'], () => patch(variantsPath('var-patch'), [{ op: 'test', path: '/0/name', value: 'zzz' }]), 400, 'ValidationError');
    await failsWithoutChange(['var-patch'], () => patch(variantsPath('var-patch'), [{ op: 'remove', path: '/7' }]), 400, 'ValidationError');
    const duplicate = await failsWithoutChange(['var-patch'], () => patch(variantsPath('var-patch'), [{ op: 'replace', path: '/1/name', value: 'a' }]), 400, 'ValidationError');
    expect(duplicate.body.details[0].path).toBe('1/name');
    const tooHeavy = await failsWithoutChange(['var-patch'], () => patch(variantsPath('var-patch'), [{ op: 'replace', path: '/0/weightType', value: 'fix' }, { op: 'replace', path: '/0/weight', value: 2000 }]), 400, 'ValidationError');
    expect(tooHeavy.body.details[0].path).toBe('0/weight');
  });
});

describe('variants in several environments (variants-batch)', () => {
  beforeAll(async () => { await createFeature('var-batch'); });

  it('sets the same variants in every listed environment, one event per environment', async () => {
    const since = await lastEventId();
    const res = await app.put(`${featurePath('var-batch')}/variants-batch`, {
      variants: [{ name: 'x', weightType: 'fix', weight: 100 }, { name: 'y' }],
      environments: ['production', 'development'],
    });
    expect(res.status).toBe(200);
    const stored = [variant('x', 100, { weightType: 'fix' }), variant('y', 900)];
    expect(res.body).toEqual({ version: 1, variants: stored });
    expect(await envVariants('var-batch')).toEqual(stored);
    expect(await envVariants('var-batch', 'production')).toEqual(stored);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.environment])).toEqual([
      ['feature-environment-variants-updated', 'production'], ['feature-environment-variants-updated', 'development'],
    ]);
    for (const e of events) expect(e).toMatchObject({ project: 'default', featureName: 'var-batch', data: { variants: stored }, preData: { variants: [] } });
  });

  it('writes events only for the environments that change', async () => {
    expect((await app.put(variantsPath('var-batch', 'production'), [{ name: 'z' }])).status).toBe(200);
    const since = await lastEventId();
    const res = await app.put(`${featurePath('var-batch')}/variants-batch`, { variants: [{ name: 'x', weightType: 'fix', weight: 100 }, { name: 'y' }], environments: ['development', 'production'] });
    expect(res.status).toBe(200);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ environment: 'production', preData: { variants: [variant('z', 1000)] } });
  });

  it('is all or nothing: an unknown or unlinked environment anywhere in the list changes no environment', async () => {
    const body = (environments: string[]) => ({ variants: [{ name: 'new' }], environments });
    await failsWithoutChange(['var-batch'], () => app.put(`${featurePath('var-batch')}/variants-batch`, body(['development', 'nowhere'])), 404, 'NotFoundError');
    await failsWithoutChange(['var-batch'], () => app.put(`${featurePath('var-batch')}/variants-batch`, body(['development', 'staging'])), 400, 'ValidationError');
    const empty = await failsWithoutChange(['var-batch'], () => app.put(`${featurePath('var-batch')}/variants-batch`, body([])), 400, 'ValidationError');
    expect(empty.body.details[0].path).toBe('environments');
    const bad = await failsWithoutChange(['var-batch'], () => app.put(`${featurePath('var-batch')}/variants-batch`, { variants: [{ name: 'a', weightType: 'fix', weight: 10 }], environments: ['development'] }), 400, 'ValidationError');
    expect(bad.body.details[0].path).toBe('variants');
    await failsWithoutChange(['var-batch'], () => app.put(`${featurePath('var-batch')}/variants-batch`, [{ name: 'a' }]), 400, 'ValidationError');
    await failsWithoutChange([], () => app.put(`${featurePath('nope')}/variants-batch`, body(['development'])), 404, 'NotFoundError');
  });
});

describe('legacy feature variants (all environments)', () => {
  beforeAll(async () => { await createFeature('var-legacy'); });

  it('PUT sets the variants in every environment of the feature and records one feature-variants-updated', async () => {
    const since = await lastEventId();
    const res = await app.put(`${featurePath('var-legacy')}/variants`, [{ name: 'on' }, { name: 'off', weightType: 'fix', weight: 250 }]);
    expect(res.status).toBe(200);
    const stored = [variant('off', 250, { weightType: 'fix' }), variant('on', 750)];
    expect(res.body).toEqual({ version: 1, variants: stored });
    expect(await envVariants('var-legacy')).toEqual(stored);
    expect(await envVariants('var-legacy', 'production')).toEqual(stored);
    expect((await app.get(`${featurePath('var-legacy')}/variants`)).body).toEqual({ version: 1, variants: stored });
    expect((await feature('var-legacy')).variants).toEqual(stored);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'feature-variants-updated', project: 'default', environment: null, featureName: 'var-legacy',
      data: { variants: stored }, preData: { variants: [] },
    });
  });

  it('PUT of the same variants writes nothing', async () => {
    const since = await lastEventId();
    expect((await app.put(`${featurePath('var-legacy')}/variants`, [{ name: 'on' }, { name: 'off', weightType: 'fix', weight: 250 }])).status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('PATCH applies a JSON patch to the current variants', async () => {
    const before = await envVariants('var-legacy');
    const since = await lastEventId();
    const res = await patch(`${featurePath('var-legacy')}/variants`, [{ op: 'remove', path: '/0' }]);
    expect(res.status).toBe(200);
    expect(res.body.variants).toEqual([variant('on', 1000)]);
    expect(await envVariants('var-legacy', 'production')).toEqual([variant('on', 1000)]);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'feature-variants-updated', environment: null, data: { variants: [variant('on', 1000)] }, preData: { variants: before } });
  });

  it('refuses invalid variants and patches (400), and unknown features (404), changing nothing', async () => {
    await failsWithoutChange(['var-legacy'], () => app.put(`${featurePath('var-legacy')}/variants`, [{ name: 'a', weight: 5000 }]), 400, 'ValidationError');
    await failsWithoutChange(['var-legacy'], () => app.put(`${featurePath('var-legacy')}/variants`, [{ name: 'a', weightType: 'fix', weight: 5 }]), 400, 'ValidationError');
    await failsWithoutChange(['var-legacy'], () => patch(`${featurePath('var-legacy')}/variants`, [{ op: 'test', path: '/0/name', value: 'off' }]), 400, 'ValidationError');
    await failsWithoutChange([], () => app.put(`${featurePath('nope')}/variants`, [{ name: 'a' }]), 404, 'NotFoundError');
    await failsWithoutChange([], () => app.put(`${featurePath('var-legacy', 'other')}/variants`, [{ name: 'a' }]), 404, 'NotFoundError');
    const get404 = await app.get(`${featurePath('nope')}/variants`);
    expect({ status: get404.status, name: get404.body.name }).toEqual({ status: 404, name: 'NotFoundError' });
  });
});
