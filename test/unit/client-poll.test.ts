import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import type { Authenticator } from '../../src/domain/access/authenticator';
import type { Principal } from '../../src/domain/access/principal';
import type { ClientAnswerKey } from '../../src/domain/client-features/client-answer-cache';
import type { ClientFeaturesDoor } from '../../src/rest/sdk/client-features.routes';
import { clientPollFastPath } from '../../src/rest/sdk/client-poll';

const token = (tokenType: 'client' | 'frontend' | 'admin'): Principal => ({
  kind: 'api-token', name: tokenType, userId: null, isAdmin: tokenType === 'admin', rootRoleId: null, tokenType,
  tokenProjects: tokenType === 'admin' ? ['*'] : ['default'], tokenEnvironment: tokenType === 'admin' ? '*' : 'development',
});

/** The fast path over a door and credentials that record what reaches them. */
function harness(principals: Record<string, Principal>, poll: (key: ClientAnswerKey) => Promise<void> = async () => {}) {
  const served: ClientAnswerKey[] = [];
  const credentials = { fromHeader: async (h: string | undefined) => (h ? principals[h] ?? null : null) } as unknown as Authenticator;
  const door = { poll: async (_req: IncomingMessage, _res: ServerResponse, key: ClientAnswerKey) => { served.push(key); await poll(key); } } as unknown as ClientFeaturesDoor;
  const fast = clientPollFastPath(credentials, door);
  /** Sends one request; resolves with whether the fast path took it and whether it handed it to Express. */
  const send = async (method: string, url: string, headers: Record<string, string> = {}, res: Partial<ServerResponse> = { headersSent: false }) => {
    let fellBack = false;
    const taken = fast({ method, url, headers } as IncomingMessage, res as ServerResponse, () => { fellBack = true; });
    await new Promise((r) => setImmediate(r));
    return { taken, fellBack, served: served.length };
  };
  return { send, served };
}

describe('clientPollFastPath', () => {
  const principals = { c: token('client'), f: token('frontend'), a: token('admin') };

  it('serves a GET of exactly /api/client/features with a client or admin token, with the query as Express parses it', async () => {
    const { send, served } = harness(principals);
    expect(await send('GET', '/api/client/features', { authorization: 'c' })).toEqual({ taken: true, fellBack: false, served: 1 });
    expect(await send('GET', '/api/client/features?namePrefix=a&tag=t:1&tag=t:2', { authorization: 'a', 'unleash-client-spec': '5.2.0' })).toEqual({ taken: true, fellBack: false, served: 2 });
    expect(served[1]).toEqual({ scope: { environment: 'default', projects: '*', namePrefix: 'a', tags: [['t', '1'], ['t', '2']] }, mode: 'separate' });
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
