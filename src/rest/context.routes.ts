import { Router } from 'express';
import { services } from './context';

export function contextRouter(): Router {
  const r = Router();
  r.get('/context', async (req, res) => {
    res.json(await services(req).contextFields.list());
  });
  r.post('/context/validate', async (req, res) => {
    await services(req).contextFields.validateName(req.body);
    res.status(200).end();
  });
  r.get('/context/:name', async (req, res) => {
    res.json(await services(req).contextFields.get(req.params.name));
  });
  r.post('/context', async (req, res) => {
    res.status(201).json(await services(req).contextFields.create(req.body));
  });
  r.put('/context/:name', async (req, res) => {
    res.json(await services(req).contextFields.update(req.params.name, req.body));
  });
  r.delete('/context/:name', async (req, res) => {
    await services(req).contextFields.remove(req.params.name);
    res.status(200).end();
  });
  r.post('/context/:name/legal-values', async (req, res) => {
    res.json(await services(req).contextFields.addLegalValue(req.params.name, req.body));
  });
  r.delete('/context/:name/legal-values/:value', async (req, res) => {
    res.json(await services(req).contextFields.removeLegalValue(req.params.name, req.params.value));
  });
  return r;
}
