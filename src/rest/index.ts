import { Router } from 'express';
import { contextRouter } from './context.routes';
import { environmentsRouter } from './environments.routes';
import { eventsRouter } from './events.routes';
import { projectsRouter } from './projects.routes';
import { tagsRouter } from './tags.routes';

/** Every `/api/admin` route. Routes parse, call one service method and shape the JSON; nothing else. */
export function adminRouter(): Router {
  const r = Router();
  r.use(environmentsRouter(), projectsRouter(), contextRouter(), tagsRouter(), eventsRouter());
  return r;
}
