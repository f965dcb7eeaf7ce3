import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../../domain/access/authenticator';
import { checkUrl, hasBody } from '../../request-guard';
import { parseQuery, resolveClientQuery, type ClientFeaturesDoor } from './client-features.routes';
import { sdkRefusal, type SdkDoorRule } from './sdk-deps';

const POLL_PATH = '/api/client/features';

/**
 * The SDKs' poll, `GET /api/client/features`, served before Express sees the request: the hottest path of the service
 * (every backend SDK asks every 15 s, mostly to hear 304), where Express's own work (its request setup and a dozen
 * router layers for a request that reads no body) costs more than the answer, which is cached bytes.
 *
 * It takes only a request the Express route would answer with the cached answer or a 304: a GET of exactly that path
 * with no body, a URL the door accepts, a credential the client door accepts, and a query that resolves. Everything
 * else (another path or method, a refused credential, a bad filter, a database error before anything was written) is
 * handed to Express (`fallback`) as it came, where the same door answers it, so the two paths cannot answer
 * differently: this one answers only what Express would answer with the same `ClientFeaturesDoor.poll`.
 *
 * Returns whether it took the request.
 */
export function clientPollFastPath(credentials: Authenticator, door: ClientFeaturesDoor) {
  return (req: IncomingMessage, res: ServerResponse, fallback: () => void): boolean => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if ((q === -1 ? url : url.slice(0, q)) !== POLL_PATH || hasBody(req) || checkUrl(url) !== undefined) return false;
    void (async () => {
      const principal = await credentials.fromHeader(req.headers.authorization);
      if (!principal || sdkRefusal(principal, CLIENT_DOOR) !== undefined) return fallback();
      const key = resolveClientQuery(parseQuery(q === -1 ? '' : url.slice(q + 1)), req.headers['unleash-client-spec'], principal);
      await door.poll(req, res, key);
    })().catch(() => {
      // Nothing written yet: Express answers (with the error body the route gives). Otherwise the answer is cut short.
      if (!res.headersSent) fallback();
      else res.destroy();
    });
    return true;
  };
}

/** The credentials the client door accepts, and its name in refusals. */
export const CLIENT_DOOR: SdkDoorRule = { accepted: ['client', 'admin'], name: 'client API' };
export const FRONTEND_DOOR: SdkDoorRule = { accepted: ['frontend', 'admin'], name: 'frontend API' };
