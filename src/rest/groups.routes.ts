import { Router } from 'express';
import { services } from './context';

/** Groups of users (issue 9): Unleash's /api/admin/groups. */
export function groupsRouter(): Router {
  const r = Router();
  r.get('/groups', async (req, res) => {
    res.json({ groups: await services(req).groups.list() });
  });
  r.post('/groups', async (req, res) => {
    res.status(201).json(await services(req).groups.create(req.body));
  });
  r.get('/groups/:id', async (req, res) => {
    res.json(await services(req).groups.get(req.params.id));
  });
  r.put('/groups/:id', async (req, res) => {
    res.json(await services(req).groups.update(req.params.id, req.body));
  });
  r.delete('/groups/:id', async (req, res) => {
    await services(req).groups.delete(req.params.id);
    res.status(200).end();
  });
  return r;
}
