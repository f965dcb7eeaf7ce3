import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADMIN_TOKEN, startTestApp, type Reply, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

/** Every REST error is JSON with a string id, the error name, and a message. */
function expectError(res: Reply, status: number, name: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toMatchObject({ name });
  expect(typeof res.body.id).toBe('string');
  expect(res.body.id.length).toBeGreaterThan(0);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
}

const projectIds = async () => ((await app.get('/api/admin/projects')).body.projects as Array<{ id: string }>).map((p) => p.id);
const eventCount = async () => (await app.events()).length;

describe('401 AuthenticationRequired', () => {
  it.each([
    ['no Authorization header', null],
    ['an unknown token', '*:*.not-a-real-token'],
    ['an empty Bearer token', 'Bearer '],
  ])('answers GET with %s', async (_label, token) => {
    const res = await app.get('/api/admin/projects', { token });
    expectError(res, 401, 'AuthenticationRequired');
  });

  it.each([
    ['no Authorization header', null],
    ['an unknown token', '*:*.not-a-real-token'],
  ])('answers POST with %s, and creates nothing', async (_label, token) => {
    const before = await eventCount();
    const res = await app.post('/api/admin/projects', { id: 'intruder', name: 'Intruder' }, { token });
    expectError(res, 401, 'AuthenticationRequired');
    expect(await projectIds()).not.toContain('intruder');
    expect(await eventCount()).toBe(before);
  });

  it('comes before reading the body: an anonymous caller gets 401, not 400, 413 or 415', async () => {
    expectError(await app.post('/api/admin/projects', undefined, { token: null, raw: '{"id": ' }), 401, 'AuthenticationRequired');
    expectError(await app.post('/api/admin/projects', undefined, { token: null, raw: 'x'.repeat(200_000) }), 401, 'AuthenticationRequired');
    expectError(await app.post('/api/admin/projects', undefined, { token: null, raw: 'id=x', headers: { 'content-type': 'text/plain' } }), 401, 'AuthenticationRequired');
  });

  it('comes before routing: an unknown /api path without a token is 401', async () => {
    expectError(await app.get('/api/admin/nope', { token: null }), 401, 'AuthenticationRequired');
  });

  it('accepts the admin token with a Bearer prefix (control)', async () => {
    const res = await app.get('/api/admin/projects', { token: `Bearer ${ADMIN_TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
  });
});

describe('404 NotFoundError for unknown paths', () => {
  it.each([
    ['GET', '/api/admin/nope'],
    ['GET', '/api/nope'],
    ['POST', '/api/admin/nope'],
    ['PATCH', '/api/admin/projects'],
    ['DELETE', '/api/admin/environments'],
  ])('%s %s', async (method, path) => {
    const res = await app.request(method, path, method === 'GET' ? undefined : {});
    expectError(res, 404, 'NotFoundError');
    expect(res.body.message).toBe(`The path you were looking for (${path}) is not available.`);
  });

  it('leaves the query string out of the message', async () => {
    const res = await app.get('/api/admin/nope?secret=1');
    expectError(res, 404, 'NotFoundError');
    expect(res.body.message).toBe('The path you were looking for (/api/admin/nope) is not available.');
  });

  it('answers a path outside /api with the same JSON 404', async () => {
    const res = await app.get('/nope', { token: null });
    expectError(res, 404, 'NotFoundError');
    expect(res.body.message).toBe('The path you were looking for (/nope) is not available.');
  });
});

describe('413 ContentTooLarge', () => {
  it('refuses a JSON body over 100 kB and creates nothing', async () => {
    const before = await eventCount();
    const body = { name: 'big', legalValues: Array.from({ length: 1000 }, (_, i) => ({ value: `v${i}`, description: 'd'.repeat(150) })) };
    expect(JSON.stringify(body).length).toBeGreaterThan(100 * 1024);
    const res = await app.post('/api/admin/context', body);
    expectError(res, 413, 'ContentTooLarge');
    expect(res.body.message).toBe('The request body is larger than the accepted 100 kB.');
    expect((await app.get('/api/admin/context/big')).status).toBe(404);
    expect(await eventCount()).toBe(before);
  });

  it('accepts a body just under the limit (control: it reaches validation)', async () => {
    const res = await app.post('/api/admin/context', { name: 'big', description: 'd'.repeat(90 * 1024) });
    expectError(res, 400, 'ValidationError');
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['description']);
  });

  it('measures the decompressed size of a compressed body', async () => {
    const raw = JSON.stringify({ name: 'big', description: ' '.repeat(200 * 1024) });
    const res = await fetch(`${app.url}/api/admin/context`, {
      method: 'POST', headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(raw),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).name).toBe('ContentTooLarge');
  });
});

describe('415 ContentTypeerror', () => {
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])('refuses a %s body and creates nothing', async (contentType) => {
    const before = await eventCount();
    const res = await app.post('/api/admin/projects', undefined, { raw: JSON.stringify({ id: 'typed', name: 'Typed' }), headers: { 'content-type': contentType } });
    expectError(res, 415, 'ContentTypeerror');
    expect(res.body.message).toContain(`(${contentType})`);
    expect(await projectIds()).not.toContain('typed');
    expect(await eventCount()).toBe(before);
  });

  it('accepts application/json with a charset and application/*+json (control)', async () => {
    const a = await app.post('/api/admin/tags', undefined, { raw: '{"value":"charset"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(a.status).toBe(201);
    const b = await app.post('/api/admin/tags', undefined, { raw: '{"value":"plusjson"}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(b.status).toBe(201);
  });
});

describe('400 ValidationError for unreadable requests', () => {
  it('refuses malformed JSON', async () => {
    const before = await eventCount();
    const res = await app.post('/api/admin/projects', undefined, { raw: '{"id": "broken", "name": ' });
    expectError(res, 400, 'ValidationError');
    expect(res.body.details).toEqual([{ path: '', message: expect.stringMatching(/^The request body is not valid JSON/) }]);
    expect(await projectIds()).not.toContain('broken');
    expect(await eventCount()).toBe(before);
  });

  it('refuses an unsupported charset as an unsupported payload type', async () => {
    const res = await app.post('/api/admin/tags', undefined, { raw: '{"value":"latin"}', headers: { 'content-type': 'application/json; charset=latin1' } });
    expectError(res, 415, 'ContentTypeerror');
    expect((await app.get('/api/admin/tags/simple/latin')).status).toBe(404);
  });

  it('refuses a body that does not match its Content-Encoding (not a 500)', async () => {
    const res = await app.post('/api/admin/tags', undefined, { raw: '{"value":"zipped"}', headers: { 'content-encoding': 'gzip' } });
    expectError(res, 400, 'ValidationError');
    expect((await app.get('/api/admin/tags/simple/zipped')).status).toBe(404);
  });

  it.each(['/api/admin/environments/a%00b', '/api/admin/projects/a%00b', '/api/admin/context/a%00b', '/api/admin/tag-types/a%00b'])('refuses a NUL character in a path parameter (%s) with 400, not a 500', async (path) => {
    expectError(await app.get(path), 400, 'ValidationError');
  });

  it.each(['/api/admin/environments/%E0%A4%A', '/api/admin/context/%ZZ'])('refuses a path parameter that is not valid percent-encoding (%s, not a 500)', async (path) => {
    const res = await app.get(path);
    expectError(res, 400, 'ValidationError');
    expect(res.body.details).toEqual([{ path: '', message: expect.stringContaining('percent-encoding') }]);
  });
});

describe('health', () => {
  it('GET /health answers 200 without a token', async () => {
    const res = await app.get('/health', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ health: 'GOOD' });
  });
});
