import { hash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { FrontendApiService } from '../../domain/frontend/frontend-api.service';
import { contextFromBody, contextFromQuery, type FrontendContext } from '../../domain/frontend/frontend-context';
import type { FrontendToggle } from '../../domain/frontend/frontend.shapes';
import type { CompiledSnapshot, FeatureDecision } from '../../domain/playground/engine';
import { ifNoneMatchNames } from './etag';
import { sdkPrincipal, type SdkDeps } from './sdk-deps';
import { markStale } from './stale';

/**
 * One toggle of the answer as JSON text, `{name, enabled: true, variant, impressionData}` (Unleash v5.8's shape:
 * `variant` is `{name, enabled, payload?}`, the disabled variant `{name: "disabled", enabled: false}`). The engine's
 * decisions are built once per compiled snapshot and shared by every evaluation of it, so each is serialized once and
 * the text kept with it: an answer is then a join of cached strings, whatever the number of flags.
 */
const toggleText = new WeakMap<FeatureDecision, string>();

export function renderToggles({ snapshot, decisions }: { snapshot: CompiledSnapshot; decisions: FeatureDecision[] }): string {
  const parts: string[] = [];
  for (let i = 0; i < decisions.length; i++) {
    const decision = decisions[i];
    if (!decision.isEnabled) continue;
    let text = toggleText.get(decision);
    if (text === undefined) {
      const feature = snapshot.features[i];
      text = JSON.stringify({ name: feature.name, enabled: true, variant: decision.variant, impressionData: feature.impressionData } satisfies FrontendToggle);
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
    const service = new FrontendApiService(deps.orm.em.fork(), deps.playgroundCache, deps.lastKnown);
    const evaluation = await service.evaluate(sdkPrincipal(req), context, req.ip);
    const body = renderToggles(evaluation);
    markStale(res, evaluation.staleSince);
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
