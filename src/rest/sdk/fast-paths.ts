import type { IncomingMessage, ServerResponse } from 'node:http';
import { MIMEType } from 'node:util';
import type { Authenticator } from '../../domain/access/authenticator';
import type { Logger } from '../../logger';
import { checkUrl, hasBody, parseJsonBytes } from '../../request-guard';
import { answerError } from '../errors';
import { parseQuery, resolveClientQuery, type ClientFeaturesDoor } from './client-features.routes';
import type { ReportIntake } from './client-metrics.routes';
import { CLIENT_DOOR, sdkRefusal } from './sdk-deps';

/**
 * A request served before Express: the function takes it (returns true) or leaves it (false, nothing read). Once taken,
 * it may still hand it to Express with `fallback` as long as it has read nothing of the body and written nothing.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse, fallback: () => void) => boolean;

/** The path of a request URL, without its query string. */
const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** The SDKs' polls: full answers, and deltas (issue 32). */
const POLL_PATHS = new Map<string, 'poll' | 'deltaPoll'>([['/api/client/features', 'poll'], ['/api/client/delta', 'deltaPoll']]);

/**
 * The SDKs' polls, `GET /api/client/features` and `GET /api/client/delta`, served before Express sees the request: the hottest path of the service
 * (every backend SDK asks every 15 s, mostly to hear 304), where Express's own work (its request setup and a dozen
 * router layers for a request that reads no body) costs more than the answer, which is cached bytes.
 *
 * It takes only a request the Express route would answer with the cached answer or a 304: a GET of exactly that path
 * with no body and no Origin header (a browser's request goes through Express's CORS, src/rest/cors.ts), a URL the door accepts, a credential the client door accepts, and a query that resolves. Everything
 * else (another path or method, a refused credential, a bad filter, a database error before anything was written) is
 * handed to Express (`fallback`) as it came, where the same door answers it, so the two paths cannot answer
 * differently: this one answers only what Express would answer with the same `ClientFeaturesDoor.poll`.
 *
 * Returns whether it took the request.
 */
export function clientPollFastPath(credentials: Authenticator, door: ClientFeaturesDoor): FastPath {
  return (req, res, fallback) => {
    if (req.method !== 'GET' || req.headers.origin !== undefined) return false;
    const url = req.url ?? '';
    const serve = POLL_PATHS.get(pathOf(url));
    if (serve === undefined || hasBody(req) || checkUrl(url) !== undefined) return false;
    const q = url.indexOf('?');
    void (async () => {
      const principal = await credentials.fromHeader(req.headers.authorization);
      if (!principal || sdkRefusal(principal, CLIENT_DOOR) !== undefined) return fallback();
      const key = resolveClientQuery(parseQuery(q === -1 ? '' : url.slice(q + 1)), req.headers['unleash-client-spec'], principal);
      await door[serve](req, res, key);
    })().catch(() => {
      // Nothing written yet: Express answers (with the error body the route gives). Otherwise the answer is cut short.
      if (!res.headersSent) fallback();
      else res.destroy();
    });
    return true;
  };
}

const METRICS_PATH = '/api/client/metrics';
const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * The length of a body that Express's JSON door (src/request-guard.ts jsonBody, after `requireJson`) reads as it
 * comes: a `Content-Length` of 1 to `maxBytes` bytes, no `Transfer-Encoding` or `Content-Encoding`, and a
 * `Content-Type` of `application/json` with a UTF-8 charset or none. Undefined for anything else, which Express reads.
 */
export function plainJsonLength(req: IncomingMessage, maxBytes: number): number | undefined {
  const h = req.headers;
  if (h['transfer-encoding'] !== undefined || h['content-encoding'] !== undefined) return undefined;
  const declared = h['content-length'];
  if (declared === undefined || !/^[0-9]{1,9}$/.test(declared)) return undefined;
  const length = Number(declared);
  if (length === 0 || length > maxBytes || h['content-type'] === undefined) return undefined;
  let type: MIMEType;
  try {
    type = new MIMEType(h['content-type']);
  } catch {
    return undefined;
  }
  const charset = type.params.get('charset');
  return type.essence === 'application/json' && (charset === null || UTF8.has(charset.toLowerCase())) ? length : undefined;
}

/** The body's bytes; rejects when the client goes before sending all of it. */
function readBody(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    req.on('data', (chunk: Buffer) => { chunks.push(chunk); });
    req.on('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length));
    });
    req.on('error', reject);
    req.on('close', () => { if (!ended) reject(new Error('the client went before sending the whole body')); });
  });
}

/**
 * `POST /api/client/metrics`, the SDKs' other frequent call (every 60 s per SDK instance), served before Express.
 *
 * It takes a request only when Express would reach the route with the same body: that exact path, no Origin header
 * (a browser's request goes through Express's CORS, src/rest/cors.ts), a URL the door accepts, a plain JSON body within the door's limit (plainJsonLength), and a client or admin token. Everything else
 * goes to Express before a byte of the body is read (fallback). Once it reads the body it answers itself, through the
 * same functions as the route: `parseJsonBytes` (the door's JSON checks), the `report` intake (validation, the
 * buffer; a 202), and `answerError` for any error (the bodies Express's error handler writes). The report's client
 * address is `clientAddress(req)`: buildApp gives the one Express's `req.ip` gives the route (TRUST_PROXY); by default
 * the socket's peer.
 */
export function clientMetricsFastPath(credentials: Authenticator, report: ReportIntake, maxBodyBytes: number, logger: Logger,
  clientAddress: (req: IncomingMessage) => string | undefined = (req) => req.socket.remoteAddress): FastPath {
  return (req, res, fallback) => {
    if (req.method !== 'POST' || req.headers.origin !== undefined) return false;
    const url = req.url ?? '';
    if (pathOf(url) !== METRICS_PATH || checkUrl(url) !== undefined) return false;
    const length = plainJsonLength(req, maxBodyBytes);
    if (length === undefined) return false;
    void (async () => {
      const principal = await credentials.fromHeader(req.headers.authorization).catch(() => null);
      if (!principal || sdkRefusal(principal, CLIENT_DOOR) !== undefined) return fallback();
      const bytes = await readBody(req, length);
      try {
        report(principal, parseJsonBytes(bytes), clientAddress(req) ?? '');
        res.statusCode = 202;
        res.end();
      } catch (err) {
        answerError(logger, err, req, res);
      }
    })().catch(() => res.destroy());
    return true;
  };
}

/**
 * A body limit as Express's body parsers read it (`100kb`, `1mb`, `512`; 1 kb = 1024 bytes), in bytes; 0 when it
 * cannot be read, so that no body is taken before Express.
 */
export function limitInBytes(limit: string): number {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!m) return 0;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(m[1]) * unit);
}
