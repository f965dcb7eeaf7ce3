import { hash } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { FrontendApiService } from '../../domain/frontend/frontend-api.service';
import { contextFromBody, contextFromQuery, type FrontendContext } from '../../domain/frontend/frontend-context';
import type { CompiledSnapshot, FeatureDecision } from '../../domain/playground/engine';
import { ifNoneMatchNames } from './etag';
import { sdkPrincipal, type SdkDeps } from './sdk-deps';

/**
 * One toggle of the answer as JSON text, `{name, enabled: true, variant, impressionData}` (Unleash v5.8's shape:
 * `variant` is `{name, enabled, payload?}`, the disabled variant `{name: "disabled", enabled: false}`). The engine's
 * decisions are built once per compiled snapshot and shared by every evaluation of it, so each is serialized once and
 * the text kept with it: an answer is then a join of cached strings, whatever the number of flags.
 */
const toggleText = new WeakMap<FeatureDecision, string>();

function renderToggles({ snapshot, decisions }: { snapshot: CompiledSnapshot; decisions: FeatureDecision[] }): string {
  const parts: string[] = [];
  for (let i = 0; i < decisions.length; i++) {
    const decision = decisions[i];
    if (!decision.isEnabled) continue;
    let text = toggleText.get(decision);
    if (text === undefined) {
      const feature = snapshot.features[i];
      text = JSON.stringify({ name: feature.name, enabled: true, variant: decision.variant, impressionData: feature.impressionData });
      toggleText.set(decision, text);
    }
    parts.push(text);
  }
  return `{"toggles":[${parts.join(',')}]}`;
}

/**
 * `GET /api/frontend` (context in the query string) and `POST /api/frontend` (`{context}` in the body): the flags
 * enabled for that context in the token's environment and projects, `{toggles: [...]}`. The answer carries an ETag
 * (a digest of its bytes); a GET whose If-None-Match names it is a 304 without a body. The answer depends on the
 * token, so it may be kept only by the caller's own cache, and for 2 seconds at most (Unleash sends `max-age=2`).
 */
export function frontendRouter(deps: SdkDeps): Router {
  const answer = async (req: Request, res: Response, context: FrontendContext) => {
    const service = new FrontendApiService(deps.orm.em.fork(), deps.playgroundCache);
    const body = renderToggles(await service.evaluate(sdkPrincipal(req), context, req.ip));
    const etag = `"${hash('sha1', body, 'base64url')}"`;
    res.setHeader('ETag', etag);
    if (req.method === 'GET' || req.method === 'HEAD') {
      res.setHeader('Cache-Control', 'private, max-age=2');
      if (ifNoneMatchNames(req.headers['if-none-match'], etag)) {
        res.status(304).end();
        return;
      }
    }
    res.type('application/json').send(body);
  };
  const r = Router();
  r.route('')
    .get((req, res) => answer(req, res, contextFromQuery(req.query as Record<string, unknown>)))
    .post((req, res) => answer(req, res, contextFromBody(req.body)));
  return r;
}

/** What a browser may send to the frontend API: the proxy client's headers (`Accept` needs no permission). */
const ALLOWED_HEADERS = 'Authorization, Content-Type, If-None-Match, Unleash-AppName, Unleash-Connection-Id, Unleash-SDK';
const MAX_AGE_SECONDS = '86400';

/**
 * CORS of `/api/frontend` (CORS_ORIGINS), before authentication: a preflight needs no token. Without CORS_ORIGINS it
 * does nothing (browsers on other origins are blocked). With it, a request from an allowed origin gets
 * `Access-Control-Allow-Origin` (its origin, or `*` when CORS_ORIGINS is `*`) and may read the ETag, and its
 * preflight (`OPTIONS`) is answered here with 204 and the methods (GET, POST), headers and max-age allowed. A request
 * from another origin gets no CORS header at all, and its preflight goes on to the door like any request (401
 * without a token), so the browser blocks it. `Vary: Origin` on every answer, since the headers depend on it.
 *
 * Written here rather than with the `cors` package: what it adds (reflecting requested headers, credentials, origin
 * callbacks) is what this API must not do, and what it must do is the dozen lines below.
 */
export function frontendCors(deps: SdkDeps): RequestHandler {
  const origins = new Set(deps.corsOrigins);
  if (origins.size === 0) return (_req, _res, next) => next();
  const any = origins.has('*');
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !(any || origins.has(origin))) return next();
    res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
    if (req.method !== 'OPTIONS') {
      res.setHeader('Access-Control-Expose-Headers', 'ETag');
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
    res.status(204).end();
  };
}
