import { Router } from 'express';
import type { SdkDeps } from './sdk-deps';

/** `/api/client/features` and `/api/client/streaming` (issue 14 parts 1 and 4). */
export function clientFeaturesRouter(_deps: SdkDeps): Router {
  return Router();
}
