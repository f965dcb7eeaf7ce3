import { Router } from 'express';
import { services } from './context';

/** Strategy definitions (strategy types): list, read, create, update, deprecate/reactivate, delete. */
export function strategiesRouter(): Router {
  const r = Router();
  r.get('/strategies', async (req, res) => {
    res.json({ version: 1, strategies: await services(req).strategies.list() });
  });
  r.get('/strategies/:name', async (req, res) => {
    res.json(await services(req).strategies.get(req.params.name));
  });
  r.post('/strategies', async (req, res) => {
    res.status(201).json(await services(req).strategies.create(req.body));
  });
  r.put('/strategies/:name', async (req, res) => {
    res.json(await services(req).strategies.update(req.params.name, req.body));
  });
  r.post('/strategies/:name/deprecate', async (req, res) => {
    await services(req).strategies.deprecate(req.params.name);
    res.status(200).end();
  });
  r.post('/strategies/:name/reactivate', async (req, res) => {
    await services(req).strategies.reactivate(req.params.name);
    res.status(200).end();
  });
  r.delete('/strategies/:name', async (req, res) => {
    await services(req).strategies.remove(req.params.name);
    res.status(200).end();
  });
  return r;
}
