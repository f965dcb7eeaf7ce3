import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { startReceiver, type Receiver } from '../../support/receiver';
import { spawnService, type ServiceProcess } from '../../support/service-process';

/**
 * Issue 11: a service killed with kill -9 while deliveries are pending delivers them after restart. One delivery is
 * in flight (its receiver has the request and has not answered) and one is still queued behind it (concurrency 1)
 * when the process dies; the restarted service sends both: the queued one at once, the one in flight when its lease
 * ends, with the same Idempotency-Key as before, so a receiver that had seen it could drop it.
 */
const TOKEN = '*:*.addon-restart-token-1';
const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-addon-restart-'));
const running: ServiceProcess[] = [];
let receiver: Receiver | undefined;
afterAll(async () => {
  for (const s of running) s.kill('SIGKILL');
  await Promise.all(running.map((s) => s.exited));
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ENV = {
  DATA_DIR: path.join(dir, 'data'), INIT_ADMIN_API_TOKENS: TOKEN,
  ADDON_ALLOW_PRIVATE_URLS: 'true', ADDON_TIMEOUT_MS: '2000', ADDON_LEASE_MS: '3000', ADDON_RETRY_BASE_MS: '50', ADDON_POLL_MS: '100', ADDON_CONCURRENCY: '1',
};
const call = async (s: ServiceProcess, method: string, p: string, body?: unknown) => {
  const res = await fetch(`http://127.0.0.1:${s.port}${p}`, { method, headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => null) as any };
};

it('delivers after a kill -9 what was in flight and what was queued', async () => {
  let phase: 'hang' | 'answer' = 'hang';
  receiver = await startReceiver(() => (phase === 'hang' ? 'hang' : 200));
  const first = await spawnService(ENV);
  running.push(first);
  const addon = await call(first, 'POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: receiver.url }, events: ['feature-created'] });
  expect(addon.status).toBe(201);
  for (const name of ['restart-a', 'restart-b']) expect((await call(first, 'POST', '/api/admin/projects/default/features', { name })).status).toBe(201);
  await receiver.waitFor(1); // the first delivery is in flight and hangs; the second waits for the worker
  const before = await call(first, 'GET', `/api/admin/addons/${addon.body.id}/deliveries`);
  expect(before.body.deliveries.map((d: any) => d.status)).toEqual(['pending', 'pending']);
  first.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');
  const inFlightKey = String(receiver.requests[0].headers['idempotency-key']);

  phase = 'answer';
  const second = await spawnService(ENV);
  running.push(second);
  await receiver.waitFor(3, 15_000);
  const until = Date.now() + 10_000;
  let deliveries: any[] = [];
  while (Date.now() < until) {
    deliveries = (await call(second, 'GET', `/api/admin/addons/${addon.body.id}/deliveries`)).body.deliveries;
    if (deliveries.every((d) => d.status === 'delivered')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered']);
  const accepted = receiver.accepted();
  expect(new Set(accepted.keys())).toEqual(new Set(deliveries.map((d) => d.id)));
  expect([...accepted.values()].every((list) => list.length === 1)).toBe(true);
  expect(accepted.has(inFlightKey)).toBe(true);
  expect(receiver.requests).toHaveLength(3);
  const features = receiver.requests.slice(1).map((r) => JSON.parse(r.body).featureName).sort();
  expect(features).toEqual(['restart-a', 'restart-b']);
  second.kill('SIGTERM');
  expect(await second.exited).toBe(0);
}, 90_000);
