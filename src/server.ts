import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp } from './app';
import { answerClientErrors } from './client-error';
import type { Config } from './config';
import { ensureAdminTokens } from './domain/access/api-token.service';
import { ensureAdminUser } from './domain/access/user.service';
import { startEmbeddedDatabase, StartupError, type EmbeddedDatabase } from './db/embedded';
import { openOrm } from './db/orm';
import { DeliveryWorker } from './domain/addons/delivery-worker';
import { ChangeRequestScheduler } from './domain/change-requests/change-request-scheduler';
import { EventHub } from './domain/events/event-hub';
import { listenForEvents, type EventListener } from './domain/events/event-listener';
import { withStartupLock } from './db/startup-lock';
import type { Logger } from './logger';

export interface Running {
  server: Server;
  orm: MikroORM;
  port: number;
  /** The admin token created because none existed, shown once. */
  createdAdminToken: string | null;
  /** The generated password of the `admin` user created because no user existed, shown once. */
  createdAdminPassword: string | null;
  /**
   * Graceful stop (issue 8, defect 10): no new connections; requests in flight finish; live event streams end;
   * idle keep-alive connections close at once and the others as soon as their response is sent; whatever is still
   * open after `shutdownTimeoutMs` is cut. Then the database closes.
   */
  stop(): Promise<void>;
}

/** Why the server at `url` could not be used, in words, for the errors of reaching it and logging in. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is PostgreSQL running there?)',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  '28P01': 'the password was refused',
  '28000': 'the server refused this user',
  '3D000': 'the database does not exist',
};

/**
 * A StartupError naming the server (host, port, database and user; never the password) when `err` is a failure to
 * reach or log in to it; undefined for anything else.
 */
export function unreachableDatabase(url: string, err: unknown): StartupError | undefined {
  const e = err as { code?: string; message?: string };
  const reason = (e?.code && UNREACHABLE[e.code]) ?? (/timeout expired|Connection terminated due to connection timeout/i.test(e?.message ?? '') ? 'the connection timed out' : undefined);
  if (!reason) return undefined;
  let where = 'the configured server';
  try {
    const u = new URL(url);
    where = `${u.hostname || 'localhost'}:${u.port || '5432'}/${decodeURIComponent(u.pathname.slice(1))}${u.username ? ` as user ${decodeURIComponent(u.username)}` : ''}`;
  } catch {
    // An unreadable URL is refused by the configuration check before this point.
  }
  return new StartupError(`cannot use PostgreSQL at ${where}: ${reason}. Check DATABASE_URL.`);
}

/** config → database (embedded when no DATABASE_URL) → migrations → admin tokens → HTTP server. */
export async function startServer(config: Config, logger: Logger, embeddedStarting?: Promise<EmbeddedDatabase>): Promise<Running> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await (embeddedStarting ?? startEmbeddedDatabase(config.dataDir));
    url = embedded.url;
    logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  const databaseUrl = url;
  let orm: MikroORM | undefined;
  let created: { token: string | null; password: string | null };
  try {
    const prepare = async () => {
      orm = await openOrm({ url: databaseUrl, poolMax: embedded ? 1 : config.dbPoolMax, holdConnection: embedded !== undefined });
      const token = (await ensureAdminTokens(orm.em, config.initAdminApiTokens)).created;
      const password = (await ensureAdminUser(orm.em, config.initAdminPassword)).createdPassword;
      return { token, password };
    };
    created = embedded ? await prepare() : await withStartupLock(databaseUrl, prepare);
  } catch (err) {
    await orm?.close(true);
    await embedded?.stop();
    const unreachable = embedded ? undefined : unreachableDatabase(databaseUrl, err);
    throw unreachable ?? err;
  }
  const openedOrm = orm!;
  // Committed events reach this instance's live stream and delivery worker: directly on the embedded database (one
  // process), through LISTEN/NOTIFY on PostgreSQL (any number of instances).
  const eventHub = new EventHub(embedded ? 'local' : 'notify');
  let listener: EventListener | undefined;
  if (!embedded) {
    listener = listenForEvents(openedOrm, databaseUrl, eventHub, logger);
    await listener.ready;
  }
  const app = buildApp({ orm: openedOrm, logger, playgroundCombinationLimit: config.playgroundCombinationLimit, graphqlMaxCost: config.graphqlMaxCost, publicUrl: config.publicUrl, eventHub, allowPrivateAddonUrls: config.addonDelivery.allowPrivateUrls, importBodyLimit: config.importBodyLimit,
    corsOrigins: config.corsOrigins, metricsFlushMs: config.metricsFlushMs, metricsRetentionHours: config.metricsRetentionHours, memorySoftLimitMb: config.memorySoftLimitMb, trustProxy: config.trustProxy });
  // Express 5 calls the listen callback with the server's error (a port in use) as well as on success.
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, (err?: Error) => (err ? reject(err) : resolve(s)));
  }).catch(async (err: NodeJS.ErrnoException) => {
    await app.close();
    eventHub.close();
    await listener?.stop();
    await openedOrm.close(true);
    await embedded?.stop();
    if (err.code === 'EADDRINUSE') throw new StartupError(`port ${config.port} is already in use by another program. Stop it, or start flagdeck on another port with PORT=<port>.`);
    if (err.code === 'EACCES') throw new StartupError(`this user may not listen on port ${config.port}. Use a port above 1023 with PORT=<port>.`);
    throw err;
  });
  answerClientErrors(server);
  const port = (server.address() as AddressInfo).port;
  // Addon deliveries: this instance's worker shares the outbox with every other instance's.
  const worker = new DeliveryWorker(openedOrm, { ...config.addonDelivery, publicUrl: config.publicUrl }, logger, eventHub).start();
  // Scheduled change requests: every instance looks for due ones; each is applied by one of them.
  const scheduler = new ChangeRequestScheduler(openedOrm, { pollMs: config.changeRequestPollMs }, logger).start();
  let stopping: Promise<void> | undefined;
  return {
    server, orm: openedOrm, port, createdAdminToken: created.token, createdAdminPassword: created.password,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Live event streams would hold their connections until the deadline: end them now (each client gets the
        // end of its stream, and the connection turns idle and closes below).
        eventHub.close();
        // No new deliveries are claimed; those being sent finish (within ADDON_TIMEOUT_MS) while requests drain. What
        // is still queued stays in the outbox for the next start or another instance.
        const workerStopped = Promise.all([worker.stop(), scheduler.stop()]);
        // Connections that finish their response while we wait become idle: close those as they appear.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const deadline = setTimeout(() => {
          logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown deadline reached: closing the connections still open');
          server.closeAllConnections();
        }, config.shutdownTimeoutMs);
        server.closeIdleConnections();
        await closed;
        clearInterval(sweep);
        clearTimeout(deadline);
        await workerStopped;
        // Buffered SDK metrics are written before the database closes.
        await app.close();
        await listener?.stop();
        await openedOrm.close(true);
        await embedded?.stop();
      })();
      return stopping;
    },
  };
}
