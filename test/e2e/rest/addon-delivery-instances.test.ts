import { afterAll, beforeAll, expect } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';
import { startReceiver, type Receiver } from '../../support/receiver';
import { itWhen, NEEDS_POSTGRES } from '../../support/skip';

/**
 * Issue 11: two service instances on one PostgreSQL database, each with its own delivery worker and LISTEN/NOTIFY,
 * deliver 200 events with no duplicate and none lost (counted by Idempotency-Key at the receiver). The embedded
 * database serves one process, so this runs on the PostgreSQL pass of the suite only.
 */
const onPostgres = Boolean(process.env.FLAGDECK_TEST_DB);
const maybe = itWhen(onPostgres, NEEDS_POSTGRES);

let a: TestApp;
let b: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  if (!onPostgres) return;
  const deliveries = { retryBaseMs: 20, pollMs: 200, concurrency: 4 };
  a = await startTestApp({ events: 'notify', deliveries });
  b = await startTestApp({ events: 'notify', deliveries, reset: false });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await a?.close();
  await b?.close();
});

maybe('two instances deliver 200 events exactly once each', async () => {
  const created = await a.post('/api/admin/addons', { provider: 'webhook', parameters: { url: receiver.url }, events: ['tag-created'] });
  expect(created.status).toBe(201);
  // 200 changes, half through each instance, ten at a time.
  for (let batch = 0; batch < 20; batch++) {
    await Promise.all(Array.from({ length: 10 }, (_, i) => {
      const n = batch * 10 + i;
      return (n % 2 === 0 ? a : b).post('/api/admin/tags', { type: 'simple', value: `instance-${n}` }).then((r) => expect(r.status).toBe(201));
    }));
  }
  await receiver.waitFor(200, 30_000);
  // A worker records a delivery after its receiver has answered: under load that write can land well after the
  // request arrived. Wait until none is in flight (pending or claimed), then a little more: a duplicate would arrive now.
  const statuses = async (): Promise<Array<{ status: string; n: number }>> =>
    a.orm.em.fork().execute('select status, count(*)::int as n from addon_deliveries group by status order by status');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && (await statuses()).some((r) => r.status !== 'delivered')) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 500));
  expect(receiver.requests).toHaveLength(200);
  const keys = receiver.accepted();
  expect(keys.size).toBe(200);
  expect([...keys.values()].every((list) => list.length === 1)).toBe(true);
  const values = new Set(receiver.requests.map((r) => JSON.parse(r.body).data.value));
  expect(values.size).toBe(200);
  expect(await statuses()).toEqual([{ status: 'delivered', n: 200 }]);
}, 90_000);
