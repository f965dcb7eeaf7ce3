import type { IncomingMessage, ServerResponse } from 'node:http';
import { MIMEType } from 'node:util';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from './config';
import { refuseNonAdminToken } from './domain/access/api-token.service';
import { Authenticator, SESSION_COOKIE } from './domain/access/authenticator';
import { credentialProblem, credentialRefusal } from './domain/access/credential-refusal';
import { ContentTypeerror, DATABASE_RETRY_AFTER_SECONDS, ForbiddenError, type DomainError } from './domain/errors';
import { DatabaseAvailability } from './domain/database-availability';
import { databaseAnswers, READY_TIMEOUT_MS } from './db/health';
import { DEFAULT_STALE_AFTER_MS, type LastKnownPolicy } from './domain/last-known';
import { attachEventHub, EventHub } from './domain/events/event-hub';
import { SnapshotCache } from './domain/playground/snapshot-cache';
import { VersionReader } from './domain/client-features/version-reader';
import { readModelVersion } from './domain/model-version.read-model';
import { FeatureOverviewCache } from './domain/projects/feature-overview';
import type { BackupSource } from './domain/backup/backup.service';
import { createServices } from './domain/services';
import type { Logger } from './logger';
import { graphiqlRouter } from './graphiql/graphiql';
import { observability, PROMETHEUS_PATH } from './observability';
import { graphqlHandler } from './resolvers/graphql.handler';
import { errorHandler, notFound, sendError, sendGraphQLError } from './rest/errors';
import { uiRouter } from './ui/ui.routes';
import { docsRouter } from './rest/openapi/docs.routes';
import { SERVICE_PACKAGE, SERVICE_VERSION } from './version';
import { adminRouter } from './rest';
import { authRouter, readCookie } from './rest/auth.routes';
import { inviteRouter } from './rest/invite.routes';
import { samlRouter } from './rest/saml.routes';
import { hasBody, jsonBody, urlGuard } from './request-guard';
import { ClientFeaturesDoor } from './rest/sdk/client-features.routes';
import { clientMetricsFastPath, clientPollFastPath, limitInBytes, type FastPath } from './rest/sdk/fast-paths';
import { clientMetricsRouters } from './rest/sdk/client-metrics.routes';
import { frontendRouter } from './rest/sdk/frontend.routes';
import { OfrepEvents } from './rest/sdk/ofrep-events';
import { apiKeyAsAuthorization, OFREP_DOOR } from './rest/sdk/ofrep-door';
import { ofrepErrors, ofrepRouter } from './rest/sdk/ofrep.routes';
import { cors } from './rest/cors';
import { idleCollector, MEMORY_SOFT_LIMIT_MB } from './idle-gc';
import { CLIENT_DOOR, FRONTEND_DOOR, sdkRefusal, type SdkDeps, type SdkDoorRule } from './rest/sdk/sdk-deps';

type Handle = (req: IncomingMessage, res: ServerResponse, callback?: (err?: unknown) => void) => void;

export interface AppDeps {
  orm: MikroORM;
  logger: Logger;
  /** Body limit of JSON requests (spec: 100 kB). */
  bodyLimit?: string;
  /** Most environment × feature × context combinations one advanced playground request may evaluate (D9). */
  playgroundCombinationLimit?: number;
  /** Cost budget of one GraphQL request (src/resolvers/cost.ts). */
  graphqlMaxCost?: number;
  /** Hot GraphQL queries run compiled (src/resolvers/compiled-execution.ts); default true, false for the standard executor only. */
  graphqlCompiled?: boolean;
  /** Executions of a GraphQL text on the standard executor before it is compiled (default 1; 0 compiles at once). */
  graphqlCompileAfter?: number;
  /** Repeated GraphQL reads answered from memory while what they show stands still (src/resolvers/response-cache.ts); default true. */
  graphqlResponseCache?: boolean;
  /** How long a resolved credential is trusted before it is looked up again (default 1 s: the revocation delay). */
  credentialTtlMs?: number;
  /** The address people reach the service at, for the links it hands out (config.publicUrl). */
  publicUrl?: string;
  /**
   * Where committed events are announced (src/domain/events/event-hub.ts): given by startServer (notify mode on
   * PostgreSQL); by default a local hub for this process.
   */
  eventHub?: EventHub;
  /** ADDON_ALLOW_PRIVATE_URLS: addon URLs may point at loopback and private addresses (tests). */
  allowPrivateAddonUrls?: boolean;
  /** Body limit of `/api/admin/features-batch/*` (IMPORT_BODY_LIMIT; 500 kB as Unleash). */
  importBodyLimit?: string;
  /** CORS_ORIGINS: origins browsers may call the service from (src/rest/cors.ts). */
  corsOrigins?: readonly string[];
  /** CLIENT_METRICS_FLUSH_MS and CLIENT_METRICS_RETENTION_HOURS. */
  metricsFlushMs?: number;
  metricsRetentionHours?: number;
  /** MEMORY_SOFT_LIMIT_MB: RSS above which requests trigger a full garbage collection now and then (0: never; src/idle-gc.ts). */
  memorySoftLimitMb?: number;
  /** TRUST_PROXY: Express's `trust proxy` (config.ts); default false, X-Forwarded-* ignored. */
  trustProxy?: TrustProxy;
  /** Backups of the database (GET /api/admin/backup): the embedded database's, given by startServer. */
  backups?: BackupSource;
  /**
   * What the app knows of its database's reach (src/domain/database-availability.ts): given by startServer, which shares it with the
   * event listener; by default one of the app's own.
   */
  availability?: DatabaseAvailability;
  /** SDK_STALE_AFTER_MS and SDK_TOKEN_GRACE_SECONDS (src/domain/last-known.ts). */
  sdkStaleAfterMs?: number;
  sdkTokenGraceSeconds?: number;
}

/** The app, and what must be finished before its database closes (buffered SDK metrics are written). */
export type App = ReturnType<typeof express> & { close(): Promise<void> };

/** Methods that change nothing; every other method is a write. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a Content-Type header names JSON (`application/json`, `application/<x>+json`), whatever the body. */
function declaresJson(header: string | undefined): boolean {
  if (header === undefined) return false;
  try {
    const { type, subtype } = new MIMEType(header);
    return type === 'application' && (subtype === 'json' || subtype.endsWith('+json'));
  } catch {
    return false;
  }
}

/**
 * The session cookie's guard against cross-site request forgery: a write it authenticates must declare JSON. A page on
 * another port of this site (SameSite=Lax lets it) can make a browser send the cookie only with what a form sends; JSON
 * needs a CORS preflight, never granted with credentials. The content type rather than Origin or Sec-Fetch-Site: those
 * are missing from older browsers and scripts. ForbiddenError, not NoAccessError: no permission is missing.
 */
function cookieWriteRefusal(req: Request): ForbiddenError | undefined {
  if (SAFE_METHODS.has(req.method) || declaresJson(req.headers['content-type'])) return undefined;
  return new ForbiddenError('A change made with the session cookie must be sent with `Content-Type: application/json` (also when it has no body), which a page on another site cannot send. Send that header, or authenticate with an API token or personal access token in the Authorization header.');
}

/** Errors of the door answer in the shape of the door: GraphQL's `{errors}` on /graphql, the REST body elsewhere. */
const refuse = (req: Request, res: Response, err: DomainError) => (req.baseUrl === '/graphql' ? sendGraphQLError(res, err) : sendError(res, err));

/**
 * buildApp: auth (401), the door (src/request-guard.ts: URL text, content type 415, body limit 413, JSON text and
 * nesting 400), request scope, /api/admin, /graphql. Authentication comes before the URL is checked and the body is
 * read, so an anonymous caller cannot make the server parse anything; everything the door refuses, it refuses before
 * routing, so no route or service sees it.
 */
export function buildApp({ orm, logger, bodyLimit = '100kb', playgroundCombinationLimit, graphqlMaxCost, graphqlCompiled = true, graphqlCompileAfter, graphqlResponseCache = true, credentialTtlMs, publicUrl = 'http://localhost:4242', eventHub = new EventHub('local'), allowPrivateAddonUrls = false, importBodyLimit = '500kb', corsOrigins = [], metricsFlushMs = 5_000, metricsRetentionHours = 720, memorySoftLimitMb = MEMORY_SOFT_LIMIT_MB, trustProxy = false, backups,
  availability = new DatabaseAvailability(() => databaseAnswers(orm, READY_TIMEOUT_MS)), sdkStaleAfterMs = DEFAULT_STALE_AFTER_MS, sdkTokenGraceSeconds = 3_600 }: AppDeps): App {
  attachEventHub(orm.em, eventHub);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Behind a TLS proxy (TRUST_PROXY): req.ip and req.secure read X-Forwarded-For and X-Forwarded-Proto from the trusted
  // proxies only; without it the headers are ignored. What sees requests before Express (the request log, the SDK
  // metrics fast path) reads the client address with the same compiled trust function, so both agree with req.ip.
  app.set('trust proxy', trustProxy);
  const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const clientAddress = (req: IncomingMessage): string => proxyaddr(req, trust);
  // A full garbage collection once requests stop for a while, and now and then while busy above the soft memory limit
  // (src/idle-gc.ts): the heap returns to its live size.
  // What an idle service lets go of before that collection: the answer caches, filled in below.
  const idleTrims: Array<() => void> = [];
  const idle = idleCollector({ softLimitBytes: memorySoftLimitMb * 2 ** 20, onIdle: () => { for (const trim of idleTrims) trim(); } });
  // The start counts as a request: what it left (module initialisation, the schema, migrations) is collected once an
  // idle service was quiet for the idle time, not kept until a first request and the quiet after it.
  idle.touch();
  app.use((_req, _res, next) => { idle.touch(); next(); });
  app.use(cors(corsOrigins));
  // Through a database outage (issue 42) the SDK doors answer from their last state (src/domain/last-known.ts), and
  // API tokens checked within the grace keep working, so SDKs are served.
  const lastKnown: LastKnownPolicy = { availability, staleAfterMs: sdkStaleAfterMs, onStale: (door) => obs.metrics.staleAnswer(door) };
  const credentials = new Authenticator(orm.em, credentialTtlMs, undefined,
    sdkTokenGraceSeconds > 0 ? { graceMs: sdkTokenGraceSeconds * 1000, policy: lastKnown } : undefined);
  const onCredentialsRevoked = () => credentials.invalidate();
  const playgroundCache = new SnapshotCache();
  const overviewCache = new FeatureOverviewCache();
  // The frontend API's snapshots are what it answers from while the database is away: kept then.
  idleTrims.push(() => { if (availability.reachable) playgroundCache.clear(); }, () => overviewCache.clear());
  // Request log lines and Prometheus metrics (src/observability): every request is observed as it enters (see the end).
  const obs = observability(app, orm, logger, eventHub, clientAddress, availability);
  const stopLoggingReach = availability.onChange((reachable) => {
    if (reachable) logger.info('the database is reachable again');
    else logger.warn({ since: availability.unreachableSince }, 'the database is not reachable: SDKs are served from the last known state, other requests get 503 ServiceUnavailableError');
  });
  const serviceOptions = { playgroundCombinationLimit, playgroundCache, overviewCache, onCredentialsRevoked, publicUrl, eventHub, allowPrivateAddonUrls, onPlaygroundEvaluation: obs.playgroundEvaluated, backups, servicePackage: SERVICE_PACKAGE };

  // /health (as before) and /health/ready ask the database; /health/live only says the process answers, so an
  // orchestrator waits for a database that is away instead of restarting a process that only needs to wait.
  const ready: express.RequestHandler = async (_req, res) => {
    if (await availability.check()) res.json({ health: 'GOOD' });
    else res.status(503).set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).json({ health: 'BAD' });
  };
  app.get('/health', ready);
  app.get('/health/ready', ready);
  app.get('/health/live', (_req, res) => { res.json({ health: 'GOOD' }); });

  // Prometheus metrics without credentials, as Unleash serves them: nothing in them names a flag, a user or a token.
  app.get(PROMETHEUS_PATH, obs.prometheus);

  // The Authorization header (an API token or a personal access token) wins over the session cookie; client and
  // frontend tokens are valid credentials but never open the admin API (403). A write authenticated by the cookie must
  // declare JSON (cookieWriteRefusal, 403), checked once the session is known, so an anonymous caller still gets 401.
  const authenticate = async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    const byCookie = header === undefined;
    const sessionId = byCookie ? readCookie(req, SESSION_COOKIE) : undefined;
    const principal = byCookie ? await credentials.fromSession(sessionId) : await credentials.fromHeader(header);
    if (!principal) return refuse(req, res, credentialRefusal(credentialProblem(header, sessionId), 'admin'));
    const forged = byCookie ? cookieWriteRefusal(req) : undefined;
    if (forged) return refuse(req, res, forged);
    const refused = refuseNonAdminToken(principal);
    if (refused) return refuse(req, res, refused);
    (req as Request & { scope?: unknown }).scope = { services: createServices(orm.em.fork(), principal, serviceOptions) };
    next();
  };
  const requireJson = (req: Request, res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is(['application/json', 'application/*+json'])) return refuse(req, res, new ContentTypeerror(req.headers['content-type']));
    next();
  };
  const body = jsonBody(bodyLimit);
  // The batch import, its validation and the export take larger bodies (Unleash: 500 kB), every other path the default.
  const importBody = jsonBody(importBodyLimit);
  const bodyFor = (req: Request) => (req.path.startsWith('/admin/features-batch/') ? importBody : body);
  const apiBody = body.map((_, i) => (req: Request, res: Response, next: NextFunction) => bodyFor(req)[i](req, res, next));

  // The SDK doors (issue 14): backend SDKs on /api/client with client tokens, browser and mobile SDKs on /api/frontend
  // with frontend tokens; admin tokens open both. Any other credential is a 403 there (a frontend token on the client
  // API, a client token on the frontend API), and SDK tokens stay refused on the admin API.
  // One reader of `model_version` for the caches keyed by it (the client API's answers, GraphQL's response cache).
  const modelVersions = new VersionReader(() => readModelVersion(orm.em.fork()), eventHub.modelVersion);
  const sdk: SdkDeps = {
    orm, logger, eventHub, playgroundCache, modelVersions, metricsFlushMs, metricsRetentionHours, lastKnown,
    servicesFor: (principal) => createServices(orm.em.fork(), principal, serviceOptions),
  };
  const sdkDoor = (door: SdkDoorRule) => async (req: Request, res: Response, next: NextFunction) => {
    const principal = await credentials.fromHeader(req.headers.authorization);
    if (!principal) return refuse(req, res, credentialRefusal(credentialProblem(req.headers.authorization, undefined), door.credentialDoor));
    const refused = sdkRefusal(principal, door);
    if (refused) return refuse(req, res, refused);
    // Built on first use: metrics intake, the hottest SDK path, never needs them (an EntityManager fork and the services cost ~25 µs).
    let built: ReturnType<typeof createServices> | undefined;
    (req as Request & { scope?: unknown }).scope = { principal, get services() { return (built ??= createServices(orm.em.fork(), principal, serviceOptions)); } };
    next();
  };
  const metrics = clientMetricsRouters(sdk);
  const clientFeatures = new ClientFeaturesDoor(sdk);
  idleTrims.push(() => clientFeatures.forgetAnswers());
  const clientApi = express.Router();
  clientApi.use(sdkDoor(CLIENT_DOOR), urlGuard(), requireJson, ...body);
  clientApi.use(clientFeatures.router(), metrics.client);
  clientApi.use(notFound);
  app.use('/api/client', clientApi);
  const frontendApi = express.Router();
  frontendApi.use(sdkDoor(FRONTEND_DOOR), urlGuard(), requireJson, ...body);
  frontendApi.use(frontendRouter(sdk), metrics.frontend);
  frontendApi.use(notFound);
  app.use('/api/frontend', frontendApi);
  // OpenFeature's remote evaluation protocol (issue 45): frontend and client tokens (and admin ones), each reading what
  // the frontend API would, as `Authorization` (with or without `Bearer `) or OFREP's `X-API-Key`. Its change stream
  // takes a ticket from a bulk answer instead of a token (src/rest/sdk/ofrep-events.ts), so it comes before the door.
  const ofrepEvents = new OfrepEvents(modelVersions, logger);
  const ofrepApi = express.Router();
  ofrepApi.use(urlGuard(), ofrepEvents.router());
  ofrepApi.use(apiKeyAsAuthorization, sdkDoor(OFREP_DOOR), requireJson, ...body);
  ofrepApi.use(ofrepRouter(sdk, metrics.record, ofrepEvents), ofrepErrors(sdk));
  ofrepApi.use(notFound);
  app.use('/ofrep/v1', ofrepApi);

  const api = express.Router();
  api.use(authenticate, urlGuard(), requireJson, ...apiBody);
  api.use('/admin', adminRouter());
  api.use(notFound);
  app.use('/api', api);

  // Login and logout need no credentials. The SAML routes come first: the IdP posts a form to the assertion consumer
  // service, which reads it through its own form door (src/request-guard.ts formBody: the same text rules, 415 for
  // anything but a form); everything else under /auth reads JSON like the API does.
  const auth = express.Router();
  auth.use(urlGuard());
  auth.use(samlRouter(orm.em, publicUrl, logger, onCredentialsRevoked));
  auth.use(requireJson, ...body);
  auth.use(authRouter(orm.em, onCredentialsRevoked));
  auth.use(notFound);
  app.use('/auth', auth);

  // The web UI (src/ui/ui.routes.ts): its files, and its page for every path a browser asks for that no door owns
  // (including /invite/<secret>, the signup page of an invite link, before the invite door below).
  app.use(uiRouter(logger));

  // Invite links (public signup tokens): validated and used without credentials, as in Unleash.
  const invite = express.Router();
  invite.use(urlGuard(), requireJson, ...body);
  invite.use(inviteRouter(orm.em, publicUrl));
  invite.use(notFound);
  app.use('/invite', invite);

  // The GraphiQL page and its files are served without a token (D13, src/graphiql/graphiql.ts); every operation needs one.
  const graphql = graphqlHandler(logger, { maxCost: graphqlMaxCost }, {
    compiled: graphqlCompiled, compileAfter: graphqlCompileAfter, onExecuted: (path) => obs.metrics.graphqlExecuted(path),
    onRefusedForOutage: () => obs.metrics.refusedForOutage('graphql'),
    responseCache: graphqlResponseCache ? { versions: modelVersions } : undefined,
  });
  idleTrims.push(() => graphql.cache?.clear());
  app.use(graphiqlRouter(logger));
  app.use('/graphql',
    authenticate, urlGuard({ jsonParameters: ['variables', 'extensions'] }), requireJson, ...body,
    (req: Request, res: Response) => graphql(req, res),
    errorHandler(logger, 'graphql'));

  // The REST reference (OpenAPI 3.1 and its page), readable without credentials like Unleash's /docs/openapi.
  app.use('/docs', docsRouter(SERVICE_VERSION));

  app.use(notFound);
  app.use(errorHandler(logger));

  // The SDKs' poll and metrics reports are answered before Express when they can be (src/rest/sdk/fast-paths.ts);
  // Express takes the rest. Express's app function calls `app.handle` for each request, so this is where one enters.
  const fastPaths: FastPath[] = [
    clientPollFastPath(credentials, clientFeatures),
    clientMetricsFastPath(credentials, metrics.report, limitInBytes(bodyLimit), logger, clientAddress),
  ];
  const expressHandle = (app as unknown as { handle: Handle }).handle.bind(app);
  (app as unknown as { handle: Handle }).handle = (req, res, callback) => {
    obs.observe(req, res);
    const toExpress = () => expressHandle(req, res, callback);
    for (const fast of fastPaths) if (fast(req, res, toExpress)) return;
    toExpress();
  };
  return Object.assign(app, { close: () => { idle.stop(); obs.close(); stopLoggingReach(); availability.stop(); ofrepEvents.close(); return metrics.close(); } });
}
