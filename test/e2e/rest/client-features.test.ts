import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Issue 14 part 1: `GET /api/client/features` and `/api/client/features/:name` as Unleash v5.8 answers backend SDKs:
 * the token's projects and environment only, archived features and disabled strategies left out, segments sent once or
 * inlined by the `Unleash-Client-Spec` header, the query filters, and ETag/304 from a cache that every write path
 * invalidates at once.
 */
let app: TestApp;
const tokens: Record<string, string> = {};
const P = '/api/admin/projects/default/features';
const env = (feature: string, environment = 'development') => `${P}/${feature}/environments/${environment}`;
const SPEC = { 'unleash-client-spec': '5.2.0' };
let segmentId: number;

const ok = async <T>(reply: Promise<Reply<T>>, status = 200): Promise<T> => {
  const res = await reply;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const client = (token: string, query = '', headers: Record<string, string> = SPEC) => app.get(`/api/client/features${query}`, { token, headers });
const names = (body: any): string[] => body.features.map((f: any) => f.name);
const sql = (text: string, params: unknown[] = []) => app.orm.em.fork().execute(text, params);

beforeAll(async () => {
  app = await startTestApp();
  await ok(app.post('/api/admin/projects', { id: 'other', name: 'Other' }), 201);
  await ok(app.post('/api/admin/context', { name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] }), 201);
  await ok(app.post('/api/admin/tag-types', { name: 'team', description: 'Team' }), 201);
  segmentId = (await ok(app.post('/api/admin/segments', { name: 'europe', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] }), 201) as any).id;

  // cf-full: a strategy with a constraint, a segment, strategy variants and a title; environment variants; enabled.
  await ok(app.post(P, { name: 'cf-full', description: 'Full feature', impressionData: true }), 201);
  await ok(app.post(`${env('cf-full')}/strategies`, {
    name: 'flexibleRollout', title: 'Half of Europe', parameters: { rollout: '50', stickiness: 'userId', groupId: 'cf-full' },
    constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: ['7'] }], segments: [segmentId],
    variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'userId', payload: { type: 'string', value: 'b' } }],
  }));
  await ok(app.put(`${env('cf-full')}/variants`, [{ name: 'a', payload: { type: 'json', value: '{"x":1}' } }]));
  await ok(app.post(`${env('cf-full')}/on`));
  // cf-mixed: one active and one disabled strategy; cf-off: only a disabled strategy (so it is off for SDKs).
  await ok(app.post(P, { name: 'cf-mixed' }), 201);
  await ok(app.post(`${env('cf-mixed')}/strategies`, { name: 'default' }));
  await ok(app.post(`${env('cf-mixed')}/strategies`, { name: 'userWithId', parameters: { userIds: '1,2' }, disabled: true }));
  await ok(app.post(`${env('cf-mixed')}/on`));
  // Switching on a feature without active strategies adds one (as Unleash): disable it afterwards.
  await ok(app.post(P, { name: 'cf-off' }), 201);
  await ok(app.post(`${env('cf-off')}/on`));
  for (const s of (await ok(app.get(`${env('cf-off')}/strategies`)) as any[])) await ok(app.put(`${env('cf-off')}/strategies/${s.id}`, { name: s.name, parameters: s.parameters, disabled: true }));
  // cf-child depends on cf-full; cf-tagged carries team:web; cf-gone is archived; cf-prod is on in production only.
  await ok(app.post(P, { name: 'cf-child' }), 201);
  await ok(app.post(`${P}/cf-child/dependencies`, { feature: 'cf-full', variants: ['blue'] }));
  await ok(app.post(P, { name: 'cf-tagged' }), 201);
  await ok(app.post('/api/admin/features/cf-tagged/tags', { type: 'team', value: 'web' }), 201);
  await ok(app.post(P, { name: 'cf-gone' }), 201);
  await ok(app.del(`${P}/cf-gone`), 202);
  await ok(app.post(P, { name: 'cf-prod' }), 201);
  await ok(app.post(`${env('cf-prod', 'production')}/strategies`, { name: 'default' }));
  await ok(app.post(`${env('cf-prod', 'production')}/on`));
  await ok(app.post('/api/admin/projects/other/features', { name: 'cf-elsewhere' }), 201);
  await ok(app.post('/api/admin/projects/other/features/cf-elsewhere/environments/development/strategies', { name: 'default' }));

  const token = async (name: string, environment: string, projects: string[]) => {
    tokens[name] = (await ok(app.post('/api/admin/api-tokens', { tokenName: name, type: 'client', environment, projects }), 201) as any).secret;
  };
  await token('dev', 'development', ['default']);
  await token('prod', 'production', ['default']);
  await token('otherDev', 'development', ['other']);
  await token('allDev', 'development', ['*']);
  await token('both', 'development', ['default', 'other']);
});
afterAll(async () => { await app.close(); });

describe('the answer', () => {
  it('is {version: 2, features, query, segments}: the token\'s projects and environment, by name, archived features left out', async () => {
    const body = await ok(client(tokens.dev));
    expect(Object.keys(body)).toEqual(['version', 'features', 'query', 'segments']);
    expect(body.version).toBe(2);
    expect(names(body)).toEqual(['cf-child', 'cf-full', 'cf-mixed', 'cf-off', 'cf-prod', 'cf-tagged']);
    expect(body.query).toEqual({ project: ['default'], environment: 'development', inlineSegmentConstraints: false });
    expect(body.segments).toEqual([{ id: segmentId, name: 'europe', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] }]);
  });

  it('shows each feature as SDKs read it: environment state, strategies with segment ids, variants, dependencies', async () => {
    // As Unleash v5.8: a strategy carries no id, title, sortOrder or disabled (toEqual below fails on any extra key).
    const body = await ok(client(tokens.dev));
    const full = body.features.find((f: any) => f.name === 'cf-full');
    expect(full).toEqual({
      name: 'cf-full', type: 'release', description: 'Full feature', enabled: true, stale: false, impressionData: true, project: 'default',
      strategies: [{
        name: 'flexibleRollout',
        constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: ['7'] }],
        parameters: { rollout: '50', stickiness: 'userId', groupId: 'cf-full' },
        variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'userId', payload: { type: 'string', value: 'b' } }],
        segments: [segmentId],
      }],
      variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"x":1}' }, overrides: [] }],
    });
    expect(body.features.find((f: any) => f.name === 'cf-child')).toMatchObject({ enabled: false, strategies: [], dependencies: [{ feature: 'cf-full', enabled: true, variants: ['blue'] }] });
    expect(body.features.find((f: any) => f.name === 'cf-child').variants).toEqual([]);
  });

  it('leaves disabled strategies out; a feature whose strategies are all disabled is off', async () => {
    const body = await ok(client(tokens.dev));
    const mixed = body.features.find((f: any) => f.name === 'cf-mixed');
    expect([mixed.enabled, mixed.strategies.map((s: any) => s.name)]).toEqual([true, ['default']]);
    const off = body.features.find((f: any) => f.name === 'cf-off');
    expect([off.enabled, off.strategies]).toEqual([false, []]);
  });

  it('a token of another environment sees none of this environment\'s configuration; of another project, none of its features', async () => {
    const prod = await ok(client(tokens.prod));
    expect(names(prod)).toEqual(['cf-child', 'cf-full', 'cf-mixed', 'cf-off', 'cf-prod', 'cf-tagged']);
    for (const f of prod.features.filter((x: any) => x.name !== 'cf-prod')) expect([f.name, f.enabled, f.strategies, f.variants]).toEqual([f.name, false, [], []]);
    expect(prod.features.find((f: any) => f.name === 'cf-prod')).toMatchObject({ enabled: true, strategies: [{ name: 'default' }] });
    expect(prod.segments).toEqual([]);
    const other = await ok(client(tokens.otherDev));
    expect(names(other)).toEqual(['cf-elsewhere']);
    expect(other.segments).toEqual([]);
    const dev = await ok(client(tokens.dev));
    expect(dev.features.find((f: any) => f.name === 'cf-prod')).toMatchObject({ enabled: false, strategies: [] });
  });

  it('an admin token reads the `environment` query parameter, by default `default` (as Unleash)', async () => {
    const none = await ok(app.get('/api/client/features', { headers: SPEC }));
    expect(none.query).toEqual({ environment: 'default', inlineSegmentConstraints: false });
    expect(names(none)).toEqual(['cf-child', 'cf-elsewhere', 'cf-full', 'cf-mixed', 'cf-off', 'cf-prod', 'cf-tagged']);
    expect(none.features.every((f: any) => !f.enabled && f.strategies.length === 0)).toBe(true);
    const dev = await ok(app.get('/api/client/features?environment=development&project=default', { headers: SPEC }));
    expect(dev.features).toEqual((await ok(client(tokens.dev))).features);
  });
});

describe('segments, by the Unleash-Client-Spec header', () => {
  it('a version ≥ 4.2.0 gets them once in `segments`, referenced by id; anything else gets their constraints inlined', async () => {
    for (const spec of ['4.2.0', '5.2.0', '10.0.0']) {
      const body = await ok(client(tokens.dev, '', { 'unleash-client-spec': spec }));
      expect([spec, body.segments?.length, body.features.find((f: any) => f.name === 'cf-full').strategies[0].segments]).toEqual([spec, 1, [segmentId]]);
    }
    for (const headers of [{} as Record<string, string>, { 'unleash-client-spec': '4.1.9' }, { 'unleash-client-spec': 'not-a-version' }, { 'unleash-client-spec': '3.0.0' }]) {
      const body = await ok(client(tokens.dev, '', headers));
      expect(Object.keys(body)).toEqual(['version', 'features', 'query']);
      expect(body.query.inlineSegmentConstraints).toBe(true);
      const strategy = body.features.find((f: any) => f.name === 'cf-full').strategies[0];
      expect(strategy.segments).toBeUndefined();
      expect(strategy.constraints).toEqual([
        { contextName: 'userId', operator: 'NOT_IN', values: ['7'] },
        { contextName: 'region', operator: 'IN', values: ['eu'] },
      ]);
    }
  });
});

describe('query filters narrow the token\'s scope', () => {
  it('project (repeatable): only projects the token has', async () => {
    expect(names(await ok(client(tokens.allDev, '?project=other')))).toEqual(['cf-elsewhere']);
    expect(names(await ok(client(tokens.both, '?project=other&project=default')))).toHaveLength(7);
    expect(names(await ok(client(tokens.both, '?project=other')))).toEqual(['cf-elsewhere']);
    const outside = await ok(client(tokens.dev, '?project=other'));
    expect([names(outside), outside.query.project]).toEqual([[], []]);
  });

  it('namePrefix and tag (type:value, repeatable: any of them)', async () => {
    expect(names(await ok(client(tokens.dev, '?namePrefix=cf-f')))).toEqual(['cf-full']);
    expect(names(await ok(client(tokens.dev, '?namePrefix=cf_')))).toEqual([]);
    expect(names(await ok(client(tokens.dev, '?namePrefix=%25')))).toEqual([]);
    const tagged = await ok(client(tokens.dev, '?tag=team:web'));
    expect([names(tagged), tagged.query.tag]).toEqual([['cf-tagged'], [['team', 'web']]]);
    expect(names(await ok(client(tokens.dev, '?tag=team:web&tag=team:api')))).toEqual(['cf-tagged']);
    expect(names(await ok(client(tokens.dev, '?tag=team:api')))).toEqual([]);
    expect(names(await ok(client(tokens.dev, '?tag=team:web&namePrefix=cf-f')))).toEqual([]);
  });

  it('bad filters are a 400 ValidationError naming the parameter', async () => {
    for (const [query, path] of [['?tag=web', 'tag'], ['?tag=:web', 'tag'], ['?tag=team:', 'tag'], ['?namePrefix=a&namePrefix=b', 'namePrefix'],
      ['?project=', 'project'], [`?namePrefix=${'a'.repeat(201)}`, 'namePrefix'], [`?${Array.from({ length: 101 }, (_, i) => `tag=t:${i}`).join('&')}`, 'tag'],
      ['?environment=a&environment=b', 'environment']]) {
      const res = await client(tokens.dev, query);
      expect([query, res.status, res.body.name, res.body.details?.[0]?.path]).toEqual([query, 400, 'ValidationError', path]);
    }
  });
});

describe('one feature', () => {
  it('GET /api/client/features/:name answers the feature as in the list; 404 NotFoundError when the token cannot see it', async () => {
    const list = await ok(client(tokens.dev));
    const one = await ok(app.get('/api/client/features/cf-full', { token: tokens.dev, headers: SPEC }));
    expect(one).toEqual(list.features.find((f: any) => f.name === 'cf-full'));
    const inline = await ok(app.get('/api/client/features/cf-full', { token: tokens.dev }));
    expect(inline.strategies[0].constraints).toHaveLength(2);
    for (const [token, name] of [[tokens.dev, 'cf-gone'], [tokens.dev, 'cf-elsewhere'], [tokens.otherDev, 'cf-full'], [tokens.dev, 'nope']]) {
      const res = await app.get(`/api/client/features/${name}`, { token, headers: SPEC });
      expect([name, res.status, res.body.name]).toEqual([name, 404, 'NotFoundError']);
    }
    const filtered = await app.get('/api/client/features/cf-full?tag=team:web', { token: tokens.dev });
    expect(filtered.status).toBe(404);
  });
});

describe('ETag and 304', () => {
  it('every answer has an ETag; a matching If-None-Match (strong, weak, in a list, or *) is a 304 without a body', async () => {
    const first = await client(tokens.dev);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}-gzip"$/); // fetch accepts gzip
    for (const inm of [etag, `W/${etag}`, `"zzz", ${etag}`, '*']) {
      const res = await client(tokens.dev, '', { ...SPEC, 'if-none-match': inm });
      expect([inm, res.status, res.body, res.headers.get('etag')]).toEqual([inm, 304, '', etag]);
    }
    const stale = await client(tokens.dev, '', { ...SPEC, 'if-none-match': '"zzz"' });
    expect([stale.status, stale.headers.get('etag')]).toEqual([200, etag]);
    // Other scopes, filters and segment modes are other answers.
    expect((await client(tokens.dev, '', {})).headers.get('etag')).not.toBe(etag);
    expect((await client(tokens.prod)).headers.get('etag')).not.toBe(etag);
    expect((await client(tokens.dev, '?namePrefix=cf-f')).headers.get('etag')).not.toBe(etag);
    const one = await app.get('/api/client/features/cf-full', { token: tokens.dev, headers: SPEC });
    const again = await app.get('/api/client/features/cf-full', { token: tokens.dev, headers: { ...SPEC, 'if-none-match': one.headers.get('etag')! } });
    expect([one.status, again.status, again.headers.get('etag')]).toEqual([200, 304, one.headers.get('etag')]);
  });

  it('the poll served before Express and the Express route answer the same: status, headers and bytes, 200 and 304, plain and gzip', async () => {
    // `/api/client/features` is taken by the fast path (src/rest/sdk/fast-paths.ts); `/api/client/features/` (a
    // trailing slash, which Express routes to the same handler) is not.
    const raw = async (path: string, headers: Record<string, string>) => {
      const res = await fetch(`${app.url}${path}`, { headers: { authorization: tokens.dev, ...SPEC, ...headers }, decompress: false } as RequestInit);
      const kept = ['etag', 'content-type', 'content-encoding', 'content-length', 'vary'].map((h) => [h, res.headers.get(h)]);
      return { status: res.status, headers: kept, bytes: Buffer.from(await res.arrayBuffer()).toString('base64') };
    };
    for (const query of ['', '?namePrefix=cf-f', '?tag=team:web&project=default']) {
      const etag = (await client(tokens.dev, query, { ...SPEC, 'accept-encoding': 'identity' })).headers.get('etag')!;
      for (const headers of [{ 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'identity', 'if-none-match': etag }, { 'accept-encoding': 'gzip', 'if-none-match': etag }] as Array<Record<string, string>>) {
        const fast = await raw(`/api/client/features${query}`, headers);
        expect([headers, query, fast.status]).toEqual([headers, query, headers['if-none-match'] ? 304 : 200]);
        expect(await raw(`/api/client/features/${query}`, headers)).toEqual(fast);
      }
    }
    // Errors are Express's on both spellings (the fast path hands them over).
    for (const path of ['/api/client/features?tag=nocolon', '/api/client/features/?tag=nocolon']) expect((await app.get(path, { token: tokens.dev })).status).toBe(400);
    const frontend = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'cf-frontend', type: 'frontend', environment: 'development', projects: ['default'] }), 201) as any).secret;
    for (const path of ['/api/client/features', '/api/client/features/']) {
      expect([path, (await app.get(path, { token: frontend })).status, (await app.get(path, { token: 'nope' })).status]).toEqual([path, 403, 401]);
    }
  });

  it('large answers go out gzipped (compressed once) to clients that accept it, with an ETag of their own; either ETag gets a 304', async () => {
    const raw = (headers: Record<string, string>) => fetch(`${app.url}/api/client/features`, { headers: { authorization: tokens.dev, ...SPEC, ...headers } });
    const plain = await raw({ 'accept-encoding': 'identity' });
    const zipped = await raw({ 'accept-encoding': 'gzip, deflate' });
    expect([plain.headers.get('content-encoding'), zipped.headers.get('content-encoding'), zipped.headers.get('vary')]).toEqual([null, 'gzip', 'Accept-Encoding']);
    const etag = plain.headers.get('etag')!;
    expect(zipped.headers.get('etag')).toBe(`${etag.slice(0, -1)}-gzip"`);
    expect(await zipped.json()).toEqual(await plain.json()); // fetch inflates it
    for (const [accept, inm] of [['gzip', etag], ['identity', zipped.headers.get('etag')!]]) {
      const res = await raw({ 'accept-encoding': accept, 'if-none-match': inm });
      expect([accept, res.status]).toEqual([accept, 304]);
    }
    // A small answer (one feature) is sent as it is.
    const one = await fetch(`${app.url}/api/client/features/cf-mixed`, { headers: { authorization: tokens.dev, 'accept-encoding': 'gzip' } });
    expect([one.status, one.headers.get('content-encoding')]).toEqual([200, null]);
  });

  it('while nothing changes, an answer or a 304 costs one statement (the model version), and the same bytes go out', async () => {
    const first = await client(tokens.dev);
    app.resetQueryCount();
    const second = await client(tokens.dev);
    const notModified = await client(tokens.dev, '', { ...SPEC, 'if-none-match': first.headers.get('etag')! });
    expect(app.queries).toHaveLength(2);
    expect(app.queries.every((q) => q.includes('model_version'))).toBe(true);
    expect([second.body, notModified.status]).toEqual([first.body, 304]);
  });

  it('concurrent requests after a change share one build, and read the version at most once each', async () => {
    await ok(app.post('/api/admin/features/cf-full/stale/on'));
    app.resetQueryCount();
    const replies = await Promise.all(Array.from({ length: 8 }, () => client(tokens.dev)));
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(replies.every((r) => r.body.features.find((f: any) => f.name === 'cf-full').stale)).toBe(true);
    const versionReads = app.queries.filter((q) => q.includes('model_version'));
    const featureReads = app.queries.filter((q) => q.includes('from features f where'));
    expect(featureReads).toHaveLength(1);
    // One per request at most (fewer when they overlap a read under way), plus the build's own.
    expect(versionReads.length).toBeLessThanOrEqual(9);
    await ok(app.post('/api/admin/features/cf-full/stale/off'));
  });

  it('a change elsewhere (another project) rebuilds the answer, but its bytes and ETag stay: SDKs keep getting 304', async () => {
    const before = await client(tokens.dev);
    await ok(app.post('/api/admin/projects/other/features', { name: 'cf-elsewhere-2' }), 201);
    const after = await client(tokens.dev, '', { ...SPEC, 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(304);
    expect(names((await ok(client(tokens.otherDev))))).toEqual(['cf-elsewhere', 'cf-elsewhere-2']);
  });
});

/**
 * Each write path that changes what an SDK sees changes the very next answer (a different ETag, the new content); the
 * ETag the SDK holds then gets the whole new answer instead of a 304.
 */
describe('the cache follows every write path at once', () => {
  const feature = async (name: string, query = '') => (await ok(client(tokens.dev, query))).features.find((f: any) => f.name === name);
  async function changes(write: () => Promise<unknown>, query = ''): Promise<void> {
    const before = await client(tokens.dev, query);
    expect(before.status).toBe(200);
    await write();
    const after = await client(tokens.dev, query, { ...SPEC, 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  }

  it('strategy added, updated, reordered, disabled and deleted', async () => {
    await ok(app.post(P, { name: 'cf-w' }), 201);
    let id = '';
    await changes(async () => { id = (await ok(app.post(`${env('cf-w')}/strategies`, { name: 'default' })) as any).id; });
    expect((await feature('cf-w')).strategies.map((s: any) => s.name)).toEqual(['default']);
    await changes(() => ok(app.put(`${env('cf-w')}/strategies/${id}`, { name: 'userWithId', parameters: { userIds: '5' } })));
    expect((await feature('cf-w')).strategies[0]).toMatchObject({ name: 'userWithId', parameters: { userIds: '5' } });
    const second = (await ok(app.post(`${env('cf-w')}/strategies`, { name: 'default' })) as any).id;
    await changes(() => ok(app.post(`${env('cf-w')}/strategies/set-sort-order`, [{ id: second, sortOrder: 0 }, { id, sortOrder: 1 }])));
    expect((await feature('cf-w')).strategies.map((s: any) => s.name)).toEqual(['default', 'userWithId']);
    await changes(() => ok(app.put(`${env('cf-w')}/strategies/${second}`, { name: 'default', disabled: true })));
    expect((await feature('cf-w')).strategies.map((s: any) => s.name)).toEqual(['userWithId']);
    await changes(() => ok(app.del(`${env('cf-w')}/strategies/${id}`)));
    expect((await feature('cf-w')).strategies).toEqual([]);
  });

  it('environment switched on and off; environment variants', async () => {
    await changes(() => ok(app.post(`${env('cf-w')}/on`)));
    expect((await feature('cf-w')).enabled).toBe(true);
    await changes(() => ok(app.post(`${env('cf-w')}/off`)));
    expect((await feature('cf-w')).enabled).toBe(false);
    await changes(() => ok(app.put(`${env('cf-w')}/variants`, [{ name: 'v1' }])));
    expect((await feature('cf-w')).variants.map((v: any) => v.name)).toEqual(['v1']);
  });

  it('segment updated (by id, in both modes), feature metadata, dependency, archive', async () => {
    await changes(() => ok(app.put(`/api/admin/segments/${segmentId}`, { name: 'europe', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'us'] }] }), 204));
    expect((await ok(client(tokens.dev))).segments[0].constraints[0].values).toEqual(['eu', 'us']);
    const inline = await ok(client(tokens.dev, '', {}));
    expect(inline.features.find((f: any) => f.name === 'cf-full').strategies[0].constraints[1].values).toEqual(['eu', 'us']);
    await changes(() => ok(app.put(`${P}/cf-w`, { description: 'now described', type: 'experiment' })));
    expect(await feature('cf-w')).toMatchObject({ description: 'now described', type: 'experiment' });
    await changes(() => ok(app.post(`${P}/cf-w/dependencies`, { feature: 'cf-full', enabled: false })));
    expect((await feature('cf-w')).dependencies).toEqual([{ feature: 'cf-full', enabled: false }]);
    await changes(() => ok(app.del(`${P}/cf-w`), 202));
    expect(await feature('cf-w')).toBeUndefined();
  });

  it('a tag added or removed changes an answer filtered by that tag', async () => {
    await changes(() => ok(app.post('/api/admin/features/cf-mixed/tags', { type: 'team', value: 'web' }), 201), '?tag=team:web');
    expect(names(await ok(client(tokens.dev, '?tag=team:web')))).toEqual(['cf-mixed', 'cf-tagged']);
    await changes(() => ok(app.del('/api/admin/features/cf-mixed/tags/team/web')), '?tag=team:web');
    expect(names(await ok(client(tokens.dev, '?tag=team:web')))).toEqual(['cf-tagged']);
  });

  it('a write that bypasses the services (plain SQL) is seen too; writing only lastSeenAt (SDK metrics) is not a change', async () => {
    await changes(() => sql(`update feature_strategies set constraints = '[{"contextName":"userId","operator":"IN","values":["9"]}]'::jsonb where feature_name = 'cf-mixed' and strategy_name = 'default'`));
    expect((await feature('cf-mixed')).strategies[0].constraints).toEqual([{ contextName: 'userId', operator: 'IN', values: ['9'] }]);
    // `caseInsensitive` and `inverted` are sent when true only (SDKs read them as false when absent).
    await changes(() => sql(`update feature_strategies set constraints = '[{"contextName":"userId","operator":"IN","values":["9"],"inverted":true,"caseInsensitive":false},{"contextName":"appName","operator":"STR_CONTAINS","values":["A"],"caseInsensitive":true,"inverted":false}]'::jsonb where feature_name = 'cf-mixed' and strategy_name = 'default'`));
    expect((await feature('cf-mixed')).strategies[0].constraints).toEqual([
      { contextName: 'userId', operator: 'IN', values: ['9'], inverted: true },
      { contextName: 'appName', operator: 'STR_CONTAINS', values: ['A'], caseInsensitive: true },
    ]);
    // Not visible (the strategy is disabled): the same answer, the same ETag.
    const before = await client(tokens.dev);
    await sql(`update feature_strategies set parameters = '{"userIds":"9"}'::jsonb where feature_name = 'cf-mixed' and strategy_name = 'userWithId'`);
    expect((await client(tokens.dev, '', { ...SPEC, 'if-none-match': before.headers.get('etag')! })).status).toBe(304);
    await changes(() => sql(`update feature_strategies set disabled = false where feature_name = 'cf-mixed'`));
    expect((await feature('cf-mixed')).strategies.map((s: any) => s.name)).toEqual(['default', 'userWithId']);
    const [{ version }] = await sql('select version::text as version from model_version');
    await sql(`update feature_environments set last_seen_at = now() where feature_name = 'cf-full'`);
    await sql(`update features set last_seen_at = now() where name = 'cf-full'`);
    expect((await sql('select version::text as version from model_version'))[0].version).toBe(version);
  });
});
