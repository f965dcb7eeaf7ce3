import { Router, type Request } from 'express';
import { restStages } from '../domain/lifecycle/lifecycle.rules';
import { services } from './context';

const featurePath = '/projects/:projectId/features/:featureName/lifecycle';
const params = (req: Request) => req.params as { projectId: string; featureName: string };

/** Flag lifecycle (issue 44), at Unleash 6's paths: the stages entered, and completing a flag or taking that back. */
export function lifecycleRouter(): Router {
  const r = Router();
  r.get(featurePath, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json(await services(req).lifecycle.stages(projectId, featureName));
  });
  r.post(`${featurePath}/complete`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json(restStages(await services(req).lifecycle.complete(projectId, featureName, req.body)));
  });
  r.post(`${featurePath}/uncomplete`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json(restStages(await services(req).lifecycle.uncomplete(projectId, featureName)));
  });
  return r;
}
