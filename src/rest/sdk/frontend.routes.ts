import { Router, type RequestHandler } from 'express';
import type { SdkDeps } from './sdk-deps';

/** `GET|POST /api/frontend` (issue 14 part 2). */
export function frontendRouter(_deps: SdkDeps): Router {
  return Router();
}

/** CORS of `/api/frontend` (CORS_ORIGINS), before authentication: a preflight needs no token. */
export function frontendCors(_deps: SdkDeps): RequestHandler {
  return (_req, _res, next) => next();
}
