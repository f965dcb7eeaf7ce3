import { Router, type Request } from 'express';
import { HOURS_BACK } from '../domain/metrics/client-metrics.service';
import { services } from './context';

/**
 * `hoursBack` as Unleash reads it: a number of hours from 1 to 48; anything else (absent, out of range, not a number)
 * means the default, 24.
 */
function hoursBack(req: Request): number {
  const v = req.query.hoursBack;
  const n = typeof v === 'string' && /^\d{1,3}$/.test(v) ? Number(v) : Number.NaN;
  return n >= HOURS_BACK.min && n <= HOURS_BACK.max ? n : HOURS_BACK.default;
}

/**
 * The admin views of what SDKs report (issue 14 part 3), in Unleash v5.8's shapes: applications with their instances,
 * and the usage of a feature (the last hour per environment, and hour by hour per environment and application).
 */
export function metricsRouter(): Router {
  const r = Router();
  r.get('/metrics/applications', async (req, res) => {
    const strategyName = typeof req.query.strategyName === 'string' ? req.query.strategyName : undefined;
    res.json({ applications: await services(req).clientMetrics.listApplications(strategyName) });
  });
  r.get('/metrics/applications/:appName', async (req, res) => {
    res.json(await services(req).clientMetrics.getApplicationDetails(req.params.appName));
  });
  r.post('/metrics/applications/:appName', async (req, res) => {
    await services(req).clientMetrics.updateApplication(req.params.appName, req.body ?? {});
    res.status(202).end();
  });
  r.delete('/metrics/applications/:appName', async (req, res) => {
    await services(req).clientMetrics.deleteApplication(req.params.appName);
    res.status(200).end();
  });
  r.get('/client-metrics/features/:name', async (req, res) => {
    res.json({ version: 1, maturity: 'stable', ...(await services(req).clientMetrics.featureUsage(req.params.name)) });
  });
  r.get('/client-metrics/features/:name/raw', async (req, res) => {
    const data = (await services(req).clientMetrics.featureMetrics([req.params.name], hoursBack(req))).get(req.params.name) ?? [];
    res.json({ version: 1, maturity: 'stable', data });
  });
  return r;
}
