import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import type { Authenticator } from '../../src/domain/access/authenticator';
import type { Principal } from '../../src/domain/access/principal';
import type { ClientAnswerKey } from '../../src/rest/sdk/client-answers';
import type { ClientFeaturesDoor } from '../../src/rest/sdk/client-features.routes';
import { ValidationError } from '../../src/domain/errors';
import { createLogger } from '../../src/logger';
import type { ReportIntake } from '../../src/rest/sdk/client-metrics.routes';
import { clientMetricsFastPath, clientPollFastPath, limitInBytes, plainJsonLength } from '../../src/rest/sdk/fast-paths';

const token = (tokenType: 'client' | 'frontend' | 'admin'): Principal => ({
  kind: 'api-token', name: tokenType, userId: null, isAdmin: tokenType === 'admin', rootRoleId: null, tokenType,
  tokenProjects: tokenType === 'admin' ? ['*'] : ['default'], tokenEnvironment: tokenType === 'admin' ? '*' : 'development',
});

/** The fast path over a door and credentials that record what reaches them. */
function harness(principals: Record<string, Principal>, poll: (key: ClientAnswerKey) => Promise<void> = async () => {}) {
  const served: ClientAnswerKey[] = [];
  const deltas: ClientAnswerKey[] = [];
  const credentials = { fromHeader: async (h: string | undefined) => (h ? principals[h] ?? null : null) } as unknown as Authenticator;
  const door = {
    poll: async (_req: IncomingMessage, _res: ServerResponse, key: ClientAnswerKey) => { served.push(key); await poll(key); },
    deltaPoll: async (_req: IncomingMessage, _res: ServerResponse, key: ClientAnswerKey) => { deltas.push(key); },
  } as unknown as ClientFeaturesDoor;
  const fast = clientPollFastPath(credentials, door);
  /** Sends one request; resolves with whether the fast path took it and whether it handed it to Express. */
  const send = async (method: string, url: string, headers: Record<string, string> = {}, res: Partial<ServerResponse> = { headersSent: false }) => {
    let fellBack = false;
    const taken = fast({ method, url, headers } as IncomingMessage, res as ServerResponse, () => { fellBack = true; });
    await new Promise((r) => setImmediate(r));
    return { taken, fellBack, served: served.length };
  };
  return { send, served, deltas };
}

describe('clientPollFastPath', () => {
  const principals = { c: token('client'), f: token('frontend'), a: token('admin') };

  it('serves a GET of exactly /api/client/features with a client or admin token, with the query as Express parses it', async () => {
    const { send, served } = harness(principals);
    expect(await send('GET', '/api/client/features', { authorization: 'c' })).toEqual({ taken: true, fellBack: false, served: 1 });
    expect(await send('GET', '/api/client/features?namePrefix=a&tag=t:1&tag=t:2', { authorization: 'a', 'unleash-client-spec': '5.2.0' })).toEqual({ taken: true, fellBack: false, served: 2 });
    expect(served[1]).toEqual({ scope: { environment: 'default', projects: '*', namePrefix: 'a', tags: [['t', '1'], ['t', '2']] }, mode: 'separate' });
  });

  it('serves the delta poll, GET /api/client/delta, the same way, through the door\'s deltaPoll', async () => {
    const { send, served, deltas } = harness(principals);
    expect(await send('GET', '/api/client/delta?project=default', { authorization: 'c' })).toEqual({ taken: true, fellBack: false, served: 0 });
    expect(deltas).toEqual([{ scope: { environment: 'development', projects: ['default'], namePrefix: undefined, tags: [] }, mode: 'inline' }]);
    expect(served).toEqual([]);
    expect(await send('GET', '/api/client/delta/x', { authorization: 'c' })).toEqual({ taken: false, fellBack: false, served: 0 });
  });

  it('leaves every other request to Express untouched: another method, path or spelling, a body, a URL the door refuses', async () => {
    const { send } = harness(principals);
    for (const [method, url, headers] of [
      ['HEAD', '/api/client/features', {}], ['POST', '/api/client/features', {}], ['GET', '/api/client/features/', {}],
      ['GET', '/api/client/features/x', {}], ['GET', '/API/client/features', {}], ['GET', '/api/client/featuresx', {}],
      ['GET', '/api/client/features', { 'content-length': '2' }], ['GET', '/api/client/features', { 'transfer-encoding': 'chunked' }],
      ['GET', '/api/client/features?tag=%FF', {}], ['GET', '/api/client/features?namePrefix=a\u0000', {}],
    ] as Array<[string, string, Record<string, string>]>) {
      expect([method, url, await send(method, url, { authorization: 'c', ...headers })]).toEqual([method, url, { taken: false, fellBack: false, served: 0 }]);
    }
  });

  it('hands to Express what Express answers with an error: no or unknown credential, a frontend token, a bad filter', async () => {
    const { send } = harness(principals);
    for (const [url, headers] of [
      ['/api/client/features', {}], ['/api/client/features', { authorization: 'nobody' }], ['/api/client/features', { authorization: 'f' }],
      ['/api/client/features?tag=nocolon', { authorization: 'c' }], ['/api/client/features?environment=a&environment=b', { authorization: 'a' }],
    ] as Array<[string, Record<string, string>]>) {
      expect([url, await send('GET', url, headers)]).toEqual([url, { taken: true, fellBack: true, served: 0 }]);
    }
  });

  it('a failure before anything is written goes to Express (which answers it as the route does); after, the answer is cut', async () => {
    const failing = harness(principals, async () => { throw new Error('database down'); });
    expect(await failing.send('GET', '/api/client/features', { authorization: 'c' })).toEqual({ taken: true, fellBack: true, served: 1 });
    let destroyed = false;
    const midway = await failing.send('GET', '/api/client/features', { authorization: 'c' }, { headersSent: true, destroy: (() => { destroyed = true; }) as never });
    expect([midway.fellBack, destroyed]).toEqual([false, true]);
  });
});

describe('plainJsonLength: bodies Express reads as they come', () => {
  const req = (headers: Record<string, string>) => ({ headers } as unknown as IncomingMessage);
  it('takes a Content-Length within the limit and application/json with a UTF-8 charset or none', () => {
    expect(plainJsonLength(req({ 'content-length': '10', 'content-type': 'application/json' }), 100)).toBe(10);
    expect(plainJsonLength(req({ 'content-length': '100', 'content-type': 'Application/JSON; charset="UTF-8"' }), 100)).toBe(100);
    expect(plainJsonLength(req({ 'content-length': '1', 'content-type': 'application/json;charset=utf8' }), 100)).toBe(1);
  });
  it('leaves the rest to Express: no or empty or oversized or odd length, encodings, other types and charsets', () => {
    for (const headers of [
      { 'content-type': 'application/json' }, { 'content-length': '0', 'content-type': 'application/json' },
      { 'content-length': '101', 'content-type': 'application/json' }, { 'content-length': '1e2', 'content-type': 'application/json' },
      { 'content-length': '-1', 'content-type': 'application/json' }, { 'content-length': '10' },
      { 'content-length': '10', 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      { 'content-length': '10', 'content-type': 'application/json', 'content-encoding': 'gzip' },
      { 'content-length': '10', 'content-type': 'text/plain' }, { 'content-length': '10', 'content-type': 'application/vnd.api+json' },
      { 'content-length': '10', 'content-type': 'application/json; charset=latin1' }, { 'content-length': '10', 'content-type': 'not a type' },
    ] as Array<Record<string, string>>) {
      expect([headers, plainJsonLength(req(headers), 100)]).toEqual([headers, undefined]);
    }
  });
});

describe('limitInBytes', () => {
  it('reads limits as Express does (1 kb = 1024 bytes); 0 for what it cannot read', () => {
    expect(['100kb', '1mb', '512', '1.5KB', ' 2 b ', 'lots', ''].map(limitInBytes)).toEqual([102_400, 1_048_576, 512, 1536, 2, 0, 0]);
  });
});

describe('clientMetricsFastPath', () => {
  const principals: Record<string, Principal> = { c: token('client'), f: token('frontend') };
  const credentials = { fromHeader: async (h: string | undefined) => (h ? principals[h] ?? null : null) } as unknown as Authenticator;
  const silent = createLogger('silent');

  /** Sends one request with `body` (streamed after the fast path looked at it); what happened to it. */
  async function send(url: string, headers: Record<string, string>, body: string, report: ReportIntake = () => {}) {
    const req = Object.assign(Readable.from([Buffer.from(body)]), { method: 'POST', url, headers: { 'content-length': String(Buffer.byteLength(body)), 'content-type': 'application/json', ...headers }, socket: { remoteAddress: '10.0.0.1' } }) as unknown as IncomingMessage;
    const written: { status?: number; body?: string; headers: Record<string, unknown> } = { headers: {} };
    const fake = {
      headersSent: false, statusCode: 200,
      setHeader(name: string, value: unknown) { written.headers[name.toLowerCase()] = value; },
      end(chunk?: string) { written.status = fake.statusCode; written.body = chunk; },
      destroy() { written.status = -1; },
    };
    const res = fake as unknown as ServerResponse;
    let fellBack = false;
    const taken = clientMetricsFastPath(credentials, report, 1000, silent)(req, res, () => { fellBack = true; });
    await new Promise((r) => setTimeout(r, 10));
    return { taken, fellBack, status: written.status, body: written.body ? JSON.parse(written.body) : undefined, type: written.headers['content-type'] };
  }

  it('answers 202 once the report is taken in, with the body parsed and the caller\'s address', async () => {
    const seen: unknown[] = [];
    const out = await send('/api/client/metrics', { authorization: 'c' }, '{"appName":"a"}', (p, body, ip) => { seen.push([p.name, body, ip]); });
    expect([out.taken, out.fellBack, out.status, seen]).toEqual([true, false, 202, [['client', { appName: 'a' }, '10.0.0.1']]]);
  });

  it('answers a bad body itself with the error body Express writes: bad JSON, a refused report', async () => {
    const bad = await send('/api/client/metrics', { authorization: 'c' }, '{"appName": ');
    expect([bad.taken, bad.fellBack, bad.status, bad.body.name, bad.type]).toEqual([true, false, 400, 'ValidationError', 'application/json; charset=utf-8']);
    const refused = await send('/api/client/metrics', { authorization: 'c' }, '{}', () => { throw ValidationError.single('appName', 'needed'); });
    expect([refused.status, refused.body.details[0].path]).toEqual([400, 'appName']);
    const broken = await send('/api/client/metrics', { authorization: 'c' }, '{}', () => { throw new Error('bug'); });
    expect([broken.status, broken.body.name]).toEqual([500, 'InternalError']);
  });

  it('hands to Express, unread, a request without a usable credential; leaves alone other paths, methods and bodies', async () => {
    for (const authorization of ['', 'nobody', 'f']) {
      expect(await send('/api/client/metrics', authorization ? { authorization } : {}, '{}')).toMatchObject({ taken: true, fellBack: true, status: undefined });
    }
    for (const [url, headers] of [
      ['/api/client/metrics/', {}], ['/api/client/register', {}], ['/api/frontend/client/metrics', {}], ['/api/client/metrics?x=%FF', {}],
      ['/api/client/metrics', { 'content-type': 'text/plain' }], ['/api/client/metrics', { 'content-length': '5000' }],
    ] as Array<[string, Record<string, string>]>) {
      expect([url, headers, await send(url, { authorization: 'c', ...headers }, '{}')]).toEqual([url, headers, { taken: false, fellBack: false, status: undefined, body: undefined, type: undefined }]);
    }
  });
});
