import { Router } from 'express';
import { services } from './context';

/** Change requests (issue 12, spec endpoint 9): the per-environment configuration. */
export function changeRequestsRouter(): Router {
  const r = Router();
  r.get('/projects/:projectId/change-requests/config', async (req, res) => {
    res.json(await services(req).changeRequestConfig.get(req.params.projectId));
  });
  r.put('/projects/:projectId/environments/:environment/change-requests/config', async (req, res) => {
    await services(req).changeRequestConfig.update(req.params.projectId, req.params.environment, req.body);
    res.status(204).end();
  });
  return r;
}
