import { Router } from 'express';
import { services } from './context';

/** Spec endpoints 3 and 4: `{input, features}` as the service returns them. */
export function playgroundRouter(): Router {
  const r = Router();
  r.post('/playground', async (req, res) => {
    res.json(await services(req).playground.evaluate(req.body));
  });
  r.post('/playground/advanced', async (req, res) => {
    res.json(await services(req).playground.evaluateAdvanced(req.body));
  });
  return r;
}
