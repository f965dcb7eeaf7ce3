import { hash } from 'node:crypto';
import { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import type { Principal } from '../../domain/access/principal';
import { DomainError, errorBody, NotFoundError, ValidationError } from '../../domain/errors';
import type { MetricsReport } from '../../domain/metrics/metrics-input';
import { ofrepContext } from '../../domain/ofrep/ofrep-context';
import { OfrepService } from '../../domain/ofrep/ofrep.service';
import type { FeatureDecision } from '../../domain/playground/types';
import type { FrontendContext } from '../../domain/frontend/frontend-context';
import { answerError } from '../errors';
import { ifNoneMatchNames } from './etag';
import type { OfrepEvents } from './ofrep-events';
import { sdkPrincipal, type SdkDeps } from './sdk-deps';
import { markStale } from './stale';

/** Counts an evaluation as an SDK's metrics report would (the same intake, so unknown names are recorded too). */
export type RecordEvaluation = (principal: Principal, report: MetricsReport, clientIp: string) => void;

type OfrepErrorCode = 'PARSE_ERROR' | 'INVALID_CONTEXT' | 'FLAG_NOT_FOUND' | 'TARGETING_KEY_MISSING' | 'GENERAL';

/**
 * OFREP's error body, `{key?, errorCode, errorDetails}`, with the service's own error fields beside them (`id`, `name`,
 * `message`, `details`): an OpenFeature provider reads the first, flagdeck's tools and logs the second.
 */
const refuse = (res: Response, status: number, errorCode: OfrepErrorCode, err: DomainError, key?: string) =>
  res.status(status).json({ ...errorBody(err), ...(key === undefined ? {} : { key }), errorCode, errorDetails: describe(err) });

/** An error in a line: each detail's path and message, or the message. */
const describe = (err: DomainError) =>
  (err instanceof ValidationError && err.details.length > 0 ? err.details.map((d) => `${d.path ? `${d.path}: ` : ''}${d.message}`).join('; ') : err.message);

/** The context of the body, or OFREP's 400 INVALID_CONTEXT naming what is wrong with it. */
function contextOf(req: Request, res: Response, key?: string): FrontendContext | undefined {
  try {
    return ofrepContext(req.body);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    refuse(res, 400, 'INVALID_CONTEXT', err, key);
    return undefined;
  }
}

const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';

/**
 * The OpenFeature Remote Evaluation Protocol (issue 45) under `/ofrep/v1`, behind the SDK door (frontend, client and
 * admin tokens; scope as the frontend API):
 * - `POST /evaluate/flags/:key`: one flag, `{key, value, reason, variant, metadata}`; 404 FLAG_NOT_FOUND. Counted as an
 *   SDK's report of one evaluation (applications, exposure, last seen; an unknown name is recorded as one).
 * - `POST /evaluate/flags`: every flag, `{flags, metadata, eventStreams, refreshConnections}` with an ETag (a digest of
 *   the bytes); `If-None-Match` or `?flagConfigEtag=` naming it is a 304. Not counted: a provider fetches the whole
 *   set to cache it, which is no evaluation by the application.
 * Errors of the request itself answer in OFREP's shape (PARSE_ERROR, INVALID_CONTEXT); credentials, limits and outages
 * in the service's own (401, 403, 413, 415, 429, 503), as the frontend API.
 */
export function ofrepRouter(deps: SdkDeps, record: RecordEvaluation, events: OfrepEvents): Router {
  const service = () => new OfrepService(deps.orm.em.fork(), deps.playgroundCache, deps.lastKnown);
  const r = Router();

  r.post('/evaluate/flags/:key', async (req: Request, res: Response) => {
    const key = req.params.key as string;
    const context = contextOf(req, res, key);
    if (!context) return;
    const principal = sdkPrincipal(req);
    const appName = context.appName ?? 'openfeature';
    const { result, decision, environment, staleSince } = await service().evaluateOne(principal, key, context, req.ip);
    const now = new Date();
    record(principal, {
      appName, instanceId: 'ofrep', environment,
      bucket: { start: now, stop: now, toggles: { [key]: countOf(decision) } },
    }, clientIp(req));
    markStale(res, staleSince);
    if (!result) return refuse(res, 404, 'FLAG_NOT_FOUND', new NotFoundError(`No flag named "${key}" in this token's projects and environment.`), key);
    res.json(result);
  });

  r.post('/evaluate/flags', async (req: Request, res: Response) => {
    const context = contextOf(req, res);
    if (!context) return;
    const { result, staleSince } = await service().evaluateAll(sdkPrincipal(req), context, req.ip);
    const flags = JSON.stringify(result);
    const etag = `"${hash('sha1', flags, 'base64url')}"`;
    markStale(res, staleSince);
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    const named = typeof req.query.flagConfigEtag === 'string' ? req.query.flagConfigEtag : undefined;
    if (ifNoneMatchNames(req.headers['if-none-match'], etag) || (named !== undefined && (named === etag || `"${named}"` === etag))) {
      res.status(304).end();
      return;
    }
    // Only a full answer names the stream: a revalidation's 304 reads no model version for it.
    const streamsJson = JSON.stringify([await events.connection(req)]);
    res.type('application/json').send(`{"flags":${flags},"metadata":{},"eventStreams":${streamsJson},"refreshConnections":${streamsJson}}`);
  });
  return r;
}

/** What one evaluation counts, as an SDK counts it: yes or no, and the variant handed out; a name no flag has is a "no". */
function countOf(decision: FeatureDecision | undefined) {
  if (!decision?.isEnabled) return { yes: 0, no: 1 };
  return { yes: 1, no: 0, ...(decision.variant.enabled ? { variants: { [decision.variant.name]: 1 } } : {}) };
}

/**
 * The door's errors in OFREP's shape where the protocol names one: a request that cannot be read (a body that is not
 * JSON, text that is not well-formed, a path segment that is not) is a PARSE_ERROR, with the service's ValidationError
 * fields beside it; everything else (credentials, content type, size, outages) answers as the other doors do.
 */
export function ofrepErrors(deps: SdkDeps): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const type = (err as { type?: string })?.type;
    const unreadable = !(err instanceof DomainError) && (type === 'entity.parse.failed' || (err as { status?: number })?.status === 400);
    if (err instanceof ValidationError || unreadable) {
      const key = typeof req.params?.key === 'string' ? req.params.key : undefined;
      const why = err instanceof ValidationError ? err : ValidationError.single('', type === 'entity.parse.failed' ? `The request body is not valid JSON: ${(err as Error).message}` : 'The request body could not be read.');
      return refuse(res, 400, 'PARSE_ERROR', why, key);
    }
    answerError(deps.logger, err, req, res);
  };
}
