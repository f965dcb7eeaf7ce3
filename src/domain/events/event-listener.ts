import { Client } from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { DatabaseAvailability } from '../database-availability';
import type { Logger } from '../logger';
import { EVENT_CHANNEL, MODEL_VERSION_CHANNEL, type EventHub } from './event-hub';

/** How long opening the listening connection may take before it is tried again. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface EventListener {
  /** Resolves once LISTEN is in place (the first connection). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * PostgreSQL mode of the event hub: one dedicated connection per instance LISTENs on the event channel and hands
 * every committed transaction's events to the hub. A lost connection is opened again after a second; what was
 * announced meanwhile is not replayed to the live stream (the delivery worker does not depend on it: it also polls).
 *
 * The same connection LISTENs on the model-version channel: the hub's `modelVersion` signal is watched from the moment
 * both LISTENs are in place until the connection is lost or the listener stops, and moves on each notification.
 */
export function listenForEvents(orm: MikroORM, url: string, hub: EventHub, logger: Logger, availability?: DatabaseAvailability): EventListener {
  let client: Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  // Notifications are handled one at a time, in the order they arrive (commit order).
  let chain = Promise.resolve();
  let failures = 0;
  let readyResolve!: () => void;
  const ready = new Promise<void>((resolve) => { readyResolve = resolve; });

  const connect = async () => {
    // A connection that cannot be made in time is retried; keep-alive lets the kernel find a peer gone quiet.
    const c = new Client({ connectionString: url, application_name: 'flagdeck-events', connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    c.on('notification', (n) => {
      if (n.channel === MODEL_VERSION_CHANNEL) {
        hub.modelVersion.moved();
        return;
      }
      if (n.channel !== EVENT_CHANNEL || !n.payload) return;
      const payload = n.payload;
      chain = chain.then(() => hub.received(orm.em.fork(), payload)).catch((err) => logger.warn({ err }, 'could not read announced events'));
    });
    const lost = () => {
      void c.end().catch(() => {});
      if (client === c) {
        client = undefined;
        hub.modelVersion.setWatching(false);
      }
      schedule();
    };
    c.on('error', (err) => {
      if (client === c) logger.warn({ err }, 'event listener connection lost; reconnecting');
      lost();
    });
    // Closed without an error (the server ended the session): the same, unless this listener is stopping.
    c.on('end', () => { if (client === c) lost(); });
    try {
      await c.connect();
      await c.query(`listen ${EVENT_CHANNEL}`);
      await c.query(`listen ${MODEL_VERSION_CHANNEL}`);
      if (stopped) { await c.end(); return; }
      client = c;
      failures = 0;
      hub.modelVersion.setWatching(true);
      readyResolve();
    } catch (err) {
      // Once per outage: then every second until the database is back.
      if (failures++ === 0) logger.warn({ err }, 'event listener could not connect; retrying every second');
      void c.end().catch(() => {});
      schedule();
    }
  };
  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => { retry = undefined; void connect(); }, 1000);
    retry.unref();
  };
  // A database found away elsewhere (a statement that failed or stalled) may have left this connection hanging on a cut
  // network, where nothing would tell it: it is dropped, so the signal stops being trusted and a new one is made.
  const stopWatchingReach = availability?.onChange((reachable) => {
    if (reachable || !client) return;
    const c = client;
    (c as unknown as { connection?: { stream?: { destroy(err?: Error): void } } }).connection?.stream?.destroy(new Error('the database was found unreachable'));
  });
  void connect();
  return {
    ready,
    async stop() {
      stopped = true;
      stopWatchingReach?.();
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      hub.modelVersion.setWatching(false);
      await c?.end().catch(() => {});
      await chain;
    },
  };
}
