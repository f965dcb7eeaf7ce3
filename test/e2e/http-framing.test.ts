import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../support/harness';

/**
 * Issue 8, defect 11: what Node's HTTP parser refuses before any route runs used to get an empty 431 or 400. Now
 * the documented JSON error body, and the connection closes.
 */
let app: TestApp;
let port = 0;
beforeAll(async () => {
  app = await startTestApp();
  port = Number(new URL(app.url).port);
});
afterAll(async () => { await app.close(); });

/** Sends raw bytes; resolves with everything the server wrote before closing. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => { text += d; });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });
}

function parse(response: string): { status: number; headers: string; body: any } {
  const [head, ...rest] = response.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), headers: head.toLowerCase(), body: JSON.parse(rest.join('\r\n\r\n')) };
}

const auth = `Authorization: ${ADMIN_TOKEN}\r\n`;

describe('HTTP the parser refuses gets the JSON error body', () => {
  it.each([
    ['a URL over 16 kB', `GET /api/admin/tags?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
    ['headers over 16 kB', `GET /api/admin/tags HTTP/1.1\r\nHost: x\r\n${auth}X-Big: ${'b'.repeat(17_000)}\r\n\r\n`],
  ])('%s: 431 ContentTooLarge', async (_what, request) => {
    const res = parse(await raw(request));
    expect(res.status).toBe(431);
    expect(res.headers).toContain('content-type: application/json');
    expect(res.headers).toContain('connection: close');
    expect(res.body).toEqual({ id: expect.any(String), name: 'ContentTooLarge', message: expect.stringContaining('16 kB') });
  });

  it.each([
    ['obs-fold', `GET /api/admin/tags HTTP/1.1\r\nHost: x\r\n${auth}X-Folded: a\r\n  continued\r\n\r\n`],
    ['two Content-Length', `POST /api/admin/tags HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
    ['Content-Length with Transfer-Encoding', `POST /api/admin/tags HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
    ['a bad chunk size', `POST /api/admin/tags HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['a space in a header name', `GET /api/admin/tags HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`],
  ])('%s: 400 ValidationError', async (_what, request) => {
    const res = parse(await raw(request));
    expect(res.status).toBe(400);
    expect(res.headers).toContain('connection: close');
    expect(res.body).toMatchObject({ id: expect.any(String), name: 'ValidationError', message: expect.stringContaining('not well-formed HTTP') });
  });

  it('nothing was created by the refused requests, and the server still answers', async () => {
    const tags = await app.get('/api/admin/tags');
    expect(tags.status).toBe(200);
    expect(tags.body.tags).toEqual([]);
  });
});
