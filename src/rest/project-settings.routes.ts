import { Router } from 'express';
import { services } from './context';
import { healthReportBody } from './project-overview.bodies';

/** Project settings (spec endpoint 2) and the project health report (spec endpoint 10). */
export function projectSettingsRouter(): Router {
  const r = Router();
  r.put('/projects/:projectId/settings', async (req, res) => {
    await services(req).projects.updateSettings(req.params.projectId, req.body);
    res.status(200).end();
  });
  r.get('/projects/:projectId/health-report', async (req, res) => {
    res.type('application/json').send(healthReportBody(await services(req).healthReports.healthReportWithOverview(req.params.projectId)));
  });
  return r;
}
