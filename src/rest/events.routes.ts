import { Router, type Request } from 'express';
import { services } from './context';

/** Query strings are text: whole numbers become numbers, anything else is passed on for the service to reject. */
function queryValue(req: Request, key: string): unknown {
  const v = req.query[key];
  if (v === undefined) return undefined;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return v;
}

export function eventsRouter(): Router {
  const r = Router();
  r.get('/events', async (req, res) => {
    const page = await services(req).events.search({
      type: req.query.type as string | undefined,
      project: req.query.project as string | undefined,
      feature: req.query.feature as string | undefined,
      limit: queryValue(req, 'limit') as number | undefined,
      offset: queryValue(req, 'offset') as number | undefined,
      before: queryValue(req, 'before') as number | undefined,
    });
    res.json({ version: 1, events: page.events, totalEvents: page.totalEvents, ...(page.nextBefore ? { nextBefore: page.nextBefore } : {}) });
  });
  r.get('/events/:featureName', async (req, res) => {
    const { events, totalEvents } = await services(req).events.forFeature(req.params.featureName);
    res.json({ version: 1, toggleName: req.params.featureName, events, totalEvents });
  });
  return r;
}
