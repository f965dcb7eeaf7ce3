import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { spawnService, type ServiceProcess } from '../../support/service-process';

/**
 * Issue 8, defect 10: SIGTERM with a slow client connected used to leave the process running. Now: a request in
 * flight finishes, idle connections close, what is still open at the deadline (SHUTDOWN_TIMEOUT_MS) is cut, then the
 * database closes and the process exits 0. Open live event streams (GraphQL subscriptions) are ended at once.
 */
const TOKEN = '*:*.shutdown-test-token-1';
const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-shutdown-'));
let service: ServiceProcess | undefined;
let streaming: ServiceProcess | undefined;
afterAll(async () => {
  for (const s of [service, streaming]) {
    s?.kill('SIGKILL');
    await s?.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

const connect = (port: number) => new Promise<net.Socket>((resolve, reject) => {
  const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
  socket.once('error', reject);
});
const collect = (socket: net.Socket) => {
  let text = '';
  socket.setEncoding('utf8').on('data', (d: string) => { text += d; });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { text: () => text, closed };
};

it('finishes the request in flight, cuts a client that never finishes at the deadline, and exits 0', async () => {
  service = await spawnService({ DATA_DIR: path.join(dir, 'data'), INIT_ADMIN_API_TOKENS: TOKEN, SHUTDOWN_TIMEOUT_MS: '2000' });
  const port = service.port;

  // A client that sent half its headers and stalls.
  const stalled = await connect(port);
  const stalledSeen = collect(stalled);
  stalled.write('GET /health HTTP/1.1\r\nHost: x\r\n');
  // A keep-alive connection that completed a request and sits idle.
  const idle = await connect(port);
  const idleSeen = collect(idle);
  idle.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  // A request in flight: headers and half of its body sent.
  const body = JSON.stringify({ type: 'simple', value: 'sent-during-shutdown' });
  const inflight = await connect(port);
  const inflightSeen = collect(inflight);
  inflight.write(`POST /api/admin/tags HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`);
  await new Promise((r) => setTimeout(r, 300));

  const signalled = Date.now();
  service.kill('SIGTERM');
  await idleSeen.closed; // closed at once, not at the deadline
  expect(Date.now() - signalled).toBeLessThan(1500);
  await new Promise((r) => setTimeout(r, 300));
  inflight.write(body.slice(10));
  await inflightSeen.closed;
  expect(inflightSeen.text()).toMatch(/^HTTP\/1\.1 201 /);
  expect(inflightSeen.text()).toContain('"value":"sent-during-shutdown"');

  expect(await service.exited).toBe(0);
  const took = Date.now() - signalled;
  expect(took).toBeGreaterThanOrEqual(1900); // the stalled client was waited for until the deadline...
  expect(took).toBeLessThan(8000); // ...and no longer
  await stalledSeen.closed;
  expect(idleSeen.text()).toMatch(/^HTTP\/1\.1 200 /);
  expect(service.stdout()).toContain('shutdown deadline reached');
}, 60_000);

it('ends open live event streams at once, so they do not hold the stop until the deadline', async () => {
  streaming = await spawnService({ DATA_DIR: path.join(dir, 'data-stream'), INIT_ADMIN_API_TOKENS: TOKEN, SHUTDOWN_TIMEOUT_MS: '20000' });
  const res = await fetch(`http://127.0.0.1:${streaming.port}/graphql`, {
    method: 'POST',
    headers: { authorization: TOKEN, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { events(filter: { types: ["tag-created"] }) { id type } }' }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const read = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += value;
    }
  })();
  // The stream works: a change made now arrives on it.
  const created = await fetch(`http://127.0.0.1:${streaming.port}/api/admin/tags`, {
    method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'simple', value: 'before-stop' }),
  });
  expect(created.status).toBe(201);
  for (let i = 0; i < 100 && !text.includes('before-stop'); i++) await new Promise((r) => setTimeout(r, 20));
  expect(text).toContain('event: next');

  const signalled = Date.now();
  streaming.kill('SIGTERM');
  await read; // the server ended the response
  expect(text).toMatch(/event: complete\ndata:\n\n$/);
  expect(await streaming.exited).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(5000); // not the 20 s deadline
  expect(streaming.stdout()).not.toContain('shutdown deadline reached');
}, 60_000);
