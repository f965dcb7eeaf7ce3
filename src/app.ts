import express, { type NextFunction, type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { TokenResolver } from './domain/access/api-token.service';
import { AuthenticationRequired, ContentTypeerror, errorBody, STATUS_BY_NAME } from './domain/errors';
import { SnapshotCache } from './domain/playground/snapshot-cache';
import { createServices } from './domain/services';
import type { Logger } from './logger';
import { graphqlHandler } from './resolvers/graphql.handler';
import { errorHandler, notFound, sendError } from './rest/errors';
import { adminRouter } from './rest';

export interface AppDeps {
  orm: MikroORM;
  logger: Logger;
  /** Body limit of JSON requests (spec: 100 kB). */
  bodyLimit?: string;
  /** Most environment × feature × context combinations one advanced playground request may evaluate (D9). */
  playgroundCombinationLimit?: number;
}

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * buildApp: body limit (413), content type (415), auth (401), request scope, /api/admin, /graphql.
 * Authentication comes before the body is read, so an anonymous caller cannot make the server parse anything.
 */
export function buildApp({ orm, logger, bodyLimit = '100kb', playgroundCombinationLimit }: AppDeps) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const tokens = new TokenResolver(orm.em);
  const playgroundCache = new SnapshotCache();

  app.get('/health', async (_req, res) => {
    try {
      await orm.em.getConnection().execute('select 1');
      res.json({ health: 'GOOD' });
    } catch {
      res.status(503).json({ health: 'BAD' });
    }
  });

  const authenticate = async (req: Request, res: Response, next: NextFunction) => {
    const principal = await tokens.resolve(req.headers.authorization);
    if (!principal) {
      const err = new AuthenticationRequired();
      if (req.baseUrl === '/graphql') {
        res.status(401).json({ errors: [{ message: err.message, extensions: { name: err.name, code: 401, id: err.id } }] });
        return;
      }
      return sendError(res, err);
    }
    (req as Request & { scope?: unknown }).scope = { services: createServices(orm.em.fork(), principal, { playgroundCombinationLimit, playgroundCache }) };
    next();
  };
  const requireJson = (req: Request, res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is(['application/json', 'application/*+json'])) {
      const err = new ContentTypeerror(req.headers['content-type']);
      if (req.baseUrl === '/graphql') {
        res.status(415).json({ errors: [{ message: err.message, extensions: { name: err.name, code: STATUS_BY_NAME[err.name], id: err.id } }] });
        return;
      }
      return res.status(415).json(errorBody(err));
    }
    next();
  };
  const json = express.json({ limit: bodyLimit, strict: false, type: () => true });

  const api = express.Router();
  api.use(authenticate, requireJson, json);
  api.use('/admin', adminRouter());
  api.use(notFound);
  app.use('/api', api);

  // GraphiQL (GET with an HTML Accept header and no query) is served without a token (D13); every operation needs one.
  const graphql = graphqlHandler(logger);
  const isGraphiQLPage = (req: Request) => req.method === 'GET' && req.query.query === undefined && (req.headers.accept ?? '').includes('text/html');
  app.use('/graphql',
    (req, res, next) => (isGraphiQLPage(req) ? graphql(req, res) : next()),
    authenticate, requireJson, json,
    (req: Request, res: Response) => graphql(req, res));

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
