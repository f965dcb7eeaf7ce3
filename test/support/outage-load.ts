/**
 * Issue 42's acceptance scenario, shared by its test (test/e2e/database-outage-acceptance.test.ts) and its figures
 * (bench/database-outage.ts): the real service (startServer, as `npm start` runs it) on a PostgreSQL server of its
 * own, under load from writers, a polling SDK, a streaming SDK, a frontend client and a raw poller, while the server is
 * stopped (`pg_ctl stop -m fast`) or the network to it is cut (a proxy that passes nothing), then given back. What
 * every request got, and when, is recorded for the caller to judge.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startServer, type Running } from '../../src/server';
import { startDbProxy, type DbProxy } from './db-proxy';
import type { TestApp } from './harness';
import { startOwnPostgres, type OwnPostgres } from './own-postgres';
import { startSdk, type SdkHandle } from './sdk-harness';
import { openSse } from './sse';

export type OutageKind = 'stop' | 'cut';

const ADMIN = '*:*.outage-acceptance-admin';
const SPEC = { 'unleash-client-spec': '5.2.0' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Answer {
  at: number;
  ms: number;
  status: number;
  name?: string;
  retryAfter?: string | null;
  stale?: boolean;
  same?: boolean;
}

export interface OutageReport {
  kind: OutageKind;
  outageAt: number;
  backAt: number;
  /** The raw poller's answers (`GET /api/client/features` with the ETag it holds). */
  polls: Answer[];
  frontend: Answer[];
  writes: Array<Answer & { flag: string }>;
  live: Answer[];
  ready: Answer[];
  /** How long after the database was back the first write succeeded (a write loop started at that moment). */
  firstWriteMs: number;
  /** The SDK started during the outage: whether it synchronized, and whether it holds what the polling SDK holds. */
  lateSdk: { synchronized: boolean; sameFlags: boolean; error?: string };
  sdkErrors: { poller: unknown[]; streamer: unknown[]; late: unknown[] };
  streamerModeChanges: unknown[];
  /** The raw stream opened before the outage: whether it ended, and whether it carried the change made afterwards. */
  stream: { ended: boolean; gotChangeAfter: boolean };
  streamerGotChangeAfter: boolean;
  metricsDuringOutage: number;
  registrationDuringOutage: number;
  /** `yes` counted for the flag the metrics report named, once written. */
  metricsCounted: number;
  applicationRegistered: boolean;
  /** Flags of the load project, and the flags its `feature-created` events name. */
  flags: string[];
  createdEvents: string[];
}

async function call(base: string, method: string, url: string, body?: unknown, token: string | null = ADMIN, headers: Record<string, string> = {}) {
  const started = Date.now();
  const res = await fetch(base + url, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { ...(token ? { authorization: token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
  });
  const text = await res.text();
  let parsed: any = text;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, body: parsed, at: started, ms: Date.now() - started };
}

/** Runs `step` again and again until stopped, each run awaited; `gapMs` between runs. */
function loop(step: () => Promise<void>, gapMs: number) {
  let running = true;
  const done = (async () => {
    while (running) {
      await step().catch(() => undefined);
      await sleep(gapMs);
    }
  })();
  return async () => { running = false; await done; };
}

export async function runOutage(kind: OutageKind, outageMs: number): Promise<OutageReport> {
  let pg: OwnPostgres | undefined;
  let proxy: DbProxy | undefined;
  let running: Running | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-outage-'));
  const sdks: SdkHandle[] = [];
  const stops: Array<() => Promise<void>> = [];
  try {
    pg = await startOwnPostgres();
    if (kind === 'cut') proxy = await startDbProxy(pg.url);
    const config = loadConfig({
      DATABASE_URL: proxy?.url ?? pg.url, PORT: '0', DATA_DIR: dataDir, INIT_ADMIN_API_TOKENS: ADMIN, LOG_LEVEL: 'silent',
      CLIENT_METRICS_FLUSH_MS: '200', SHUTDOWN_TIMEOUT_MS: '2000',
    });
    running = await startServer(config, createLogger((process.env.OUTAGE_LOG_LEVEL ?? 'silent') as 'silent'));
    const base = `http://127.0.0.1:${running.port}`;
    const as = { url: base } as TestApp;

    await call(base, 'POST', '/api/admin/projects', { id: 'load', name: 'Load' });
    for (let i = 0; i < 5; i++) {
      await call(base, 'POST', '/api/admin/projects/load/features', { name: `f${i}` });
      if (i % 2 === 0) {
        await call(base, 'POST', `/api/admin/projects/load/features/f${i}/environments/development/strategies`, { name: 'default' });
        await call(base, 'POST', `/api/admin/projects/load/features/f${i}/environments/development/on`);
      }
    }
    const token = async (type: string) => (await call(base, 'POST', '/api/admin/api-tokens', { tokenName: `load-${type}`, type, environment: 'development', projects: ['load'] })).body.secret as string;
    const client = await token('client');
    const frontend = await token('frontend');
    const etag = (await call(base, 'GET', '/api/client/features', undefined, client, SPEC)).headers.get('etag')!;
    const frontFirst = await call(base, 'GET', '/api/frontend?userId=u1', undefined, frontend);

    const poller = await startSdk(as, client, 'full', { appName: 'load-poller' });
    const streamer = await startSdk(as, client, 'streaming', { appName: 'load-streamer' });
    sdks.push(poller, streamer);
    const stream = await openSse(`${base}/api/client/streaming`, { authorization: client, ...SPEC });
    await stream.expectEvent();

    const polls: Answer[] = [];
    const frontendAnswers: Answer[] = [];
    const writes: OutageReport['writes'] = [];
    const live: Answer[] = [];
    const ready: Answer[] = [];
    stops.push(loop(async () => {
      const r = await call(base, 'GET', '/api/client/features', undefined, client, { ...SPEC, 'if-none-match': etag });
      polls.push({ at: r.at, ms: r.ms, status: r.status, stale: r.headers.has('flagdeck-stale-since') });
    }, 50));
    stops.push(loop(async () => {
      const r = await call(base, 'GET', '/api/frontend?userId=u1', undefined, frontend);
      frontendAnswers.push({ at: r.at, ms: r.ms, status: r.status, stale: r.headers.has('flagdeck-stale-since'), same: JSON.stringify(r.body) === JSON.stringify(frontFirst.body) });
    }, 100));
    let written = 0;
    for (let w = 0; w < 2; w++) {
      stops.push(loop(async () => {
        const flag = `w${w}-${written++}`;
        const r = await call(base, 'POST', '/api/admin/projects/load/features', { name: flag });
        writes.push({ flag, at: r.at, ms: r.ms, status: r.status, name: r.body?.name, retryAfter: r.headers.get('retry-after') });
      }, 30));
    }
    stops.push(loop(async () => {
      const l = await call(base, 'GET', '/health/live', undefined, null);
      live.push({ at: l.at, ms: l.ms, status: l.status });
      const r = await call(base, 'GET', '/health/ready', undefined, null);
      ready.push({ at: r.at, ms: r.ms, status: r.status });
    }, 200));

    await sleep(600);
    const outageAt = Date.now();
    if (kind === 'stop') await pg.stop('fast');
    else proxy!.hang();

    // During the outage: an SDK starts, and SDKs report.
    await sleep(Math.min(1200, outageMs / 3));
    const lateSdk: OutageReport['lateSdk'] = { synchronized: false, sameFlags: false };
    let late: SdkHandle | undefined;
    try {
      late = await startSdk(as, client, 'full', { appName: 'load-late' }, Math.max(2000, outageMs / 2));
      sdks.push(late);
      lateSdk.synchronized = true;
      // What the polling SDK, started before the outage, holds: the last state served.
      const held = (sdk: SdkHandle) => JSON.stringify(sdk.sdk.getFeatureToggleDefinitions().map((f) => [f.name, f.enabled]).sort());
      lateSdk.sameFlags = held(late) === held(poller) && held(late).includes('"f0",true');
    } catch (err) {
      lateSdk.error = String(err);
    }
    const bucket = { start: new Date(Date.now() - 5000).toISOString(), stop: new Date().toISOString(), toggles: { f0: { yes: 5, no: 1 } } };
    const metricsDuringOutage = (await call(base, 'POST', '/api/client/metrics', { appName: 'load-reporter', instanceId: 'r-1', bucket }, client)).status;
    const registration = { appName: 'load-reporter', instanceId: 'r-1', sdkVersion: 'unleash-client-node:6.0.0', strategies: ['default'], started: new Date().toISOString(), interval: 10_000 };
    const registrationDuringOutage = (await call(base, 'POST', '/api/client/register', registration, client)).status;

    await sleep(Math.max(0, outageAt + outageMs - Date.now()));
    if (kind === 'stop') await pg.start();
    else await proxy!.start();
    const backAt = Date.now();
    let firstWriteMs = -1;
    for (let n = 0; Date.now() - backAt < 10_000; n++) {
      const r = await call(base, 'POST', '/api/admin/projects', { id: `after-${kind}-${n}`, name: 'after' });
      if (r.status === 201) { firstWriteMs = Date.now() - backAt; break; }
      await sleep(10);
    }

    // A change after the outage reaches the stream opened before it and the streaming SDK.
    await call(base, 'POST', '/api/admin/projects/load/features/f1/environments/development/strategies', { name: 'default' });
    await call(base, 'POST', '/api/admin/projects/load/features/f1/environments/development/on');
    let gotChangeAfter = false;
    let ended = false;
    for (const end = Date.now() + 5000; !gotChangeAfter && Date.now() < end;) {
      const event = await stream.next(Math.max(1, end - Date.now()));
      if (event === 'end') { ended = true; break; }
      if (event === 'timeout') break;
      gotChangeAfter = (event.data ?? '').includes('"name":"f1"') && (event.data ?? '').includes('"enabled":true');
    }
    stream.close();
    let streamerGotChangeAfter = false;
    for (const end = Date.now() + 5000; !streamerGotChangeAfter && Date.now() < end; await sleep(50)) streamerGotChangeAfter = streamer.sdk.isEnabled('f1');
    await sleep(500);
    for (const stop of stops.splice(0)) await stop();

    let metricsCounted = 0;
    let applicationRegistered = false;
    for (const end = Date.now() + 10_000; (metricsCounted < 5 || !applicationRegistered) && Date.now() < end; await sleep(100)) {
      const usage = (await call(base, 'GET', '/api/admin/client-metrics/features/f0')).body?.lastHourUsage ?? [];
      metricsCounted = usage.find((u: any) => u.environment === 'development')?.yes ?? 0;
      applicationRegistered = (await call(base, 'GET', '/api/admin/metrics/applications/load-reporter')).status === 200;
    }
    const flags = ((await call(base, 'GET', '/api/admin/projects/load/features')).body.features as Array<{ name: string }>).map((f) => f.name).sort();
    const events = (await call(base, 'GET', '/api/admin/events?project=load&type=feature-created&limit=1000')).body.events as Array<{ featureName: string }>;
    return {
      kind, outageAt, backAt, polls, frontend: frontendAnswers, writes, live, ready, firstWriteMs, lateSdk,
      sdkErrors: { poller: poller.errors, streamer: streamer.errors, late: late?.errors ?? [] }, streamerModeChanges: streamer.modeChanges,
      stream: { ended, gotChangeAfter }, streamerGotChangeAfter, metricsDuringOutage, registrationDuringOutage, metricsCounted, applicationRegistered,
      flags, createdEvents: events.map((e) => e.featureName).sort(),
    };
  } finally {
    for (const stop of stops) await stop();
    for (const sdk of sdks) sdk.destroy();
    await running?.stop();
    await proxy?.close();
    await pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The p50, p95 and largest of some durations. */
export function percentiles(values: number[]): { p50: number; p95: number; max: number; n: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? NaN, n: sorted.length };
}
