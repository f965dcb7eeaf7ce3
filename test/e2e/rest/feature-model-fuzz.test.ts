import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Hostile input on every feature-model and playground endpoint: whatever the body or path, the answer is a documented
 * error (never a 500), and a refused request changes no row and writes no event.
 */
let app: TestApp;
let strategyId: string;
let segmentId: number;
const F = '/api/admin/projects/default/features';

beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post(F, { name: 'fz' })).status).toBe(201);
  expect((await app.post(F, { name: 'fz-parent' })).status).toBe(201);
  strategyId = (await app.post(`${F}/fz/environments/development/strategies`, { name: 'default' })).body.id;
  segmentId = (await app.post('/api/admin/segments', { name: 'fz-seg', constraints: [] })).body.id;
});
afterAll(async () => { await app.close(); });

const BODIES: unknown[] = [
  null, 0, -1, 1e308, 'text', '', true, [], [null], [1, 'x', {}], {}, { __proto__: { polluted: true } },
  { name: null }, { name: 1 }, { name: 'x'.repeat(5000) }, { name: '\u0000' }, { name: ['a'] }, { name: { nested: { deep: [1] } } },
  { features: 'fz' }, { features: [null] }, { variants: 'x' }, { variants: [{ name: 'a', weight: -1 }] }, { variants: [{ name: 'a', weight: 1e9, weightType: 'fix' }] },
  { constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: 'NaN' }] }, { constraints: [{ contextName: '\u0000', operator: 'IN', values: ['a'] }] },
  { segments: [1e12] }, { segments: [-1] }, { segments: ['1'] }, { parameters: { rollout: { x: 1 } } }, { sortOrder: 1e20 },
  [{ op: 'replace', path: '/x/y/z', value: 1 }], [{ op: 'add', path: '/__proto__/polluted', value: true }], [{ op: 'move', from: '/nope', path: '/a' }],
  { environment: ['x'], context: 'x' }, { environments: 'development', context: { appName: 'a' } }, { context: { appName: 'a', properties: 'x' } },
  { context: { appName: 'a', currentTime: 1e20 } }, { feature: 'fz', variants: ['a'], enabled: false }, { feature: 'fz' },
];

const ENDPOINTS: Array<[string, string]> = [
  ['POST', F], ['PUT', `${F}/fz`], ['PATCH', `${F}/fz`], ['POST', `${F}/fz/clone`],
  ['POST', '/api/admin/projects/default/stale'], ['POST', '/api/admin/projects/default/archive'],
  ['POST', '/api/admin/projects/default/revive'], ['POST', '/api/admin/projects/default/delete'],
  ['POST', '/api/admin/features/validate'], ['POST', '/api/admin/features/fz/tags'], ['PUT', '/api/admin/feature-types/release/lifetimes'],
  ['POST', `${F}/fz/environments/development/on`], ['POST', `${F}/fz/environments/development/off`],
  ['POST', `${F}/fz/environments/development/strategies`], ['POST', `${F}/fz/environments/development/strategies/set-sort-order`],
  ['PUT', `${F}/fz/environments/development/strategies/STRATEGY`], ['PATCH', `${F}/fz/environments/development/strategies/STRATEGY`],
  ['PUT', `${F}/fz/environments/development/variants`], ['PATCH', `${F}/fz/environments/development/variants`],
  ['PUT', `${F}/fz/variants-batch`], ['PUT', `${F}/fz/variants`], ['PATCH', `${F}/fz/variants`],
  ['POST', `${F}/fz-parent/dependencies`], ['POST', '/api/admin/segments'], ['PUT', '/api/admin/segments/SEGMENT'],
  ['POST', '/api/admin/strategies'], ['PUT', '/api/admin/projects/default/settings'],
  ['POST', '/api/admin/playground'], ['POST', '/api/admin/playground/advanced'],
];

const snapshot = async () => {
  const em = app.orm.em.fork();
  const [rows] = await em.execute(`select
    (select count(*) from events)::int as events,
    (select md5(coalesce(string_agg(f::text, ',' order by name), '')) from features f) as features,
    (select md5(coalesce(string_agg(fe::text, ',' order by feature_name, environment), '')) from feature_environments fe) as envs,
    (select md5(coalesce(string_agg(s::text, ',' order by id), '')) from feature_strategies s) as strategies,
    (select md5(coalesce(string_agg(s::text, ',' order by id), '')) from segments s) as segments,
    (select md5(coalesce(string_agg(d::text, ',' order by parent, child), '')) from feature_dependencies d) as deps,
    (select md5(coalesce(string_agg(t::text, ',' order by id), '')) from feature_types t) as types,
    (select md5(coalesce(string_agg(p::text, ',' order by id), '')) from projects p) as projects`);
  return rows;
};

describe('hostile bodies', () => {
  it.each(ENDPOINTS)('%s %s never answers 500, and a refusal changes nothing', async (method, rawPath) => {
    const path = rawPath.replace('STRATEGY', strategyId).replace('SEGMENT', String(segmentId));
    for (const body of BODIES) {
      const before = await snapshot();
      const res = await app.request(method, path, body);
      expect({ body, status: res.status < 500 }).toEqual({ body, status: true });
      if (res.status >= 400) {
        expect(typeof res.body.name).toBe('string');
        expect(await snapshot()).toEqual(before);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('hostile paths', () => {
  const NAMES = ['%00', '%E2%80%AE', 'a'.repeat(3000), '%F0%9F%92%A9', '..%2F..%2Fetc', '%ZZ', 'null', '%27%3B%20drop%20table%20features%3B--'];
  it.each(NAMES)('feature name %s in every path position never answers 500', async (name) => {
    const paths: Array<[string, string, unknown?]> = [
      ['GET', `${F}/${name}`], ['PUT', `${F}/${name}`, {}], ['DELETE', `${F}/${name}`], ['POST', `${F}/${name}/clone`, { name: 'x1' }],
      ['GET', `${F}/fz/environments/${name}`], ['POST', `${F}/fz/environments/${name}/on`], ['GET', `${F}/fz/environments/development/strategies/${name}`],
      ['DELETE', `${F}/fz/environments/development/strategies/${name}`], ['GET', `/api/admin/features/${name}/tags`],
      ['DELETE', `/api/admin/features/fz/tags/${name}/${name}`], ['DELETE', `${F}/fz/dependencies/${name}`], ['GET', `/api/admin/segments/${name}`],
      ['GET', `/api/admin/archive/features/${name}`], ['POST', `/api/admin/archive/revive/${name}`], ['DELETE', `/api/admin/archive/${name}`],
      ['GET', `/api/admin/projects/${name}/health-report`], ['GET', `/api/admin/events/${name}`], ['GET', `/api/admin/strategies/${name}`],
    ];
    const before = await snapshot();
    for (const [method, path, body] of paths) {
      const res = await app.request(method, path, body);
      expect({ method, path: path.slice(0, 120), ok: res.status < 500 }).toEqual({ method, path: path.slice(0, 120), ok: true });
    }
    expect(await snapshot()).toEqual(before);
  });
});
