import { Router } from 'express';
import { services } from './context';

/** Unknown flags (issue 44), at Unleash 7.2's path. */
export function unknownFlagsRouter(): Router {
  const r = Router();
  r.get('/metrics/unknown-flags', async (req, res) => {
    res.json({ unknownFlags: await services(req).unknownFlags.list() });
  });
  return r;
}
