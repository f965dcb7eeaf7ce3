import { Router } from 'express';
import { services } from './context';

/** Roles and the permission listing (issue 9, spec endpoints 12 and 17). */
export function rolesRouter(): Router {
  const r = Router();
  r.get('/permissions', async (req, res) => {
    res.json(await services(req).roles.permissions());
  });
  r.get('/roles', async (req, res) => {
    res.json({ version: 1, roles: await services(req).roles.list() });
  });
  r.post('/roles', async (req, res) => {
    res.status(200).json(await services(req).roles.create(req.body));
  });
  r.get('/roles/:id', async (req, res) => {
    res.json(await services(req).roles.get(req.params.id));
  });
  r.put('/roles/:id', async (req, res) => {
    res.json(await services(req).roles.update(req.params.id, req.body));
  });
  r.delete('/roles/:id', async (req, res) => {
    await services(req).roles.delete(req.params.id);
    res.status(200).end();
  });
  return r;
}
