/**
 * Addon delivery (issue 11), through the real app over HTTP against PostgreSQL, with a real HTTP receiver:
 * 1. Throughput from commit to receiver: N changes (tags created, 20 at a time), each announced to one webhook addon,
 *    with one instance and with two instances (the changes split between them, a worker in each), until the receiver
 *    has every event; plus the latency from each change's answer to its arrival at the receiver.
 * 2. What listening costs a change: sequential feature toggles (enable/disable in one environment) with no addon and
 *    with 10 addons listening to them (deliveries queued in the change's transaction, sent by the worker meanwhile).
 * Usage: npm run bench:addons [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [-- --events 1000] [-- --requests 300]
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp } from '../src/app';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { DEFAULT_DELIVERY_OPTIONS } from '../src/domain/addons/delivery-options';
import { DeliveryWorker } from '../src/domain/addons/delivery-worker';
import { EventHub } from '../src/domain/events/event-hub';
import { listenForEvents } from '../src/domain/events/event-listener';
import { openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { startReceiver } from '../test/support/receiver';
import { percentile } from './bench-app';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const EVENTS = Number(opt('--events', '1000'));
const REQUESTS = Number(opt('--requests', '300'));
const TOKEN = '*:*.bench-addons-token';
const logger = createLogger('silent');


interface Instance {
  base: string;
  orm: MikroORM;
  /** Stops this instance's delivery worker (deliveries stay queued) or starts a new one. */
  pauseWorker(): Promise<void>;
  resumeWorker(): void;
  close(): Promise<void>;
}

async function startInstance(url: string): Promise<Instance> {
  const orm = await openOrm({ url, poolMax: 10 });
  const hub = new EventHub('notify');
  const listener = listenForEvents(orm, url, hub, logger);
  await listener.ready;
  await ensureAdminTokens(orm.em, [TOKEN]);
  const app = buildApp({ orm, logger, eventHub: hub, allowPrivateAddonUrls: true });
  const newWorker = () => new DeliveryWorker(orm, { ...DEFAULT_DELIVERY_OPTIONS, allowPrivateUrls: true, publicUrl: 'http://localhost:4242' }, logger, hub).start();
  let worker = newWorker();
  const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    orm,
    pauseWorker: () => worker.stop(),
    resumeWorker: () => { worker = newWorker(); },
    async close() {
      hub.close();
      await new Promise((r) => server.close(r));
      await worker.stop();
      await listener.stop();
      await orm.close(true);
    },
  };
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(base + path, { method, headers: { authorization: TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

async function throughput(instances: Instance[], label: string, run: number, withAddon = true): Promise<void> {
  const receiver = await startReceiver();
  const [first] = instances;
  const addon = !withAddon ? { id: 0 } : await fetch(`${first.base}/api/admin/addons`, {
    method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'webhook', parameters: { url: receiver.url }, events: ['tag-created'] }),
  }).then((r) => r.json() as Promise<{ id: number }>);
  const answered = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 20 }, async () => {
    while (next < EVENTS) {
      const n = next++;
      const value = `r${run}-${n}`;
      const status = await call(instances[n % instances.length].base, 'POST', '/api/admin/tags', { type: 'simple', value });
      if (status !== 201) throw new Error(`tag: ${status}`);
      answered.set(value, performance.now());
    }
  }));
  const committed = performance.now() - started;
  if (!withAddon) {
    console.log(`| ${label.padEnd(30)} | ${String(EVENTS).padStart(6)} | ${(EVENTS / (committed / 1000)).toFixed(0).padStart(8)}/s |            - |          - |          - |    - |`);
    await receiver.close();
    return;
  }
  await receiver.waitFor(EVENTS, 120_000);
  const delivered = performance.now() - started;
  const received = receiver.requests.map((r) => ({ value: JSON.parse(r.body).data.value as string, at: r.at }));
  const keys = new Set(receiver.requests.map((r) => r.headers['idempotency-key']));
  // Receiver times are wall-clock ms; convert the answer times (performance.now) to the same clock.
  const offset = Date.now() - performance.now();
  const lag = received.map((r) => r.at - (answered.get(r.value)! + offset)).sort((a, b) => a - b);
  console.log(`| ${label.padEnd(30)} | ${String(EVENTS).padStart(6)} | ${(EVENTS / (committed / 1000)).toFixed(0).padStart(8)}/s | ${(EVENTS / (delivered / 1000)).toFixed(0).padStart(8)}/s | ${percentile(lag, 50).toFixed(1).padStart(7)} ms | ${percentile(lag, 99).toFixed(1).padStart(7)} ms | ${String(receiver.requests.length - keys.size).padStart(4)} |`);
  await receiver.close();
  await first.orm.em.fork().execute('delete from addons where id = ?', [addon.id]);
}

/** Delivery capacity: EVENTS deliveries queued while the workers are paused, then drained by `workers` of them. */
async function drain(instances: Instance[], workers: number, run: number): Promise<void> {
  const receiver = await startReceiver();
  const [first] = instances;
  for (const i of instances) await i.pauseWorker();
  const addon = await fetch(`${first.base}/api/admin/addons`, {
    method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'webhook', parameters: { url: receiver.url }, events: ['tag-created'] }),
  }).then((r) => r.json() as Promise<{ id: number }>);
  let next = 0;
  await Promise.all(Array.from({ length: 20 }, async () => {
    while (next < EVENTS) {
      const n = next++;
      if ((await call(first.base, 'POST', '/api/admin/tags', { type: 'simple', value: `d${run}-${n}` })) !== 201) throw new Error('tag');
    }
  }));
  const started = performance.now();
  for (const i of instances.slice(0, workers)) i.resumeWorker();
  await receiver.waitFor(EVENTS, 120_000);
  const took = performance.now() - started;
  const dups = receiver.requests.length - new Set(receiver.requests.map((r) => r.headers['idempotency-key'])).size;
  console.log(`| ${`${workers} worker${workers > 1 ? 's' : ''}`.padEnd(30)} | ${String(EVENTS).padStart(6)} | ${(EVENTS / (took / 1000)).toFixed(0).padStart(8)}/s | ${String(dups).padStart(4)} |`);
  for (const i of instances.slice(workers)) i.resumeWorker();
  await receiver.close();
  await first.orm.em.fork().execute('delete from addons where id = ?', [addon.id]);
}

async function toggles(base: string, label: string, feature: string): Promise<void> {
  const times: number[] = [];
  for (let i = -20; i < REQUESTS; i++) {
    const start = process.hrtime.bigint();
    const status = await call(base, 'POST', `/api/admin/projects/default/features/${feature}/environments/development/${i % 2 === 0 ? 'on' : 'off'}`);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (status !== 200) throw new Error(`toggle: ${status}`);
    if (i >= 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${label.padEnd(44)} | ${String(REQUESTS).padStart(5)} | ${percentile(times, 50).toFixed(2).padStart(7)} ms | ${percentile(times, 99).toFixed(2).padStart(7)} ms |`);
}

async function main() {
  const dbName = `flagdeck_bench_addons_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(pgBase);
  url.pathname = `/${dbName}`;
  const a = await startInstance(url.toString());
  const b = await startInstance(url.toString());
  try {
    console.log(`node ${process.version}; PostgreSQL at ${url.host}; each instance: pool of 10, LISTEN/NOTIFY, a delivery worker (8 at a time)`);
    console.log('\nDelivery throughput: changes sent 20 at a time, one webhook addon, a receiver answering 200 at once');
    console.log('| instances                      | events | commits      | delivered    | lag p50    | lag p99    | dups |');
    console.log('|--------------------------------|--------|--------------|--------------|------------|------------|------|');
    await throughput([a], 'warm-up (not counted), no addon', 0, false);
    await throughput([a], 'one instance, no addon', 1, false);
    await throughput([a], 'one instance', 2);
    await throughput([a, b], 'two instances', 3);

    console.log('\nDelivery capacity: deliveries queued while the workers were paused, then drained (send + record)');
    console.log('| workers                        | queued | drained      | dups |');
    console.log('|--------------------------------|--------|--------------|------|');
    await drain([a, b], 1, 1);
    await drain([a, b], 2, 2);

    console.log(`\nA feature change (enable/disable in one environment), ${REQUESTS} sequential after 20 warm-up`);
    console.log('| listening                                    | reqs  | median     | p99        |');
    console.log('|----------------------------------------------|-------|------------|------------|');
    for (const f of ['bench-toggle-0', 'bench-toggle-10']) if ((await call(a.base, 'POST', '/api/admin/projects/default/features', { name: f })) !== 201) throw new Error('feature');
    await toggles(a.base, 'no addon', 'bench-toggle-0');
    const receiver = await startReceiver();
    for (let i = 0; i < 10; i++) {
      await call(a.base, 'POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: receiver.url }, events: ['feature-environment-enabled', 'feature-environment-disabled'] });
    }
    await a.pauseWorker();
    await b.pauseWorker();
    await toggles(a.base, '10 addons, queued only (workers paused)', 'bench-toggle-10');
    a.resumeWorker();
    b.resumeWorker();
    await receiver.waitFor(10 * (REQUESTS + 20), 120_000);
    await toggles(a.base, '10 addons, sent meanwhile by both workers', 'bench-toggle-10');
    await receiver.waitFor(20 * (REQUESTS + 20), 120_000);
    console.log(`receiver got ${receiver.requests.length} deliveries (${20 * (REQUESTS + 20)} expected), ${new Set(receiver.requests.map((r) => r.headers['idempotency-key'])).size} distinct keys`);
    await receiver.close();
  } finally {
    await a.close();
    await b.close();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
