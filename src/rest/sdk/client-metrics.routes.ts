import { Router, type Request, type Response } from 'express';
import { MetricsIntake } from '../../domain/metrics/metrics-intake';
import { isDatabaseUnreachable } from '../../domain/database-errors';
import { parseMetricsReport, parseRegistration, reportEnvironment } from '../../domain/metrics/metrics-input';
import { RegistrationBacklog } from '../../domain/metrics/registration-backlog';
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
 * (one per SDK start), or held while the database is away. The environment is the token's (a client or frontend token's own; for admin tokens the body's,
 * else `default`). The client API answers 202 as Unleash does; the frontend API 200, as Unleash v5.8 does there.
 */
export function clientMetricsRouters(deps: SdkDeps): { client: Router; frontend: Router; close(): Promise<void>; report: ReportIntake; record: MetricsIntake['record'] } {
  const intake = new MetricsIntake(deps.orm, deps.logger, { flushMs: deps.metricsFlushMs, retentionHours: deps.metricsRetentionHours });
  const backlog = new RegistrationBacklog(deps.logger);
  const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';
  const report: ReportIntake = (principal, body, ip) => intake.record(principal, parseMetricsReport(body), ip);
  // The database back: what was held meanwhile is written now rather than at the next round.
  const stopWatching = deps.lastKnown?.availability.onChange((reachable) => {
    if (!reachable) return;
    void backlog.flush();
    void intake.flush();
  });

  /**
   * A registration that came while the database is away is held and written once it is back (RegistrationBacklog):
   * the SDK is answered as usual. Only with a way to write it later (`servicesFor`), and while the backlog has room;
   * otherwise the outage's 503.
   */
  const register = async (req: Request) => {
    const principal = sdkPrincipal(req);
    const ip = clientIp(req);
    const body: unknown = req.body;
    const reg = parseRegistration(body);
    try {
      await services(req).clientMetrics.register(body, ip);
    } catch (err) {
      const later = deps.servicesFor;
      if (!later || !isDatabaseUnreachable(err)) throw err;
      const key = JSON.stringify([reportEnvironment(principal, reg.environment), reg.appName, reg.instanceId]);
      if (!backlog.keep(key, () => later(principal).clientMetrics.register(body, ip))) throw err;
    }
  };

  // The client door is mounted on /api/client (`/register`), the frontend door on /api/frontend (`/client/register`).
  const routes = (prefix: string, status: number) => {
    const r = Router();
    r.post(`${prefix}/register`, async (req: Request, res: Response) => {
      await register(req);
      res.status(status).end();
    });
    r.post(`${prefix}/metrics`, (req: Request, res: Response) => {
      report(sdkPrincipal(req), req.body, clientIp(req));
      res.status(status).end();
    });
    return r;
  };
  const close = async () => {
    stopWatching?.();
    await backlog.close();
    await intake.close();
  };
  return { client: routes('', 202), frontend: routes('/client', 200), close, report, record: (principal, r, ip) => intake.record(principal, r, ip) };
}
