import { Router } from 'express';
import { services } from './context';

/** Project settings (spec endpoint 2) and the project health report (spec endpoint 10). */
export function projectSettingsRouter(): Router {
  const r = Router();
  r.put('/projects/:projectId/settings', async (req, res) => {
    await services(req).projects.updateSettings(req.params.projectId, req.body);
    res.status(200).end();
  });
  r.get('/projects/:projectId/health-report', async (req, res) => {
    const { id: _id, environments, features, ...report } = await services(req).healthReports.healthReport(req.params.projectId);
    // Unleash's shape: `defaultStrategy` only when configured, `tags` only when the feature has some.
    res.json({
      version: 1,
      ...report,
      environments: environments.map(({ defaultStrategy, ...e }) => (defaultStrategy === null ? e : { ...e, defaultStrategy })),
      features: features.map(({ tags, ...f }) => (tags.length === 0 ? f : { ...f, tags })),
      favorite: false,
    });
  });
  return r;
}
