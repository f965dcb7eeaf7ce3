import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { appendEvents } from '../../../src/domain/events/event.store';
import { loggableError } from '../../../src/logger';
import { startTestApp, type TestApp } from '../../support/harness';
import { startReceiver, type Receiver } from '../../support/receiver';

/**
 * Issue 11, parts 2-5: durable addon delivery against a real HTTP receiver. The outbox row is written with the event;
 * a worker sends it with the provider's format, records every attempt and retries with backoff; receivers get the
 * delivery id as Idempotency-Key; the deliveries of an addon can be read and sent again.
 */
let app: TestApp;
let receiver: Receiver | undefined;
let answer: (index: number) => number | 'hang' | { status: number; location: string } = () => 200;

beforeAll(async () => {
  app = await startTestApp({ deliveries: { retryBaseMs: 20, pollMs: 50, maxAttempts: 5, timeoutMs: 2000, leaseMs: 5000 } });
});
afterAll(async () => { await app.close(); });
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  answer = () => 200;
  // Addons of one test must not receive the next test's events.
  await app.orm.em.fork().execute('delete from addons');
});

const A = '/api/admin/addons';
let features = 0;
const newFeature = async (project = 'default') => {
  const name = `delivered-${++features}`;
  const res = await app.post(`/api/admin/projects/${project}/features`, { name });
  expect(res.status).toBe(201);
  return name;
};
const listen = async (provider: string, parameters: Record<string, unknown>, events: string[], extra: Record<string, unknown> = {}) => {
  receiver ??= await startReceiver((_r, i) => answer(i));
  const res = await app.post(A, { provider, parameters, events, ...extra });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const deliveriesOf = async (addonId: number) => (await app.get(`${A}/${addonId}/deliveries?limit=100`)).body.deliveries as any[];
/** Waits until every delivery of the addon has left `pending` (and at least `n` exist). */
const settled = async (addonId: number, n = 1, timeoutMs = 10_000) => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const list = await deliveriesOf(addonId);
    if (list.length >= n && list.every((d) => d.status !== 'pending')) return list;
    if (Date.now() > until) throw new Error(`deliveries still pending: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
};

describe('formats', () => {
  it('webhook: the event as JSON with contentType, authorization, custom headers and the idempotency key', async () => {
    receiver = await startReceiver();
    const addon = await listen('webhook', { url: `${receiver!.url}/hook/secret-path`, authorization: 'Bearer hook-secret', customHeaders: '{"X-Team":"flags"}' }, ['feature-created']);
    const name = await newFeature();
    const [d] = await settled(addon);
    expect(d).toMatchObject({ addonId: addon, eventType: 'feature-created', status: 'delivered', redeliveryOf: null, nextAttemptAt: null });
    expect(d.attempts).toEqual([{ attempt: 1, at: expect.any(String), durationMs: expect.any(Number), statusCode: 200, error: null }]);
    const [r] = receiver!.requests;
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/hook/secret-path');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.authorization).toBe('Bearer hook-secret');
    expect(r.headers['x-team']).toBe('flags');
    expect(r.headers['idempotency-key']).toBe(d.id);
    const body = JSON.parse(r.body);
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'createdBy', 'createdByUserId', 'data', 'environment', 'featureName', 'id', 'preData', 'project', 'tags', 'type']);
    expect(body).toMatchObject({ id: d.eventId, type: 'feature-created', featureName: name, project: 'default', environment: null, createdBy: 'admin' });
    expect(receiver!.requests).toHaveLength(1);
  });

  it('webhook: bodyTemplate rendered with Mustache over {event}, with its content type', async () => {
    receiver = await startReceiver();
    const addon = await listen('webhook', { url: `${receiver.url}/t`, contentType: 'text/plain', bodyTemplate: '{{event.type}} of {{event.featureName}} by {{event.createdBy}} in {{event.project}}' }, ['feature-created']);
    const name = await newFeature();
    await settled(addon);
    expect(receiver!.requests[0].headers['content-type']).toBe('text/plain');
    expect(receiver!.requests[0].body).toBe(`feature-created of ${name} by admin in default`);
  });

  it('slack: message naming feature, project, environment and author; channel from the slack tag, else defaultChannel', async () => {
    const addon = await listen('slack', { url: 'http://127.0.0.1:1/placeholder', defaultChannel: 'general', username: 'flagbot', emojiIcon: ':rocket:' }, ['feature-environment-enabled', 'feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: `${receiver!.url}/slack`, defaultChannel: 'general', username: 'flagbot', emojiIcon: ':rocket:' } });
    const plain = await newFeature();
    const tagged = await newFeature();
    expect((await app.post(`/api/admin/features/${tagged}/tags`, { type: 'slack', value: 'ops' })).status).toBe(201);
    expect((await app.post(`/api/admin/projects/default/features/${tagged}/environments/development/on`)).status).toBe(200);
    await settled(addon, 3);
    const bodies = receiver!.requests.map((r) => JSON.parse(r.body));
    const created = bodies.find((b) => b.text.includes(plain))!;
    expect(created).toMatchObject({ username: 'flagbot', icon_emoji: ':rocket:', channel: '#general' });
    expect(created.text).toBe(`*admin* created feature <http://localhost:4242/projects/default/features/${plain}|${plain}> in project *default*.`);
    const enabled = bodies.find((b) => b.text.includes('enabled'))!;
    expect(enabled.channel).toBe('#ops');
    expect(enabled.text).toBe(`*admin* enabled <http://localhost:4242/projects/default/features/${tagged}|${tagged}> in the *development* environment in project *default*.`);
    expect(enabled.attachments[0].actions[0]).toMatchObject({ type: 'button', url: `http://localhost:4242/projects/default/features/${tagged}` });
    expect(receiver!.requests.every((r) => r.headers['content-type'] === 'application/json')).toBe(true);
  });

  it('teams: a message card', async () => {
    const addon = await listen('teams', { url: 'http://127.0.0.1:1/x' }, ['feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: `${receiver!.url}/teams` } });
    const name = await newFeature();
    await settled(addon);
    const card = JSON.parse(receiver!.requests[0].body);
    expect(card).toMatchObject({ '@type': 'MessageCard', '@context': 'https://schema.org/extensions', themeColor: '0076D7', summary: 'Message' });
    expect(card.sections[0].activityTitle).toBe(`**admin** created feature [${name}](http://localhost:4242/projects/default/features/${name}) in project **default**.`);
    expect(card.sections[0].facts).toEqual([{ name: 'User', value: 'admin' }, { name: 'Action', value: 'feature-created' }, { name: 'Project', value: 'default' }]);
    expect(card.potentialAction[0]).toEqual({ '@type': 'OpenUri', name: 'Go to feature', targets: [{ os: 'default', uri: `http://localhost:4242/projects/default/features/${name}` }] });
  });

  it('datadog: events API body with title, text and tags, and the DD-API-KEY header', async () => {
    const addon = await listen('datadog', { url: 'http://127.0.0.1:1/x', apiKey: 'dd-secret-key', sourceTypeName: 'flagdeck' }, ['feature-tagged']);
    await app.put(`${A}/${addon}`, { parameters: { url: `${receiver!.url}/api/v1/events`, apiKey: '*****', sourceTypeName: 'flagdeck' } });
    const name = await newFeature();
    expect((await app.post(`/api/admin/features/${name}/tags`, { type: 'datadog', value: 'team-a' })).status).toBe(201);
    await settled(addon);
    const [r] = receiver!.requests;
    expect(r.headers['dd-api-key']).toBe('dd-secret-key'); // the mask sent back kept the stored key
    const body = JSON.parse(r.body);
    expect(body.title).toBe('Unleash notification update');
    expect(body.source_type_name).toBe('flagdeck');
    expect(body.text).toContain(`tagged [${name}]`);
    expect(body.text.startsWith('%%% \n')).toBe(true);
    expect(body.tags).toEqual(['user:admin', 'action:feature-tagged', `feature:${name}`, 'project:default', 'team-a']);
  });

  it('refuses at save what could never be sent: a broken template, header values with line breaks, bad header names', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ bodyTemplate: '{{#event}} never closed' }, 'parameters/bodyTemplate'],
      [{ authorization: 'Bearer x\r\nX-Injected: 1' }, 'parameters/authorization'],
      [{ contentType: 'text/plain\n' }, 'parameters/contentType'],
      [{ customHeaders: '{"X-Ok":"a\\nb"}' }, 'parameters/customHeaders'],
      [{ customHeaders: '{"Bad Name":"v"}' }, 'parameters/customHeaders'],
    ];
    for (const [extra, path] of cases) {
      const res = await app.post(A, { provider: 'webhook', parameters: { url: 'http://127.0.0.1:1/x', ...extra }, events: ['feature-created'] });
      expect([path, res.status, res.body.name, res.body.details?.[0]?.path]).toEqual([path, 400, 'ValidationError', path]);
    }
    expect((await app.get(A)).body.addons).toEqual([]);
  });

  it('follows a redirect (307 repeats the POST) and records the final status', async () => {
    answer = (i) => (i === 0 ? { status: 307, location: '/moved' } : 200);
    const addon = await listen('webhook', { url: 'http://127.0.0.1:1/x' }, ['feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: `${receiver!.url}/first` } });
    await newFeature();
    const [d] = await settled(addon);
    expect(receiver!.requests.map((r) => [r.method, r.path])).toEqual([['POST', '/first'], ['POST', '/moved']]);
    expect(receiver!.requests[1].body).toBe(receiver!.requests[0].body);
    expect(d.attempts[0].statusCode).toBe(200);
  });
});

describe('which addons an event reaches', () => {
  it('matches type, project and environment; a disabled addon gets nothing', async () => {
    receiver = await startReceiver();
    const mk = async (extra: Record<string, unknown>) => (await app.post(A, { provider: 'webhook', parameters: { url: receiver!.url }, events: ['feature-environment-enabled'], ...extra })).body.id as number;
    const all = await mk({});
    const star = await mk({ projects: ['*'], environments: ['*'] });
    const exact = await mk({ projects: ['default'], environments: ['development'] });
    const otherProject = await mk({ projects: ['elsewhere'] });
    const otherEnv = await mk({ environments: ['production'] });
    const disabled = await mk({ enabled: false });
    const otherType = await mk({ events: ['feature-archived'] });
    const name = await newFeature();
    await app.post(`/api/admin/projects/default/features/${name}/environments/development/on`);
    const rows: Array<{ addon_id: number }> = await app.orm.em.fork().execute('select addon_id from addon_deliveries d join events e on e.id = d.event_id where e.feature_name = ? order by addon_id', [name]);
    expect(rows.map((r) => r.addon_id)).toEqual([all, star, exact]);
    for (const id of [otherProject, otherEnv, disabled, otherType]) expect(await deliveriesOf(id)).toEqual([]);
    await settled(all);
  });

  it('a rolled-back change delivers nothing: its events and deliveries vanish with it', async () => {
    const addon = await listen('webhook', { url: 'http://127.0.0.1:1/x' }, ['feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: receiver!.url } });
    const em = app.orm.em.fork();
    await expect(em.transactional(async (tx) => {
      const appended = await appendEvents(tx as never, { name: 'test', userId: null } as never, [{ type: 'feature-created', project: 'default', featureName: 'never-committed' }]);
      expect(appended.deliveries).toBe(1); // queued inside the transaction...
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    await new Promise((r) => setTimeout(r, 300)); // several polls of the worker
    expect(await app.orm.em.fork().execute('select count(*)::int as n from addon_deliveries')).toEqual([{ n: 0 }]);
    expect(receiver!.requests).toEqual([]);
    expect(await app.events('feature-created').then((es) => es.filter((e) => e.featureName === 'never-committed'))).toEqual([]);
  });
});

describe('retries', () => {
  it('a receiver that fails twice and then succeeds gets the event exactly once, with three attempts recorded', async () => {
    answer = (i) => (i < 2 ? 500 : 200);
    const addon = await listen('webhook', { url: 'http://127.0.0.1:1/x' }, ['feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: receiver!.url } });
    await newFeature();
    const [d] = await settled(addon);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a: any) => [a.attempt, a.statusCode, a.error])).toEqual([[1, 500, 'the receiver answered 500'], [2, 500, 'the receiver answered 500'], [3, 200, null]]);
    expect(receiver!.requests.map((r) => r.headers['idempotency-key'])).toEqual([d.id, d.id, d.id]);
    expect([...receiver!.accepted().keys()]).toEqual([d.id]);
    expect(receiver!.accepted().get(d.id)).toHaveLength(1);
    // Backoff: each wait at least half the exponential step (20 ms, then 40 ms).
    const gaps = [receiver!.requests[1].at - receiver!.requests[0].at, receiver!.requests[2].at - receiver!.requests[1].at];
    expect(gaps[0]).toBeGreaterThanOrEqual(9);
    expect(gaps[1]).toBeGreaterThanOrEqual(19);
  });

  it('one that never succeeds ends failed after five attempts; errors never show the secret URL', async () => {
    answer = () => 503;
    const addon = await listen('webhook', { url: 'http://127.0.0.1:1/x' }, ['feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: `${receiver!.url}/services/very-secret-token` } });
    await newFeature();
    const [d] = await settled(addon);
    expect(d.status).toBe('failed');
    expect(d.finishedAt).toEqual(expect.any(String));
    expect(d.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503, 503, 503]);
    expect(receiver!.requests).toHaveLength(5);
    // A receiver that is gone: connection refused, recorded without the URL's secret path.
    const gone = await listen('webhook', { url: 'http://127.0.0.1:1/services/very-secret-token' }, ['feature-created']);
    await newFeature();
    const [g] = await settled(gone);
    expect(g.status).toBe('failed');
    expect(g.attempts[0].statusCode).toBeNull();
    expect(g.attempts[0].error).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify([d, g])).not.toContain('very-secret-token');
  });

  it('an attempt that gets no answer within the timeout fails and is retried', async () => {
    answer = (i) => (i === 0 ? 'hang' : 200);
    const addon = await listen('webhook', { url: 'http://127.0.0.1:1/x' }, ['feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: receiver!.url } });
    await newFeature();
    const [d] = await settled(addon, 1, 15_000);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a: any) => [a.statusCode, a.error])).toEqual([[null, 'no answer within 2000 ms'], [200, null]]);
    expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(1900);
  });

  it('a delivery of an addon disabled before it was sent is skipped', async () => {
    answer = () => 503;
    const addon = await listen('webhook', { url: 'http://127.0.0.1:1/x' }, ['feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: receiver!.url } });
    await newFeature();
    await receiver!.waitFor(1);
    await app.put(`${A}/${addon}`, { enabled: false });
    const [d] = await settled(addon);
    expect(d.status).toBe('skipped');
    expect(d.attempts.at(-1).error).toBe('the addon was disabled before this delivery was sent');
  });
});

describe('reading and redelivering', () => {
  it('lists newest first with paging; redeliver sends the event again under a new id', async () => {
    const addon = await listen('webhook', { url: 'http://127.0.0.1:1/x' }, ['feature-created']);
    await app.put(`${A}/${addon}`, { parameters: { url: receiver!.url } });
    await newFeature();
    await newFeature();
    await newFeature();
    const all = await settled(addon, 3);
    expect(all.map((d) => d.eventId)).toEqual([...all.map((d) => d.eventId)].sort((a, b) => b - a));
    const first = await app.get(`${A}/${addon}/deliveries?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.deliveries.map((d: any) => d.id)).toEqual(all.slice(0, 2).map((d) => d.id));
    const second = await app.get(`${A}/${addon}/deliveries?limit=2&after=${first.body.nextCursor}`);
    expect(second.body).toEqual({ deliveries: [all[2]], nextCursor: null });

    const again = await app.post(`${A}/${addon}/deliveries/${all[2].id}/redeliver`);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ addonId: addon, eventId: all[2].eventId, status: 'pending', redeliveryOf: all[2].id, attempts: [] });
    expect(again.body.id).not.toBe(all[2].id);
    await receiver!.waitFor(4);
    await settled(addon, 4); // recorded too, so the two reads below see the same state
    expect(receiver!.requests[3].headers['idempotency-key']).toBe(again.body.id);
    expect(JSON.parse(receiver!.requests[3].body).id).toBe(all[2].eventId);

    // GraphQL: the same pages and the same redelivery.
    const q = await app.post('/graphql', { query: `query($id: Int!) { addon(id: $id) { deliveries(first: 2) { nodes { id eventId status attempts { attempt statusCode error } redeliveryOf } pageInfo { hasNextPage endCursor } } } }`, variables: { id: addon } });
    const rest = (await app.get(`${A}/${addon}/deliveries?limit=2`)).body;
    expect(q.body.data.addon.deliveries.nodes).toEqual(rest.deliveries.map((d: any) => ({ id: d.id, eventId: d.eventId, status: d.status, attempts: d.attempts.map((a: any) => ({ attempt: a.attempt, statusCode: a.statusCode, error: a.error })), redeliveryOf: d.redeliveryOf })));
    expect(q.body.data.addon.deliveries.pageInfo).toEqual({ hasNextPage: true, endCursor: rest.nextCursor });
    const m = await app.post('/graphql', { query: `mutation($a: Int!, $d: String!) { redeliverAddonDelivery(input: { addonId: $a, deliveryId: $d }) { id status redeliveryOf } }`, variables: { a: addon, d: all[0].id } });
    expect(m.body.data.redeliverAddonDelivery).toMatchObject({ status: 'pending', redeliveryOf: all[0].id });
    await receiver!.waitFor(5);
  });

  it('every addon of a GraphQL list reads its deliveries in one statement', async () => {
    receiver = await startReceiver();
    for (let i = 0; i < 4; i++) await app.post(A, { provider: 'webhook', parameters: { url: receiver.url }, events: ['feature-created'] });
    await newFeature();
    app.resetQueryCount();
    const q = await app.post('/graphql', { query: '{ addons { id deliveries(first: 5) { nodes { id } } } }' });
    expect(q.body.data.addons).toHaveLength(4);
    expect(q.body.data.addons.every((a: any) => a.deliveries.nodes.length === 1)).toBe(true);
    // The worker's claims and records run meanwhile; the request's own reads of deliveries are one statement.
    const reads = app.queries.filter((sql) => sql.includes('addon_deliveries') && !sql.includes('skip locked') && !sql.trimStart().startsWith('update'));
    expect(reads).toHaveLength(1);
  });

  it('documented statuses: 404 for an unknown or malformed addon or delivery, 400 for a bad page, 403 without UPDATE_ADDON', async () => {
    receiver = await startReceiver();
    const addon = (await app.post(A, { provider: 'webhook', parameters: { url: receiver.url }, events: ['feature-created'] })).body.id;
    for (const path of [`${A}/99999/deliveries`, `${A}/abc/deliveries`]) {
      const res = await app.get(path);
      expect([path, res.status, res.body.name]).toEqual([path, 404, 'NotFoundError']);
    }
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'after=abc', 'after=-1', 'colour=red']) {
      const res = await app.get(`${A}/${addon}/deliveries?${query}`);
      expect([query, res.status, res.body.name]).toEqual([query, 400, 'ValidationError']);
    }
    for (const args of ['first: 0', 'first: 101', 'first: 2, after: "abc"']) {
      const q = await app.post('/graphql', { query: `{ addon(id: ${addon}) { deliveries(${args}) { nodes { id } } } }` });
      expect([args, q.body.errors?.[0]?.extensions?.name]).toEqual([args, 'ValidationError']);
    }
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await app.post(`${A}/${addon}/deliveries/${id}/redeliver`);
      expect([id, res.status, res.body.name]).toEqual([id, 404, 'NotFoundError']);
    }
    const res = await app.post(`${A}/99999/deliveries/00000000-0000-4000-8000-000000000000/redeliver`);
    expect(res.status).toBe(404);
    await app.post('/api/admin/user-admin', { username: 'delivery-viewer', password: 'Delivery-Viewer-42', rootRole: 'Viewer' });
    const login = await app.post('/auth/simple/login', { username: 'delivery-viewer', password: 'Delivery-Viewer-42' }, { token: null });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const viewer = await app.post(`${A}/${addon}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`, undefined, { token: null, headers: { cookie, 'content-type': 'application/json' } });
    expect([viewer.status, viewer.body.name]).toEqual([403, 'NoAccessError']);
    expect((await app.get(`${A}/${addon}/deliveries`, { token: null, headers: { cookie } })).status).toBe(200);
  });
});

describe('logs', () => {
  it('a database error is logged without its statement or bound values (an addon URL may be a secret)', async () => {
    const secret = 'https://hooks.example.com/services/T0/B0/log-secret-value';
    let caught: unknown;
    try {
      await app.orm.em.fork().execute('insert into addons (provider, parameters, events) values (?, ?::jsonb, ?::int)', ['webhook', JSON.stringify({ url: secret }), 'not-a-number']);
    } catch (err) {
      caught = err;
    }
    expect(String((caught as Error).message)).toContain('log-secret-value'); // what MikroORM puts in the message...
    const logged = JSON.stringify(loggableError(caught));
    expect(logged).not.toContain('log-secret-value'); // ...is not what the log gets
    expect(logged).toContain('invalid input syntax for type integer');
    expect(logged).toContain('22P02');
  });
});
