import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp } from '../../src/app';
import { answerClientErrors } from '../../src/client-error';
import { ensureAdminTokens } from '../../src/domain/access/api-token.service';
import { CREDENTIAL_LOOKUP } from '../../src/domain/access/authenticator';
import { DEFAULT_DELIVERY_OPTIONS, type DeliveryOptions } from '../../src/domain/addons/delivery-options';
import { DeliveryWorker } from '../../src/domain/addons/delivery-worker';
import { ChangeRequestScheduler } from '../../src/domain/change-requests/change-request-scheduler';
import { EventHub, type StreamLimits } from '../../src/domain/events/event-hub';
import { listenForEvents, type EventListener } from '../../src/domain/events/event-listener';
import type { TrustProxy } from '../../src/config';
import { openOrm } from '../../src/db/orm';
import { seedStatements } from '../../src/db/seed';
import { createLogger, type Logger } from '../../src/logger';
import { checkResponse } from './openapi-check';

export const ADMIN_TOKEN = '*:*.test-admin-token-0123456789';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string | null;
  headers?: Record<string, string>;
  /** Sent as is instead of JSON-encoding `body`. */
  raw?: string;
}

export interface TestApp {
  url: string;
  orm: MikroORM;
  /** Where this instance's committed events are announced (the live stream listens to it). */
  eventHub: EventHub;
  /** SQL statements run since the last `resetQueryCount()`, credential lookups left out (they are cached per instance). */
  queries: string[];
  resetQueryCount(): void;
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<Reply<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  del<T = any>(path: string, options?: RequestOptions): Promise<Reply<T>>;
  /** Runs a typed GraphQL document; returns the HTTP status and `{data, errors}`. */
  gql<R, V>(doc: TypedDocumentNode<R, V>, variables?: V, options?: RequestOptions): Promise<Reply<{ data?: R | null; errors?: Array<{ message: string; extensions: Record<string, any> }> }>>;
  /** Newest audit events (REST shape), optionally of one type. */
  events(type?: string): Promise<any[]>;
  close(): Promise<void>;
}

/** Truncates every table and re-seeds the fresh-database defaults: each test file starts from D12. */
export async function resetDatabase(orm: MikroORM): Promise<void> {
  const em = orm.em.fork();
  const tables: Array<{ tablename: string }> = await em.execute(
    `select tablename from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations'`);
  await em.execute(`truncate table ${tables.map((t) => `"${t.tablename}"`).join(', ')} restart identity cascade`);
  for (const statement of seedStatements()) await em.execute(statement);
}

export interface TestAppOptions {
  logger?: Logger;
  credentialTtlMs?: number;
  /**
   * How committed events reach this instance's hub: `local` (the default; the process hands them over itself, as on
   * the embedded database) or `notify` (PostgreSQL's LISTEN/NOTIFY, as src/server.ts does on PostgreSQL: needs a real
   * PostgreSQL server).
   */
  events?: 'local' | 'notify';
  /** Limits of the live event streams (default: the service's). */
  streamLimits?: StreamLimits;
  /** Reset the database to fresh defaults (default true); false for a second instance on the same database. */
  reset?: boolean;
  /** Addon URLs may point at loopback and private addresses (default true: receivers run on 127.0.0.1). */
  allowPrivateAddonUrls?: boolean;
  /**
   * Run an addon delivery worker with these options (over the defaults, private addresses allowed). Without it,
   * deliveries are queued but nobody sends them.
   */
  deliveries?: Partial<DeliveryOptions>;
  /** Run a change-request scheduler polling every `pollMs` (without it, nothing applies Scheduled requests by itself). */
  scheduler?: { pollMs: number };
  /** Body limit of the batch import paths (IMPORT_BODY_LIMIT; default 500kb). */
  importBodyLimit?: string;
  /** CORS_ORIGINS of the frontend API (default none). */
  corsOrigins?: string[];
  /** CLIENT_METRICS_FLUSH_MS (default 5000) and CLIENT_METRICS_RETENTION_HOURS (default 720). */
  metricsFlushMs?: number;
  metricsRetentionHours?: number;
  /**
   * GraphQL compiled execution: off (false), or on, compiled after `compileAfter` executions of a text (absent: the
   * app's default). Without this option, GRAPHQL_COMPILE_AFTER from the environment when set, so
   * `GRAPHQL_COMPILE_AFTER=0 npx jest` runs every query compiled.
   */
  graphqlCompiled?: false | { compileAfter?: number };
  /** GraphQL's response cache (default on); off where a test counts how operations execute. */
  graphqlResponseCache?: boolean;
  /** TRUST_PROXY (default false: X-Forwarded-* ignored). */
  trustProxy?: TrustProxy;
  /** The database to use instead of the suite's (the same database through a proxy: test/support/db-proxy.ts). */
  databaseUrl?: string;
}

/** Starts the real app (buildApp) on an ephemeral port against the suite's database, reset to fresh defaults. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const url = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the e2e tests through jest (global setup)');
  const queries: string[] = [];
  const orm = await openOrm({ url, poolMax: Number(process.env.TEST_DB_POOL_MAX ?? 1), onQuery: (sql) => {
    // A request's statements, without the credential lookup: that runs once per credential per cache period, so
    // whether a given request pays it depends on timing (src/domain/access/authenticator.ts).
    if (!sql.startsWith(CREDENTIAL_LOOKUP)) queries.push(sql);
  } });
  if (options.reset ?? true) await resetDatabase(orm);
  await ensureAdminTokens(orm.em, [ADMIN_TOKEN]);
  const logger = options.logger ?? createLogger('silent');
  const eventHub = new EventHub(options.events ?? 'local', options.streamLimits);
  let listener: EventListener | undefined;
  if (eventHub.mode === 'notify') {
    listener = listenForEvents(orm, url, eventHub, logger);
    await listener.ready;
  }
  const allowPrivateAddonUrls = options.allowPrivateAddonUrls ?? true;
  const app = buildApp({ orm, logger, credentialTtlMs: options.credentialTtlMs, eventHub, allowPrivateAddonUrls, importBodyLimit: options.importBodyLimit,
    corsOrigins: options.corsOrigins, metricsFlushMs: options.metricsFlushMs, metricsRetentionHours: options.metricsRetentionHours,
    graphqlCompiled: options.graphqlCompiled !== false,
    graphqlResponseCache: options.graphqlResponseCache ?? true,
    // The jest worker's RSS is the suite's, not this app's: no collections for it (test/unit/idle-gc.test.ts covers them).
    memorySoftLimitMb: 0,
    trustProxy: options.trustProxy,
    graphqlCompileAfter: options.graphqlCompiled !== undefined ? (options.graphqlCompiled || undefined)?.compileAfter
      : process.env.GRAPHQL_COMPILE_AFTER ? Number(process.env.GRAPHQL_COMPILE_AFTER) : undefined });
  const worker = options.deliveries
    ? new DeliveryWorker(orm, { ...DEFAULT_DELIVERY_OPTIONS, allowPrivateUrls: allowPrivateAddonUrls, ...options.deliveries, publicUrl: 'http://localhost:4242' }, logger, eventHub).start()
    : undefined;
  const scheduler = options.scheduler ? new ChangeRequestScheduler(orm, options.scheduler, logger).start() : undefined;
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  answerClientErrors(server); // as src/server.ts does
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const token = options.token === undefined ? ADMIN_TOKEN : options.token;
    if (token !== null) headers.authorization = token;
    let payload: string | undefined = options.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, { method, headers, body: payload });
    const text = await res.text();
    checkResponse(method, path, res.status, res.headers.get('content-type'), text);
    let parsed: unknown = text;
    if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  const t: TestApp = {
    url: base,
    orm,
    eventHub,
    queries,
    resetQueryCount: () => { queries.length = 0; },
    request,
    get: (path, o) => request('GET', path, undefined, o),
    post: (path, body, o) => request('POST', path, body, o),
    put: (path, body, o) => request('PUT', path, body, o),
    del: (path, o) => request('DELETE', path, undefined, o),
    gql: (doc, variables, o) => request('POST', '/graphql', { query: print(doc as never), variables }, o),
    async events(type) {
      const res = await request<{ events: any[] }>('GET', `/api/admin/events?limit=1000${type ? `&type=${encodeURIComponent(type)}` : ''}`);
      return res.body.events;
    },
    async close() {
      eventHub.close(); // ends open live streams, as src/server.ts does when it stops
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await worker?.stop();
      await scheduler?.stop();
      await app.close(); // buffered SDK metrics are written, as src/server.ts does
      await listener?.stop();
      await orm.close(true);
    },
  };
  return t;
}
