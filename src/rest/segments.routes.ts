import { Router } from 'express';
import { services } from './context';

export function segmentsRouter(): Router {
  const r = Router();
  r.get('/segments', async (req, res) => {
    res.json({ segments: await services(req).segments.list() });
  });
  r.post('/segments/validate', async (req, res) => {
    await services(req).segments.validateName(req.body);
    res.status(204).end();
  });
  r.post('/segments', async (req, res) => {
    res.status(201).json(await services(req).segments.create(req.body));
  });
  r.get('/segments/:id', async (req, res) => {
    res.json(await services(req).segments.get(req.params.id));
  });
  r.put('/segments/:id', async (req, res) => {
    await services(req).segments.update(req.params.id, req.body);
    res.status(204).end();
  });
  r.delete('/segments/:id', async (req, res) => {
    await services(req).segments.remove(req.params.id);
    res.status(204).end();
  });
  r.get('/segments/:id/strategies', async (req, res) => {
    res.json({ strategies: await services(req).segments.strategiesUsing(req.params.id) });
  });
  return r;
}
