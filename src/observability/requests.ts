import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pinoHttp } from 'pino-http';
import { redactUrl, type Logger } from '../logger';
import type { AppMetrics } from './metrics';
import { routeLabel, type RouteTable } from './routes';

/** A request id a caller may give in `X-Request-Id`: up to 128 letters, digits and `-_.:=+/@`. Anything else is replaced. */
const REQUEST_ID = /^[A-Za-z0-9._:=+/@-]{1,128}$/;

/** The status recorded for a request whose connection closed before its answer began (nginx's convention). */
export const CLIENT_CLOSED = 499;

/** What is known of a request once it is over: measured once, read by the log line and by the metrics. */
interface Outcome {
  route: string;
  status: number;
  durationMs: number;
}

interface Timing {
  start: number;
  req: IncomingMessage;
  /** The client address, read as the request enters: a client that goes early takes its socket's address with it. */
  remoteAddress?: string;
  outcome?: Outcome;
}

const TIMING = Symbol('flagdeck.requestTiming');
const REFUSED = Symbol('flagdeck.refusedForOutage');
type Res = ServerResponse & { [TIMING]?: Timing; [REFUSED]?: 'rest' | 'graphql' };

/** Marks an answer as a refusal because the database is away (counted in `flagdeck_database_unavailable_refusals_total`). */
export function markRefusedForOutage(res: ServerResponse, api: 'rest' | 'graphql'): void {
  (res as Res)[REFUSED] = api;
}
type Req = IncomingMessage & { route?: object; originalUrl?: string };

/**
 * Observes every request of an app from the moment it enters (the wrapped `app.handle` in buildApp, so the SDK fast
 * paths that never reach Express are observed too): one log line when it ends, through pino-http, and its duration in
 * the metrics.
 *
 * The line (level info) holds the request id, method, route pattern, status, duration in ms, the client address and
 * the URL passed through `redactUrl`; never a header (so no token, cookie or Authorization), nor a body. The client
 * address (`remoteAddress`, for telling who sent what, e.g. a run of failed logins) is `clientAddress(req)`: buildApp
 * gives the one Express's `req.ip` reads, so TRUST_PROXY alone decides whether X-Forwarded-For counts; by default the
 * socket's peer. The request id is the caller's `X-Request-Id` when it is well-formed and short, else a new UUID; it
 * is echoed in the `X-Request-Id` answer header.
 *
 * `table()` gives the app's routes (read on first use, when every route is in place).
 */
export function requestObserver(
  logger: Logger, metrics: AppMetrics, table: () => RouteTable, clientAddress: (req: IncomingMessage) => string | undefined = (req) => req.socket.remoteAddress,
): (req: IncomingMessage, res: ServerResponse) => void {
  const outcome = (req: Req, res: Res): Outcome => {
    const timing = res[TIMING]!;
    timing.outcome ??= {
      route: routeLabel(table(), req),
      status: res.headersSent || res.writableEnded ? res.statusCode : CLIENT_CLOSED,
      durationMs: performance.now() - timing.start,
    };
    return timing.outcome;
  };
  const line = (req: Req & { id?: unknown }, res: Res) => {
    // Nothing to build when the line is not written (LOG_LEVEL above info); the metrics read the outcome themselves.
    if (!logger.isLevelEnabled('info')) return {};
    const { route, status, durationMs } = outcome(req, res);
    const { remoteAddress } = res[TIMING]!;
    return { reqId: req.id, method: req.method, route, status, durationMs: Math.round(durationMs * 1000) / 1000, remoteAddress, url: redactUrl(req.originalUrl ?? req.url ?? '') };
  };
  const log = pinoHttp<Req, Res>({
    logger,
    // The line is written by the logger itself (no per-request bindings: the request id is in the line); `req.log`
    // is a child bound to the request id only. A child of a child per request (pino-http's quietReqLogger) would cost
    // ~20 µs: V8 turns each per-request child into a prototype.
    quietResLogger: true,
    wrapSerializers: false,
    serializers: { req: (req: IncomingMessage & { id?: unknown }) => ({ id: req.id }) },
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customSuccessObject: (req, res) => line(req, res),
    customErrorObject: (req, res) => line(req, res),
    customSuccessMessage: (req, res) => (res.writableEnded ? 'request completed' : 'request aborted'),
    customErrorMessage: (req, res) => (res.writableEnded ? 'request failed' : 'request aborted'),
  });
  // 'close' comes once, whether the answer was sent ('finish' just before) or the client went first. One function
  // for every request (no closure per request on the hot path).
  function measured(this: Res) {
    const timing = this[TIMING]!;
    const { route, status, durationMs } = outcome(timing.req, this);
    metrics.observeRequest(timing.req.method ?? '', route, status, durationMs / 1000);
    if (this[REFUSED]) metrics.refusedForOutage(this[REFUSED]);
  }
  return (req, res) => {
    const r = res as Res;
    r[TIMING] = { start: performance.now(), req, remoteAddress: logger.isLevelEnabled('info') ? clientAddress(req) : undefined };
    log(req as Req, r);
    res.on('close', measured);
  };
}
