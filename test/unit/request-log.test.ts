import { execFileSync } from 'node:child_process';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import express from 'express';
import pino from 'pino';
import { AppMetrics } from '../../src/observability/metrics';
import { requestObserver } from '../../src/observability/requests';
import { routeLabel, routeTable } from '../../src/observability/routes';

/** Issue 15 part 6: the request log line's level and the aborted case, the route table, and LOG_FORMAT=pretty. */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(level: pino.Level, handler: (req: IncomingMessage, res: ServerResponse) => void, clientAddress?: (req: IncomingMessage) => string) {
  const lines: Array<Record<string, any>> = [];
  const logger = pino({ level, base: undefined }, { write: (l: string) => { lines.push(JSON.parse(l)); } });
  const metrics = new AppMetrics(() => undefined);
  const observe = requestObserver(logger, metrics, () => routeTable([]), clientAddress);
  const server = createServer((req, res) => {
    observe(req, res);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { lines, metrics, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the request log line', () => {
  it('is written at info: LOG_LEVEL=info shows it, warn hides it (the metrics count both)', async () => {
    const info = await serve('info', (_req, res) => res.end('ok'));
    await (await fetch(`${info.base}/x`)).text();
    await sleep(20);
    expect(info.lines).toEqual([expect.objectContaining({ level: 30, msg: 'request completed', method: 'GET', route: 'unmatched', status: 200, url: '/x' })]);
    const warn = await serve('warn', (_req, res) => res.end('ok'));
    await (await fetch(`${warn.base}/x`)).text();
    await sleep(20);
    expect(warn.lines).toEqual([]);
    expect(await warn.metrics.registry.metrics()).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status="200"\} 1$/m);
  });

  it('holds the client address: the socket\'s peer by default (X-Forwarded-For ignored), or what buildApp\'s clientAddress reads', async () => {
    const plain = await serve('info', (_req, res) => res.end('ok'));
    await (await fetch(`${plain.base}/x`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).text();
    const proxied = await serve('info', (_req, res) => res.end('ok'), (req) => String(req.headers['x-forwarded-for']));
    await (await fetch(`${proxied.base}/x`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).text();
    await sleep(20);
    expect(plain.lines).toEqual([expect.objectContaining({ remoteAddress: '127.0.0.1' })]);
    expect(proxied.lines).toEqual([expect.objectContaining({ remoteAddress: '203.0.113.9' })]);
  });

  it('a credential in the URL is redacted in the line (redactUrl)', async () => {
    const s = await serve('info', (_req, res) => res.end('ok'));
    await (await fetch(`${s.base}/api/admin/tags?authorization=*%3A*.some-admin-secret-123&limit=5`)).text();
    await sleep(20);
    expect(s.lines).toEqual([expect.objectContaining({ url: '/api/admin/tags?authorization=[redacted]&limit=5' })]);
    expect(JSON.stringify(s.lines)).not.toContain('some-admin-secret');
  });

  it('a 5xx answer is logged as a failed request, at info like the others', async () => {
    const s = await serve('info', (_req, res) => { res.statusCode = 503; res.end(); });
    await (await fetch(`${s.base}/down`)).text();
    await sleep(20);
    expect(s.lines).toEqual([expect.objectContaining({ level: 30, msg: 'request failed', status: 503 })]);
  });

  it('a client that goes before the answer began: "request aborted", status 499, logged and measured once', async () => {
    let answered: () => void = () => {};
    const s = await serve('info', (_req, res) => { answered = () => res.end('late'); });
    await new Promise<void>((resolve) => {
      const req = request(`${s.base}/slow`);
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => req.destroy(), 50);
    });
    await sleep(50);
    answered();
    await sleep(20);
    expect(s.lines).toEqual([expect.objectContaining({ msg: 'request aborted', status: 499, route: 'unmatched' })]);
    expect(await s.metrics.registry.metrics()).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status="499"\} 1$/m);
  });
});

describe('route labels', () => {
  const app = express();
  const inner = express.Router();
  inner.get('/things/:id', (_req, res) => { res.end(); });
  inner.get('/things', (_req, res) => { res.end(); });
  const api = express.Router();
  api.use('/admin', inner);
  app.use('/api', api);
  app.get('/health', (_req, res) => { res.end(); });
  app.use('/graphql', (_req, res) => { res.end(); });
  app.use('/p/:param', (_req, res) => { res.end(); });
  const table = routeTable((app as unknown as { router: { stack: [] } }).router.stack);
  const req = (url: string, route?: object) => ({ url, originalUrl: url, route }) as never;

  it('reads every route with its mount paths, and the static mounts longest first', () => {
    const routes = [...(inner.stack as Array<{ route?: object }>)].map((l) => l.route!);
    expect(routeLabel(table, req('/api/admin/things/42?x=1', routes[0]))).toBe('/api/admin/things/:id');
    expect([...table.statics].sort()).toEqual(['/api/admin/things', '/health']);
    expect(table.mounts).toEqual(['/api/admin', '/graphql', '/api']);
  });

  it('never returns a path the caller typed', () => {
    expect(routeLabel(table, req('/api/admin/things'))).toBe('/api/admin/things');
    expect(routeLabel(table, req('/api/admin/secret-name'))).toBe('/api/admin/*');
    expect(routeLabel(table, req('/api/other'))).toBe('/api/*');
    expect(routeLabel(table, req('/graphql?query=x'))).toBe('/graphql');
    expect(routeLabel(table, req('/graphqlx'))).toBe('unmatched');
    expect(routeLabel(table, req('/p/some-value'))).toBe('unmatched');
    expect(routeLabel(table, req('/apiary'))).toBe('unmatched');
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes readable lines (pino-pretty, synchronously), not JSON', () => {
    const root = path.resolve(__dirname, '../..');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', "require('./src/logger').createLogger('info', 'pretty').info({ route: '/health' }, 'pretty hello')"],
      { cwd: root, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, encoding: 'utf8' });
    expect(out).toMatch(/INFO.*pretty hello/);
    expect(out).toContain('/health');
    expect(out.trim().startsWith('{')).toBe(false);
    const json = execFileSync(process.execPath, ['--import', 'tsx', '-e', "require('./src/logger').createLogger('info').info({ route: '/health' }, 'json hello')"], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(json)).toMatchObject({ level: 30, msg: 'json hello', route: '/health' });
  });
});
