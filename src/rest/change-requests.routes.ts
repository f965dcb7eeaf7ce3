import { Router } from 'express';
import { services } from './context';

/** Change requests (issue 12, spec endpoint 9): the per-environment configuration, drafts, reading and comments. */
export function changeRequestsRouter(): Router {
  const r = Router();
  r.get('/projects/:projectId/change-requests/config', async (req, res) => {
    res.json(await services(req).changeRequestConfig.get(req.params.projectId));
  });
  r.put('/projects/:projectId/environments/:environment/change-requests/config', async (req, res) => {
    await services(req).changeRequestConfig.update(req.params.projectId, req.params.environment, req.body);
    res.status(204).end();
  });
  // Drafts, reading, comments (issue 12 part 3). `open` and `pending` come before `:id`.
  r.post('/projects/:projectId/environments/:environment/change-requests', async (req, res) => {
    res.json(await services(req).changeRequests.addChanges(req.params.projectId, req.params.environment, req.body));
  });
  r.get('/projects/:projectId/change-requests/open', async (req, res) => {
    res.json(await services(req).changeRequests.open(req.params.projectId));
  });
  r.get('/projects/:projectId/change-requests/pending/:featureName', async (req, res) => {
    res.json(await services(req).changeRequests.pendingForFeature(req.params.projectId, req.params.featureName));
  });
  r.get('/projects/:projectId/change-requests/:id', async (req, res) => {
    res.json(await services(req).changeRequests.get(req.params.projectId, req.params.id));
  });
  r.put('/projects/:projectId/change-requests/:id/changes/:changeId', async (req, res) => {
    res.json(await services(req).changeRequests.editChange(req.params.projectId, req.params.id, req.params.changeId, req.body));
  });
  r.delete('/projects/:projectId/change-requests/:id/changes/:changeId', async (req, res) => {
    await services(req).changeRequests.discardChange(req.params.projectId, req.params.id, req.params.changeId);
    res.status(200).end();
  });
  r.put('/projects/:projectId/change-requests/:id/title', async (req, res) => {
    await services(req).changeRequests.setTitle(req.params.projectId, req.params.id, req.body);
    res.status(204).end();
  });
  r.put('/projects/:projectId/change-requests/:id/state', async (req, res) => {
    res.json(await services(req).changeRequests.setState(req.params.projectId, req.params.id, req.body));
  });
  r.post('/projects/:projectId/change-requests/:id/comments', async (req, res) => {
    res.status(201).json(await services(req).changeRequests.addComment(req.params.projectId, req.params.id, req.body));
  });
  return r;
}
