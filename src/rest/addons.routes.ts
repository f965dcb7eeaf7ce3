import { Router } from 'express';
import { services } from './context';

/** Addons (issue 11, spec endpoint 1). */
export function addonsRouter(): Router {
  const r = Router();
  r.get('/addons', async (req, res) => {
    const s = services(req).addons;
    res.json({ addons: await s.list(), providers: s.providers() });
  });
  r.post('/addons', async (req, res) => {
    const addon = await services(req).addons.create(req.body);
    res.status(201).location(`addons/${addon.id}`).json(addon);
  });
  r.get('/addons/:id', async (req, res) => {
    res.json(await services(req).addons.get(req.params.id));
  });
  r.put('/addons/:id', async (req, res) => {
    res.json(await services(req).addons.update(req.params.id, req.body));
  });
  r.delete('/addons/:id', async (req, res) => {
    await services(req).addons.delete(req.params.id);
    res.status(200).end();
  });
  // Deliveries (issue 11): newest first, `limit` (1..100, default 20) and `after` (the `nextCursor` of a page).
  r.get('/addons/:id/deliveries', async (req, res) => {
    res.json(await services(req).addons.deliveries(req.params.id, req.query as Record<string, string>));
  });
  r.post('/addons/:id/deliveries/:deliveryId/redeliver', async (req, res) => {
    const delivery = await services(req).addons.redeliver(req.params.id, req.params.deliveryId);
    res.status(201).json(delivery);
  });
  return r;
}
