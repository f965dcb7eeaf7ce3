import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startDbProxy, type DbProxy } from '../support/db-proxy';
import { startTestApp, type TestApp } from '../support/harness';
import { startReceiver } from '../support/receiver';

/**
 * Issue 42, first part: the database taken away under a running service (through a proxy between the app and the
 * suite's database, test/support/db-proxy.ts). Writes are refused with the named error and `Retry-After` on both
 * doors and leave nothing behind; liveness stays good while readiness says the database is away; writes work again
 * as soon as it is back; a change request due during the outage is applied once it is back, not failed, and an addon
 * delivery due meanwhile is sent then. (The SDK doors: database-outage-sdk.test.ts; under load on a server of its own:
 * database-outage-acceptance.test.ts.)
 */
let app: TestApp;
let proxy: DbProxy;

beforeAll(async () => {
  proxy = await startDbProxy(process.env.DATABASE_URL!);
  app = await startTestApp({ databaseUrl: proxy.url, scheduler: { pollMs: 100 }, deliveries: { retryBaseMs: 1000, pollMs: 50, maxAttempts: 5, timeoutMs: 2000, leaseMs: 5000 } });
});
afterAll(async () => {
  await proxy.start().catch(() => undefined);
  await app.close();
  await proxy.close();
});

const createProject = (id: string) => app.post('/api/admin/projects', { id, name: id });
const gqlCreateProject = (id: string) => app.post('/graphql', { query: `mutation { createProject(input: {id: "${id}", name: "${id}"}) { id } }` });
const health = async (path: string) => (await app.get(path)).status;

describe('the database away', () => {
  it('refuses writes by name with Retry-After on both doors, keeps /health/live, and takes writes again once it is back', async () => {
    expect((await createProject('before-outage')).status).toBe(201);
    expect([await health('/health/live'), await health('/health/ready'), await health('/health')]).toEqual([200, 200, 200]);
    const eventsBefore = (await app.events()).length;

    await proxy.stop();
    const refused = await createProject('during-outage');
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ name: 'ServiceUnavailableError', message: expect.stringMatching(/database is not reachable/) });
    expect(refused.headers.get('retry-after')).toBe('5');
    const viaGraphql = await gqlCreateProject('during-outage-gql');
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ name: 'ServiceUnavailableError', code: 503, retryAfter: 5 });
    expect([await health('/health/live'), await health('/health/ready'), await health('/health')]).toEqual([200, 503, 503]);
    expect((await app.get('/health/ready')).headers.get('retry-after')).toBe('5');

    await proxy.start();
    const back = Date.now();
    let status = 0;
    while (status !== 201 && Date.now() - back < 5000) status = (await createProject('after-outage')).status;
    expect(status).toBe(201);
    expect(Date.now() - back).toBeLessThan(1000);
    expect([await health('/health/live'), await health('/health/ready')]).toEqual([200, 200]);
    // Nothing of the refused writes was made: no project, no event.
    expect((await app.get('/api/admin/projects/during-outage')).status).toBe(404);
    expect((await app.get('/api/admin/projects/during-outage-gql')).status).toBe(404);
    const events = await app.events();
    expect(events.length).toBe(eventsBefore + 1);
    expect(events[0]).toMatchObject({ type: 'project-created', project: 'after-outage' });
  });

  it('answers readiness within its bound when the network hangs rather than refuses, and liveness at once', async () => {
    proxy.hang();
    const started = Date.now();
    expect(await health('/health/ready')).toBe(503);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await health('/health/live')).toBe(200);
    await proxy.start();
    const back = Date.now();
    let ready = 0;
    while (ready !== 200 && Date.now() - back < 5000) ready = await health('/health/ready');
    expect(ready).toBe(200);
  });

  it('applies a change request that fell due while the database was away once it is back, once, and does not fail it', async () => {
    const P = '/api/admin/projects/outage-cr';
    await app.post('/api/admin/projects', { id: 'outage-cr', name: 'Outage CR' });
    await app.post(`${P}/environments`, { environment: 'production' });
    await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
    const reviewer = (await app.post('/api/admin/api-tokens', { tokenName: 'outage-reviewer', type: 'admin' })).body.secret as string;
    await app.post(`${P}/features`, { name: 'outage-flag' });
    const draft = await app.post(`${P}/environments/production/change-requests`, { action: 'updateEnabled', feature: 'outage-flag', payload: { enabled: true } });
    const id = draft.body.id as number;
    await app.put(`${P}/change-requests/${id}/state`, { state: 'In review' });
    expect((await app.put(`${P}/change-requests/${id}/state`, { state: 'Approved' }, { token: reviewer })).body.state).toBe('Approved');
    const at = new Date(Date.now() + 500).toISOString();
    expect((await app.put(`${P}/change-requests/${id}/state`, { state: 'Scheduled', scheduledAt: at }, { token: reviewer })).status).toBe(200);

    await proxy.stop();
    await new Promise((r) => setTimeout(r, 1500)); // due meanwhile: the scheduler's rounds fail, and it keeps polling
    await proxy.start();
    const end = Date.now() + 10_000;
    let request = (await app.get(`${P}/change-requests/${id}`)).body;
    while (request.state !== 'Applied' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      request = (await app.get(`${P}/change-requests/${id}`)).body;
    }
    expect(request.state).toBe('Applied');
    expect((await app.events('change-request-applied')).filter((e) => e.data.changeRequestId === id)).toHaveLength(1);
    expect((await app.events('change-request-scheduled-application-failure')).filter((e) => e.data.changeRequestId === id)).toEqual([]);
    expect((await app.get(`${P}/features/outage-flag`)).body.environments.find((e: { name: string }) => e.name === 'production').enabled).toBe(true);
  });

  it('sends an addon delivery whose retry fell due while the database was away once it is back, once', async () => {
    const receiver = await startReceiver((_r, i) => (i === 0 ? 500 : 200));
    try {
      const addon = (await app.post('/api/admin/addons', { provider: 'webhook', parameters: { url: `${receiver.url}/hook` }, events: ['feature-created'] })).body.id as number;
      expect((await app.post('/api/admin/projects/default/features', { name: 'outage-delivery' })).status).toBe(201);
      // The first attempt answered 500 and recorded: its retry is due 0.5 to 1 s later, while the database is away.
      const attempts = async () => ((await app.get(`/api/admin/addons/${addon}/deliveries?limit=10`)).body.deliveries?.[0]?.attempts ?? []).length as number;
      for (const end = Date.now() + 5000; (await attempts()) === 0 && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
      expect(receiver.requests).toHaveLength(1);

      await proxy.stop();
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.requests).toHaveLength(1);
      await proxy.start();
      let deliveries: Array<{ status: string; attempts: unknown[] }> = [];
      for (const end = Date.now() + 10_000; deliveries[0]?.status !== 'delivered' && Date.now() < end;) {
        await new Promise((r) => setTimeout(r, 50));
        deliveries = (await app.get(`/api/admin/addons/${addon}/deliveries?limit=10`)).body.deliveries ?? [];
      }
      expect(deliveries.map((d) => [d.status, d.attempts.length])).toEqual([['delivered', 2]]);
      expect(receiver.requests).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});
