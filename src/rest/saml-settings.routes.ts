import { Router } from 'express';
import { services } from './context';

/** SAML settings (spec endpoint 11, issue 10): read and replace; both need ADMIN. */
export function samlSettingsRouter(): Router {
  const r = Router();
  r.get('/auth/saml/settings', async (req, res) => {
    res.json(await services(req).samlSettings.get());
  });
  r.post('/auth/saml/settings', async (req, res) => {
    res.json(await services(req).samlSettings.update(req.body));
  });
  return r;
}
