import { Router } from 'express';
import { services } from './context';

/** `GET /api/admin/ui-config`: what Unleash's admin UI reads first (src/domain/ui-config/ui-config.service.ts). */
export function uiConfigRouter(): Router {
  const r = Router();
  r.get('/ui-config', (req, res) => {
    res.json(services(req).uiConfig.get());
  });
  return r;
}
