import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 11, part 1: the addon API (spec endpoint 1, decision D2): every documented status with its error name, the
 * partial update field by field, and sensitive parameters masked on every read path (REST and GraphQL answers, events).
 */
let app: TestApp;
let viewerToken: string;

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/user-admin', { username: 'addon-viewer', password: 'Addon-Viewer-42', rootRole: 'Viewer' });
  const login = await app.post('/auth/simple/login', { username: 'addon-viewer', password: 'Addon-Viewer-42' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 'addons', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
});
afterAll(async () => { await app.close(); });

const A = '/api/admin/addons';
const SECRET_URL = 'https://hooks.example.com/services/T000/B000/secret-part';
const webhook = (extra: Record<string, unknown> = {}) => ({
  provider: 'webhook', description: 'Deploy hook', enabled: true,
  parameters: { url: SECRET_URL, authorization: 'Bearer top-secret', contentType: 'application/json', bodyTemplate: '{"t":"{{event.type}}"}' },
  events: ['feature-created', 'feature-updated'], projects: ['default'], environments: ['development'], ...extra,
});
const stored = async (id: number) => (await app.orm.em.fork().execute('select parameters, description, enabled, events, projects, environments from addons where id = ?', [id]))[0];
const runQuery = async (query: string, variables?: Record<string, unknown>) => (await app.post('/graphql', { query, variables })).body as { data?: any; errors?: any[] };

describe('listing providers and addons', () => {
  it('GET /api/admin/addons lists addons and the providers, webhook first, each with its parameters, tag types and events', async () => {
    const res = await app.get(A);
    expect(res.status).toBe(200);
    expect(res.body.addons).toEqual([]);
    expect(res.body.providers.map((p: { name: string }) => p.name)).toEqual(['webhook', 'slack', 'teams', 'datadog']);
    const hook = res.body.providers[0];
    expect(hook).toMatchObject({ displayName: 'Webhook', documentationUrl: expect.stringMatching(/^https:\/\//), tagTypes: [], events: expect.arrayContaining(['feature-created']) });
    expect(hook.parameters.find((p: { name: string }) => p.name === 'url')).toMatchObject({ displayName: expect.any(String), type: 'url', description: expect.any(String), required: true, sensitive: true });
    expect(res.body.providers[1].tagTypes).toEqual([expect.objectContaining({ name: 'slack' })]);
  });
});

describe('creating an addon', () => {
  it('201 with the addon, sensitive parameters masked; the event carries no parameters', async () => {
    const res = await app.post(A, webhook());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), provider: 'webhook', description: 'Deploy hook', enabled: true,
      parameters: { url: '*****', authorization: '*****', contentType: 'application/json', bodyTemplate: '{"t":"{{event.type}}"}' },
      events: ['feature-created', 'feature-updated'], projects: ['default'], environments: ['development'], createdAt: expect.any(String),
    });
    expect(res.headers.get('location')).toBe(`addons/${res.body.id}`);
    expect((await stored(res.body.id)).parameters.url).toBe(SECRET_URL);
    const [event] = await app.events('addon-config-created');
    expect(event.data).toEqual({ id: res.body.id, provider: 'webhook', enabled: true, description: 'Deploy hook', events: ['feature-created', 'feature-updated'], projects: ['default'], environments: ['development'], createdAt: res.body.createdAt });
    expect(JSON.stringify(event)).not.toContain('secret');
  });

  it('defaults: enabled true, description null, all projects and environments', async () => {
    const res = await app.post(A, { provider: 'teams', parameters: { url: 'https://teams.example.com/hook' }, events: ['feature-archived'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ enabled: true, description: null, projects: [], environments: [], parameters: { url: '*****' } });
  });

  it('a slack or datadog addon creates its tag type once (event tag-type-created)', async () => {
    expect((await app.get('/api/admin/tag-types/slack')).status).toBe(404);
    const slack = { provider: 'slack', parameters: { url: 'https://hooks.slack.com/services/x', defaultChannel: 'releases' }, events: ['feature-created'] };
    expect((await app.post(A, slack)).status).toBe(201);
    expect((await app.post(A, slack)).status).toBe(201);
    expect((await app.get('/api/admin/tag-types/slack')).body).toMatchObject({ tagType: { name: 'slack', icon: 'S' } });
    expect((await app.events('tag-type-created')).filter((e) => e.data.name === 'slack')).toHaveLength(1);
    expect((await app.post(A, { provider: 'datadog', parameters: { apiKey: 'dd-secret-key' }, events: ['feature-created'] })).body.parameters).toEqual({ apiKey: '*****' });
    expect((await app.get('/api/admin/tag-types/datadog')).status).toBe(200);
  });

  it('400 ValidationError naming the property for each rule, and nothing is written', async () => {
    const before = (await app.get(A)).body.addons.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ provider: 'pager' }, 'provider'],
      [{ provider: 'not url friendly' }, 'provider'],
      [{ parameters: { contentType: 'text/plain' } }, 'parameters/url'],
      [{ parameters: { url: 'not a url' } }, 'parameters/url'],
      [{ parameters: { url: 'ftp://files.example.com/x' } }, 'parameters/url'],
      [{ parameters: { url: SECRET_URL, colour: 'red' } }, 'parameters/colour'],
      [{ parameters: { url: SECRET_URL, customHeaders: '[1]' } }, 'parameters/customHeaders'],
      [{ parameters: { url: SECRET_URL, authorization: '*****' } }, 'parameters/authorization'],
      [{ parameters: { url: { nested: true } } }, 'parameters/url'],
      [{ events: ['feature-exploded'] }, 'events/0'],
      [{ events: 'feature-created' }, 'events'],
      [{ projects: [1] }, 'projects/0'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ extra: true }, 'extra'],
      [{ parameters: undefined }, 'parameters'],
      [{ events: undefined }, 'events'],
    ];
    for (const [change, path] of cases) {
      const res = await app.post(A, webhook(change));
      expect({ change, status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ change, status: 400, name: 'ValidationError', path });
    }
    expect((await app.get(A)).body.addons).toHaveLength(before);
  });

  it('401 without credentials, 403 without CREATE_ADDON, 413 over 100 kB, 415 for a body that is not JSON', async () => {
    expect((await app.post(A, webhook(), { token: null })).body.name).toBe('AuthenticationRequired');
    const denied = await app.post(A, webhook(), { token: viewerToken });
    expect({ status: denied.status, name: denied.body.name, permissions: denied.body.permissions }).toEqual({ status: 403, name: 'NoAccessError', permissions: ['CREATE_ADDON'] });
    const big = await app.post(A, webhook({ description: 'x'.repeat(101 * 1024) }));
    expect({ status: big.status, name: big.body.name }).toEqual({ status: 413, name: 'ContentTooLarge' });
    const form = await app.post(A, undefined, { raw: 'provider=webhook', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect({ status: form.status, name: form.body.name }).toEqual({ status: 415, name: 'ContentTypeerror' });
  });
});

describe('updating an addon (D2: absent untouched, null empties)', () => {
  it('each property absent is untouched; each sent is changed; the answer and the event mask or leave out the secrets', async () => {
    const { id } = (await app.post(A, webhook())).body;
    const original = await stored(id);
    for (const [change, expected] of [
      [{ description: 'Renamed' }, { description: 'Renamed' }],
      [{ enabled: false }, { enabled: false }],
      [{ events: ['feature-archived'] }, { events: ['feature-archived'] }],
      [{ projects: ['p1', 'p2'] }, { projects: ['p1', 'p2'] }],
      [{ environments: ['production'] }, { environments: ['production'] }],
    ] as Array<[Record<string, unknown>, Record<string, unknown>]>) {
      const before = await stored(id);
      const res = await app.put(`${A}/${id}`, change);
      expect(res.status).toBe(200);
      expect(await stored(id)).toEqual({ ...before, ...expected });
      expect(res.body.parameters).toEqual({ url: '*****', authorization: '*****', contentType: 'application/json', bodyTemplate: '{"t":"{{event.type}}"}' });
    }
    expect((await stored(id)).parameters).toEqual(original.parameters);
    const [event] = await app.events('addon-config-updated');
    expect(event.data).toMatchObject({ id, environments: ['production'] });
    expect(event.preData).toMatchObject({ id, environments: ['development'] });
    expect(event.data).not.toHaveProperty('parameters');
    expect(JSON.stringify(event)).not.toContain('secret');
  });

  it('null empties: description becomes "", events, projects and environments become []; null parameters are refused for a provider with required ones', async () => {
    const { id } = (await app.post(A, webhook())).body;
    const res = await app.put(`${A}/${id}`, { description: null, events: null, projects: null, environments: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: '', events: [], projects: [], environments: [] });
    const emptied = await app.put(`${A}/${id}`, { parameters: null });
    expect({ status: emptied.status, path: emptied.body.details?.[0]?.path }).toEqual({ status: 400, path: 'parameters/url' });
    for (const field of ['enabled', 'provider']) {
      const res2 = await app.put(`${A}/${id}`, { [field]: null });
      expect({ field, status: res2.status, path: res2.body.details?.[0]?.path }).toEqual({ field, status: 400, path: field });
    }
  });

  it('sent parameters replace the stored ones; a sensitive one sent as ***** keeps its stored value', async () => {
    const { id } = (await app.post(A, webhook())).body;
    const res = await app.put(`${A}/${id}`, { parameters: { url: '*****', authorization: 'Bearer rotated' } });
    expect(res.status).toBe(200);
    expect(res.body.parameters).toEqual({ url: '*****', authorization: '*****' });
    expect((await stored(id)).parameters).toEqual({ url: SECRET_URL, authorization: 'Bearer rotated' });
    // A read-modify-write of what GET shows changes nothing.
    const shown = (await app.get(`${A}/${id}`)).body;
    await app.put(`${A}/${id}`, { parameters: shown.parameters });
    expect((await stored(id)).parameters).toEqual({ url: SECRET_URL, authorization: 'Bearer rotated' });
  });

  it('a change of provider checks the parameters against the new one', async () => {
    const { id } = (await app.post(A, webhook({ parameters: { url: SECRET_URL } }))).body;
    const slack = await app.put(`${A}/${id}`, { provider: 'slack' });
    expect({ status: slack.status, path: slack.body.details?.[0]?.path }).toEqual({ status: 400, path: 'parameters/defaultChannel' });
    const ok = await app.put(`${A}/${id}`, { provider: 'slack', parameters: { url: 'https://hooks.slack.com/services/y', defaultChannel: 'ops' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ provider: 'slack', parameters: { url: '*****', defaultChannel: 'ops' } });
  });

  it('parallel updates leave one true event each, in a chain: each preData is what the one before wrote', async () => {
    const { id } = (await app.post(A, webhook({ description: 'd-start' }))).body;
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => app.put(`${A}/${id}`, { description: `d-${i}` })));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const events = (await app.events('addon-config-updated')).filter((e) => e.data.id === id).reverse();
    expect(events).toHaveLength(10);
    expect(events[0].preData.description).toBe('d-start');
    for (let i = 1; i < events.length; i++) expect(events[i].preData.description).toBe(events[i - 1].data.description);
    expect((await stored(id)).description).toBe(events[9].data.description);
  });

  it('404 NotFoundError for an unknown or non-numeric id; 400 for bad input; 403 without UPDATE_ADDON; 415; nothing changes', async () => {
    const { id } = (await app.post(A, webhook())).body;
    const before = await stored(id);
    for (const path of [`${A}/999999`, `${A}/abc`, `${A}/1.5`, `${A}/-1`, `${A}/99999999999999999999`]) {
      const res = await app.put(path, { description: 'x' });
      expect({ path, status: res.status, name: res.body.name }).toEqual({ path, status: 404, name: 'NotFoundError' });
      expect((await app.get(path)).status).toBe(404);
      expect((await app.del(path)).status).toBe(404);
    }
    const bad = await app.put(`${A}/${id}`, { events: ['nope'] });
    expect({ status: bad.status, path: bad.body.details?.[0]?.path }).toEqual({ status: 400, path: 'events/0' });
    expect((await app.put(`${A}/${id}`, { description: 'x' }, { token: viewerToken })).status).toBe(403);
    expect((await app.put(`${A}/${id}`, undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect(await stored(id)).toEqual(before);
  });
});

describe('reading and deleting', () => {
  it('masking holds on every read path: list, one, GraphQL addons and addon', async () => {
    const { id } = (await app.post(A, webhook())).body;
    const one = (await app.get(`${A}/${id}`)).body;
    expect(one.parameters).toMatchObject({ url: '*****', authorization: '*****' });
    expect((await app.get(A)).body.addons.find((a: { id: number }) => a.id === id)).toEqual(one);
    const q = await runQuery('query($id: Int!) { addon(id: $id) { id provider parameters events } addons { id parameters } }', { id });
    expect(q.errors).toBeUndefined();
    expect(q.data.addon).toEqual({ id, provider: 'webhook', parameters: one.parameters, events: one.events });
    expect(q.data.addons.find((a: { id: number }) => a.id === id).parameters).toEqual(one.parameters);
    expect(JSON.stringify((await app.get(A)).body)).not.toContain('secret');
  });

  it('DELETE: 200, then 404; event addon-config-deleted without parameters; 403 without DELETE_ADDON', async () => {
    const { id } = (await app.post(A, webhook())).body;
    expect((await app.del(`${A}/${id}`, { token: viewerToken })).status).toBe(403);
    expect((await app.del(`${A}/${id}`)).status).toBe(200);
    expect((await app.get(`${A}/${id}`)).status).toBe(404);
    const [event] = await app.events('addon-config-deleted');
    expect(event.preData).toMatchObject({ id, provider: 'webhook' });
    expect(event.preData).not.toHaveProperty('parameters');
  });

  it('GraphQL createAddon, updateAddon (D2) and deleteAddon agree with REST and refuse with the same names', async () => {
    const created = await runQuery('mutation($input: CreateAddonInput!) { createAddon(input: $input) { id description parameters } }', { input: webhook() });
    expect(created.errors).toBeUndefined();
    const { id } = created.data.createAddon;
    expect(created.data.createAddon.parameters).toMatchObject({ url: '*****' });
    const updated = await runQuery('mutation($input: UpdateAddonInput!) { updateAddon(input: $input) { description enabled projects } }', { input: { id, description: null, projects: null } });
    expect(updated.data.updateAddon).toEqual({ description: '', enabled: true, projects: [] });
    expect((await stored(id)).environments).toEqual(['development']);
    const unknown = await runQuery('mutation { updateAddon(input: { id: 999999, description: "x" }) { id } }');
    expect(unknown.errors?.[0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
    const bad = await runQuery('mutation($input: CreateAddonInput!) { createAddon(input: $input) { id } }', { input: webhook({ provider: 'pager' }) });
    expect(bad.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'provider' }] });
    expect((await runQuery(`mutation { deleteAddon(input: { id: ${id} }) }`)).data.deleteAddon).toBe(true);
    expect((await app.get(`${A}/${id}`)).status).toBe(404);
  });
});
