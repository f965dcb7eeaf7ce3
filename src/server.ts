import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp } from './app';
import { answerClientErrors } from './client-error';
import type { Config } from './config';
import { ensureAdminTokens } from './domain/access/api-token.service';
import { createGeneratedCredentials, findUnshown, markShown, type GeneratedCredentials, type UnshownCredential } from './domain/access/generated-credentials';
import { ensureAdminUser } from './domain/access/user.service';
import { embeddedBackups } from './db/backup/take';
import { StartupError, type EmbeddedDatabase } from './db/embedded';
import { openDatabase } from './db/open-database';
import { DeliveryWorker } from './domain/addons/delivery-worker';
import { ChangeRequestScheduler } from './domain/change-requests/change-request-scheduler';
import { HistoryRetention } from './domain/history/history-retention';
import { EventHub } from './domain/events/event-hub';
import { listenForEvents, type EventListener } from './domain/events/event-listener';
import { DatabaseAvailability } from './domain/database-availability';
import { databaseAnswers, READY_TIMEOUT_MS } from './db/health';
import type { Logger } from './logger';

export interface Running {
  server: Server;
  orm: MikroORM;
  port: number;
  /** The admin token and user `admin` this start generated because none existed: shown once, then `markShown`. */
  generated: GeneratedCredentials;
  /** Credentials earlier starts generated but never showed, still unused: the start says how to recover them. */
  unshown: UnshownCredential[];
  /** The generated credentials were written to stdout: their unshown records go. */
  markShown(): Promise<void>;
  /**
   * Graceful stop (issue 8, defect 10): no new connections; requests in flight finish; live event streams end;
   * idle keep-alive connections close at once and the others as soon as their response is sent; whatever is still
   * open after `shutdownTimeoutMs` is cut. Then the database closes.
   */
  stop(): Promise<void>;
}

/**
 * config → database (embedded when no DATABASE_URL) → migrations and the configured admin token and password → HTTP
 * server → generated admin token and password: those are shown only once, so a start that fails on the port must not
 * make them (defect 8); the configured ones are known to whoever set them, so they work from the first request.
 */
export async function startServer(config: Config, logger: Logger, embeddedStarting?: Promise<EmbeddedDatabase>): Promise<Running> {
  const db = await openDatabase(config, {
    embeddedStarting,
    afterMigrations: async (orm) => {
      await ensureAdminTokens(orm.em, config.initAdminApiTokens);
      if (config.initAdminPassword !== undefined) await ensureAdminUser(orm.em, config.initAdminPassword);
    },
  });
  if (db.embedded) logger.info({ dataDir: config.dataDir, created: db.embedded.created }, 'embedded PostgreSQL (PGlite) started');
  const openedOrm = db.orm;
  // Committed events reach this instance's live stream and delivery worker: directly on the embedded database (one
  // process), through LISTEN/NOTIFY on PostgreSQL (any number of instances).
  const eventHub = new EventHub(db.embedded ? 'local' : 'notify');
  // What the instance knows of its database's reach (issue 42): shared by the SDK doors, readiness and the listener.
  const availability = new DatabaseAvailability(() => databaseAnswers(openedOrm, READY_TIMEOUT_MS));
  let listener: EventListener | undefined;
  if (!db.embedded) {
    listener = listenForEvents(openedOrm, db.url, eventHub, logger, availability);
    await listener.ready;
  }
  const app = buildApp({ orm: openedOrm, logger, playgroundCombinationLimit: config.playgroundCombinationLimit, graphqlMaxCost: config.graphqlMaxCost, publicUrl: config.publicUrl, eventHub, allowPrivateAddonUrls: config.addonDelivery.allowPrivateUrls, importBodyLimit: config.importBodyLimit,
    corsOrigins: config.corsOrigins, metricsFlushMs: config.metricsFlushMs, metricsRetentionHours: config.metricsRetentionHours, memorySoftLimitMb: config.memorySoftLimitMb, trustProxy: config.trustProxy,
    backups: db.embedded ? embeddedBackups(openedOrm, db.embedded) : undefined,
    availability, sdkStaleAfterMs: config.sdkStaleAfterMs, sdkTokenGraceSeconds: config.sdkTokenGraceSeconds });
  const closeAll = async () => {
    await app.close();
    eventHub.close();
    await listener?.stop();
    await db.close();
  };
  // Express 5 calls the listen callback with the server's error (a port in use) as well as on success.
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, (err?: Error) => (err ? reject(err) : resolve(s)));
  }).catch(async (err: NodeJS.ErrnoException) => {
    await closeAll();
    if (err.code === 'EADDRINUSE') throw new StartupError(`port ${config.port} is already in use by another program. Stop it, or start flagdeck on another port with PORT=<port>.`);
    if (err.code === 'EACCES') throw new StartupError(`this user may not listen on port ${config.port}. Use a port above 1023 with PORT=<port>.`);
    throw err;
  });
  answerClientErrors(server);
  const port = (server.address() as AddressInfo).port;
  let generated: GeneratedCredentials;
  let unshown: UnshownCredential[];
  try {
    // Earlier starts' records first: this start's own are shown next, or reported by main when that fails.
    unshown = await findUnshown(openedOrm.em);
    generated = await db.exclusive(() => createGeneratedCredentials(openedOrm.em));
  } catch (err) {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await closed;
    await closeAll();
    throw err;
  }
  // Addon deliveries: this instance's worker shares the outbox with every other instance's.
  const worker = new DeliveryWorker(openedOrm, { ...config.addonDelivery, publicUrl: config.publicUrl }, logger, eventHub).start();
  // Scheduled change requests: every instance looks for due ones; each is applied by one of them.
  const scheduler = new ChangeRequestScheduler(openedOrm, { pollMs: config.changeRequestPollMs }, logger).start();
  // Versions past HISTORY_RETENTION_DAYS go, hourly.
  const retention = new HistoryRetention(openedOrm, config.historyRetentionDays, logger).start();
  let stopping: Promise<void> | undefined;
  return {
    server, orm: openedOrm, port, generated, unshown,
    markShown: () => markShown(openedOrm.em, generated),
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Live event streams would hold their connections until the deadline: end them now (each client gets the
        // end of its stream, and the connection turns idle and closes below).
        eventHub.close();
        // No new deliveries are claimed; those being sent finish (within ADDON_TIMEOUT_MS) while requests drain. What
        // is still queued stays in the outbox for the next start or another instance.
        const workerStopped = Promise.all([worker.stop(), scheduler.stop(), retention.stop()]);
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
        await db.close();
      })();
      return stopping;
    },
  };
}
