import { Router } from 'express';
import { services } from './context';

export function environmentsRouter(): Router {
  const r = Router();
  r.get('/environments', async (req, res) => {
    res.json({ version: 1, environments: await services(req).environments.list() });
  });
  r.get('/environments/project/:projectId', async (req, res) => {
    res.json({ version: 1, environments: await services(req).environments.forProject(req.params.projectId) });
  });
  r.get('/environments/:name', async (req, res) => {
    res.json(await services(req).environments.get(req.params.name));
  });
  r.post('/environments', async (req, res) => {
    res.status(201).json(await services(req).environments.create(req.body));
  });
  r.put('/environments/:name', async (req, res) => {
    res.json(await services(req).environments.update(req.params.name, req.body));
  });
  r.delete('/environments/:name', async (req, res) => {
    await services(req).environments.remove(req.params.name);
    res.status(200).end();
  });
  r.post('/environments/:name/on', async (req, res) => {
    await services(req).environments.setEnabled(req.params.name, true);
    res.status(204).end();
  });
  r.post('/environments/:name/off', async (req, res) => {
    await services(req).environments.setEnabled(req.params.name, false);
    res.status(204).end();
  });
  return r;
}
