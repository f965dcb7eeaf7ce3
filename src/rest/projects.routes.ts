import { Router } from 'express';
import { services } from './context';

export function projectsRouter(): Router {
  const r = Router();
  r.get('/projects', async (req, res) => {
    const projects = await services(req).projects.listWithCounts();
    res.json({ version: 1, projects: projects.map((p) => ({ ...p, favorite: false })) });
  });
  r.post('/projects', async (req, res) => {
    res.status(201).json(await services(req).projects.create(req.body));
  });
  r.get('/projects/:id', async (req, res) => {
    res.json({ version: 1, ...(await services(req).projects.details(req.params.id)), favorite: false });
  });
  r.put('/projects/:id', async (req, res) => {
    res.json(await services(req).projects.update(req.params.id, req.body));
  });
  r.delete('/projects/:id', async (req, res) => {
    await services(req).projects.remove(req.params.id);
    res.status(200).end();
  });
  r.post('/projects/:id/environments', async (req, res) => {
    await services(req).projects.addEnvironment(req.params.id, req.body);
    res.status(200).end();
  });
  r.delete('/projects/:id/environments/:environment', async (req, res) => {
    await services(req).projects.removeEnvironment(req.params.id, req.params.environment);
    res.status(200).end();
  });
  return r;
}
