import express, { type NextFunction, type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { TokenResolver } from './domain/access/api-token.service';
import { AuthenticationRequired, ContentTypeerror, type DomainError } from './domain/errors';
import { SnapshotCache } from './domain/playground/snapshot-cache';
import { createServices } from './domain/services';
import type { Logger } from './logger';
import { graphqlHandler } from './resolvers/graphql.handler';
import { errorHandler, notFound, sendError, sendGraphQLError } from './rest/errors';
import { adminRouter } from './rest';
import { hasBody, jsonBody, urlGuard } from './request-guard';

export interface AppDeps {
  orm: MikroORM;
  logger: Logger;
  /** Body limit of JSON requests (spec: 100 kB). */
  bodyLimit?: string;
  /** Most environment × feature × context combinations one advanced playground request may evaluate (D9). */
  playgroundCombinationLimit?: number;
}

/** Errors of the door answer in the shape of the door: GraphQL's `{errors}` on /graphql, the REST body elsewhere. */
const refuse = (req: Request, res: Response, err: DomainError) => (req.baseUrl === '/graphql' ? sendGraphQLError(res, err) : sendError(res, err));

/**
 * buildApp: auth (401), the door (src/request-guard.ts: URL text, content type 415, body limit 413, JSON text and
 * nesting 400), request scope, /api/admin, /graphql. Authentication comes before the URL is checked and the body is
 * read, so an anonymous caller cannot make the server parse anything; everything the door refuses, it refuses before
 * routing, so no route or service sees it.
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
    if (!principal) return refuse(req, res, new AuthenticationRequired());
    (req as Request & { scope?: unknown }).scope = { services: createServices(orm.em.fork(), principal, { playgroundCombinationLimit, playgroundCache }) };
    next();
  };
  const requireJson = (req: Request, res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is(['application/json', 'application/*+json'])) return refuse(req, res, new ContentTypeerror(req.headers['content-type']));
    next();
  };
  const body = jsonBody(bodyLimit);

  const api = express.Router();
  api.use(authenticate, urlGuard(), requireJson, ...body);
  api.use('/admin', adminRouter());
  api.use(notFound);
  app.use('/api', api);

  // GraphiQL (GET with an HTML Accept header and no query) is served without a token (D13); every operation needs one.
  const graphql = graphqlHandler(logger);
  const isGraphiQLPage = (req: Request) => req.method === 'GET' && req.query.query === undefined && (req.headers.accept ?? '').includes('text/html');
  app.use('/graphql',
    (req: Request, res: Response, next: NextFunction) => (isGraphiQLPage(req) ? graphql(req, res) : next()),
    authenticate, urlGuard({ jsonParameters: ['variables', 'extensions'] }), requireJson, ...body,
    (req: Request, res: Response) => graphql(req, res),
    errorHandler(logger, 'graphql'));

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
