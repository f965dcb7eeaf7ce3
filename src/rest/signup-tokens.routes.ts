import { Router } from 'express';
import { services } from './context';

/** Public signup tokens, the admin side (issue 10, spec endpoint 7). */
export function signupTokensRouter(): Router {
  const r = Router();
  r.get('/invite-link/tokens', async (req, res) => {
    res.json({ tokens: await services(req).signupTokens.list() });
  });
  r.post('/invite-link/tokens', async (req, res) => {
    const token = await services(req).signupTokens.create(req.body);
    res.status(201).location(`invite-link/tokens/${encodeURIComponent(token.secret)}`).json(token);
  });
  r.get('/invite-link/tokens/:token', async (req, res) => {
    res.json(await services(req).signupTokens.get(req.params.token));
  });
  r.put('/invite-link/tokens/:token', async (req, res) => {
    res.json(await services(req).signupTokens.update(req.params.token, req.body));
  });
  return r;
}
