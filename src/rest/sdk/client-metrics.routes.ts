import { Router, type Request, type Response } from 'express';
import { MetricsIntake } from '../../domain/metrics/metrics-intake';
import { parseMetricsReport } from '../../domain/metrics/metrics-input';
import { services } from '../context';
import type { Principal } from '../../domain/access/principal';
import { sdkPrincipal, type SdkDeps } from './sdk-deps';

/** Validates a metrics report (a 400 ValidationError when it is not one) and adds it to the buffer. */
export type ReportIntake = (principal: Principal, body: unknown, clientIp: string) => void;

/**
 * Register and metrics intake of both SDK doors (`/api/client/register|metrics`, `/api/frontend/client/register|metrics`;
 * issue 14 parts 1 and 2). `close()` writes what is still buffered (called at shutdown).
 *
 * Metrics are validated and added to this app's in-memory buffer (MetricsIntake), which is written every
 * `metricsFlushMs` and at close: answering a report never waits on the database. A registration is written at once
 * (one per SDK start). The environment is the token's (a client or frontend token's own; for admin tokens the body's,
 * else `default`). The client API answers 202 as Unleash does; the frontend API 200, as Unleash v5.8 does there.
 */
export function clientMetricsRouters(deps: SdkDeps): { client: Router; frontend: Router; close(): Promise<void>; report: ReportIntake } {
  const intake = new MetricsIntake(deps.orm, deps.logger, { flushMs: deps.metricsFlushMs, retentionHours: deps.metricsRetentionHours });
  const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';
  const report: ReportIntake = (principal, body, ip) => intake.record(principal, parseMetricsReport(body), ip);

  // The client door is mounted on /api/client (`/register`), the frontend door on /api/frontend (`/client/register`).
  const routes = (prefix: string, status: number) => {
    const r = Router();
    r.post(`${prefix}/register`, async (req: Request, res: Response) => {
      await services(req).clientMetrics.register(req.body, clientIp(req));
      res.status(status).end();
    });
    r.post(`${prefix}/metrics`, (req: Request, res: Response) => {
      report(sdkPrincipal(req), req.body, clientIp(req));
      res.status(status).end();
    });
    return r;
  };
  return { client: routes('', 202), frontend: routes('/client', 200), close: () => intake.close(), report };
}
