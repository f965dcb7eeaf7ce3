import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 12, parts 1 and 2: change-request configuration per project environment, and its enforcement: while enabled,
 * direct changes to features in that environment need SKIP_CHANGE_REQUEST; cloning into the project is refused.
 */
let app: TestApp;
type As = { headers: { cookie: string; 'content-type': string }; token: null };
let owner: As;
let skipper: As;
let viewer: As;

const login = async (username: string) => {
  const res = await app.post('/auth/simple/login', { username, password: 'Change-Request-42' }, { token: null });
  // JSON, as the UI sends every change: a change signed in by the session cookie must declare it (src/app.ts, cookieWriteRefusal).
  return { token: null, headers: { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0], 'content-type': 'application/json' } } as As;
};
const P = '/api/admin/projects/cr';
const F = `${P}/features`;
const config = (env: string) => `${P}/environments/${env}/change-requests/config`;

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/projects', { id: 'cr', name: 'Change requests' });
  await app.post('/api/admin/projects/cr/environments', { environment: 'production' });
  const ids: Record<string, number> = {};
  for (const username of ['cr-owner', 'cr-skipper', 'cr-viewer']) {
    ids[username] = (await app.post('/api/admin/user-admin', { username, password: 'Change-Request-42', rootRole: 'Viewer' })).body.id;
  }
  const skipRole = (await app.post('/api/admin/roles', { name: 'cr-skip', type: 'custom', permissions: [{ name: 'SKIP_CHANGE_REQUEST', environment: 'production' }] })).body.roles.id;
  expect((await app.post(`${P}/access`, { roles: [4], users: [{ id: ids['cr-owner'] }, { id: ids['cr-skipper'] }] })).status).toBe(200);
  expect((await app.post(`${P}/access`, { roles: [skipRole], users: [{ id: ids['cr-skipper'] }] })).status).toBe(200);
  owner = await login('cr-owner');
  skipper = await login('cr-skipper');
  viewer = await login('cr-viewer');
});
afterAll(async () => { await app.close(); });

describe('configuration', () => {
  it('lists every environment of the project, disabled with one approval until configured', async () => {
    const res = await app.get(`${P}/change-requests/config`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { environment: 'development', type: 'development', changeRequestsEnabled: false, requiredApprovals: 1 },
      { environment: 'production', type: 'production', changeRequestsEnabled: false, requiredApprovals: 1 },
    ]);
  });

  it('PUT enables it (204), the health report shows it, and the event records before and after; a repeat writes no event', async () => {
    const res = await app.put(config('production'), { changeRequestsEnabled: true, requiredApprovals: 2 }, owner);
    expect(res.status).toBe(204);
    expect((await app.get(`${P}/change-requests/config`)).body[1]).toEqual({ environment: 'production', type: 'production', changeRequestsEnabled: true, requiredApprovals: 2 });
    const report = (await app.get(`${P}/health-report`)).body;
    expect(report.environments.map((e: any) => [e.environment, e.changeRequestsEnabled])).toEqual([['development', false], ['production', true]]);
    const [event] = await app.events('change-request-configuration-updated');
    expect(event).toMatchObject({ project: 'cr', environment: 'production', createdBy: 'cr-owner', data: { changeRequestsEnabled: true, requiredApprovals: 2 }, preData: { changeRequestsEnabled: false, requiredApprovals: 1 } });
    expect((await app.put(config('production'), { changeRequestsEnabled: true }, owner)).status).toBe(204);
    expect(await app.events('change-request-configuration-updated')).toHaveLength(1);
    expect((await app.get(`${P}/change-requests/config`)).body[1].requiredApprovals).toBe(2); // absent: unchanged
  });

  it('documented statuses with their names; nothing changes', async () => {
    const before = (await app.get(`${P}/change-requests/config`)).body;
    const cases: Array<[string, unknown, number, string, Record<string, unknown>?]> = [
      [config('production'), { changeRequestsEnabled: true, requiredApprovals: 0 }, 400, 'ValidationError'],
      [config('production'), { changeRequestsEnabled: true, requiredApprovals: 11 }, 400, 'ValidationError'],
      [config('production'), { changeRequestsEnabled: true, requiredApprovals: 1.5 }, 400, 'ValidationError'],
      [config('production'), { requiredApprovals: 3 }, 400, 'ValidationError'],
      [config('production'), { changeRequestsEnabled: 'yes' }, 400, 'ValidationError'],
      [config('production'), { changeRequestsEnabled: true, colour: 'red' }, 400, 'ValidationError'],
      ['/api/admin/projects/nope/environments/production/change-requests/config', { changeRequestsEnabled: true }, 404, 'NotFoundError'],
      [config('staging'), { changeRequestsEnabled: true }, 404, 'NotFoundError'],
      [config('production'), { changeRequestsEnabled: false }, 403, 'NoAccessError', viewer],
      [config('production'), { changeRequestsEnabled: false }, 401, 'AuthenticationRequired', { token: null }],
    ];
    for (const [path, body, status, name, options] of cases) {
      const res = await app.put(path, body, options as never);
      expect([path, body, res.status, res.body.name]).toEqual([path, body, status, name]);
    }
    const text = await app.request('PUT', config('production'), undefined, { raw: 'changeRequestsEnabled=false', headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body.name]).toEqual([415, 'ContentTypeerror']);
    expect((await app.get('/api/admin/projects/nope/change-requests/config')).status).toBe(404);
    expect((await app.get(`${P}/change-requests/config`)).body).toEqual(before);
  });

  it('concurrent changes are ordered: each event\'s preData is the previous one\'s data', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => app.put(config('development'), { changeRequestsEnabled: i % 2 === 0, requiredApprovals: i + 1 }).then((r) => expect(r.status).toBe(204))));
    const events = (await app.events('change-request-configuration-updated')).filter((e) => e.environment === 'development').reverse();
    expect(events).toHaveLength(10); // every one changed something (each sets its own number of approvals)
    for (let i = 1; i < events.length; i++) expect(events[i].preData).toEqual(events[i - 1].data);
    const final = (await app.get(`${P}/change-requests/config`)).body[0];
    expect({ changeRequestsEnabled: final.changeRequestsEnabled, requiredApprovals: final.requiredApprovals }).toEqual(events.at(-1).data);
    await app.put(config('development'), { changeRequestsEnabled: false, requiredApprovals: 1 });
  });

  it('GraphQL reads and writes the same settings', async () => {
    const q = await app.post('/graphql', { query: '{ changeRequestConfig(project: "cr") { environment type changeRequestsEnabled requiredApprovals } }' });
    expect(q.body.data.changeRequestConfig).toEqual((await app.get(`${P}/change-requests/config`)).body);
    const m = await app.post('/graphql', { query: 'mutation { updateChangeRequestConfig(input: { project: "cr", environment: "development", changeRequestsEnabled: false, requiredApprovals: 3 }) { environment changeRequestsEnabled requiredApprovals } }' });
    expect(m.body.data.updateChangeRequestConfig).toEqual({ environment: 'development', changeRequestsEnabled: false, requiredApprovals: 3 });
    const bad = await app.post('/graphql', { query: 'mutation { updateChangeRequestConfig(input: { project: "cr", environment: "development", changeRequestsEnabled: true, requiredApprovals: 11 }) { environment } }' });
    expect(bad.body.errors[0].extensions.name).toBe('ValidationError');
  });
});

describe('enforcement (production has change requests enabled, development not)', () => {
  let strategyId: string;
  const state = async (feature: string) => {
    const f = (await app.get(`${F}/${feature}`)).body;
    return { environments: f.environments, archived: f.archivedAt ?? null, deps: f.dependencies ?? [] };
  };
  beforeAll(async () => {
    await app.put(config('production'), { changeRequestsEnabled: true, requiredApprovals: 1 });
    for (const name of ['cr-parent', 'cr-child', 'cr-other']) expect((await app.post(F, { name })).status).toBe(201);
    strategyId = (await app.post(`${F}/cr-child/environments/production/strategies`, { name: 'default' })).body.id; // the admin token may skip
    await app.post(`${F}/cr-child/dependencies`, { feature: 'cr-parent' });
  });

  const directChanges = (env: string) => [
    ['POST', `${F}/cr-child/environments/${env}/on`, undefined],
    ['POST', `${F}/cr-child/environments/${env}/off`, undefined],
    ['POST', `${F}/cr-child/environments/${env}/strategies`, { name: 'default' }],
    ['PUT', `${F}/cr-child/environments/${env}/strategies/${strategyId}`, { name: 'default', parameters: {} }],
    ['PATCH', `${F}/cr-child/environments/${env}/strategies/${strategyId}`, [{ op: 'replace', path: '/title', value: 'x' }]],
    ['POST', `${F}/cr-child/environments/${env}/strategies/set-sort-order`, [{ id: strategyId, sortOrder: 1 }]],
    ['DELETE', `${F}/cr-child/environments/${env}/strategies/${strategyId}`, undefined],
    ['PUT', `${F}/cr-child/environments/${env}/variants`, [{ name: 'a', weightType: 'variable', stickiness: 'default' }]],
    ['PATCH', `${F}/cr-child/environments/${env}/variants`, [{ op: 'add', path: '/0', value: { name: 'b', weightType: 'variable', stickiness: 'default' } }]],
    ['PUT', `${F}/cr-child/variants-batch`, { variants: [{ name: 'a', weightType: 'variable', stickiness: 'default' }], environments: [env] }],
  ] as const;
  const projectWide = [
    ['PUT', `${F}/cr-child/variants`, [{ name: 'a', weightType: 'variable', stickiness: 'default' }]],
    ['POST', `${F}/cr-other/dependencies`, { feature: 'cr-parent' }],
    ['DELETE', `${F}/cr-child/dependencies/cr-parent`, undefined],
    ['DELETE', `${F}/cr-child/dependencies`, undefined],
    ['DELETE', `${F}/cr-other`, undefined],
    ['POST', `${P}/archive`, { features: ['cr-other'] }],
  ] as const;

  it('refuses every direct change in the environment, and every project-wide one, with 403 naming SKIP_CHANGE_REQUEST; nothing changes', async () => {
    const before = [await state('cr-child'), await state('cr-other')];
    const eventsBefore = (await app.events()).length;
    for (const [method, path, body] of [...directChanges('production'), ...projectWide]) {
      const res = await app.request(method, path, body, owner);
      expect([method, path, res.status, res.body.name, res.body.permissions]).toEqual([method, path, 403, 'NoAccessError', ['SKIP_CHANGE_REQUEST']]);
    }
    const res = await app.post(`${F}/cr-child/environments/production/on`, undefined, owner);
    expect(res.body.message).toContain('Change requests are enabled for the "production" environment of project "cr"');
    expect([await state('cr-child'), await state('cr-other')]).toEqual(before);
    expect((await app.events()).length).toBe(eventsBefore);
  });

  it('the same changes in an environment without change requests go through', async () => {
    const dev = (await app.post(`${F}/cr-child/environments/development/strategies`, { name: 'default' }, owner));
    expect(dev.status).toBe(200);
    for (const [method, path, body] of directChanges('development')) {
      const fixed = path.replace(strategyId, dev.body.id);
      const sent = fixed.includes('set-sort-order') ? [{ id: dev.body.id, sortOrder: 1 }] : body;
      const res = await app.request(method, fixed, sent, owner);
      expect([method, fixed, res.status < 300]).toEqual([method, fixed, true]);
    }
  });

  it('SKIP_CHANGE_REQUEST in the environment (and admins) may change directly', async () => {
    const on = await app.post(`${F}/cr-child/environments/production/on`, undefined, skipper);
    expect(on.status).toBe(200);
    expect((await app.post(`${F}/cr-child/environments/production/off`)).status).toBe(200); // the admin token
    const archive = await app.request('DELETE', `${F}/cr-other`, undefined, skipper); // project-wide: skips every enabled environment
    expect(archive.status).toBe(202);
  });

  it('cloning into a project with change requests is refused, even for admins', async () => {
    const res = await app.post(`${F}/cr-parent/clone`, { name: 'cr-copy' });
    expect([res.status, res.body.name]).toEqual([403, 'NoAccessError']);
    expect(res.body.message).toContain('Cloning is not allowed into project "cr"');
    expect((await app.get(`${F}/cr-copy`)).status).toBe(404);
  });

  it('switching change requests off lifts the rule', async () => {
    await app.put(config('production'), { changeRequestsEnabled: false });
    expect((await app.post(`${F}/cr-child/environments/production/on`, undefined, owner)).status).toBe(200);
  });
});
