import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { DatabaseAvailability } from '../domain/database-availability';
import type { EventHub } from '../domain/events/event-hub';
import type { Logger } from '../logger';
import { AppMetrics, type PlaygroundKind, type PoolCounts } from './metrics';
import { requestObserver } from './requests';
import { routeTable, type RouteTable } from './routes';

/** Where Unleash serves its Prometheus metrics; so do we. */
export const PROMETHEUS_PATH = '/internal-backstage/prometheus';

export interface Observability {
  /** Call as each request enters (before the SDK fast paths): its log line and its duration when it ends. */
  observe(req: IncomingMessage, res: ServerResponse): void;
  /** GET PROMETHEUS_PATH: the metrics in Prometheus's text format, without credentials (as Unleash serves them). */
  prometheus(req: Request, res: Response): Promise<void>;
  /** Counts one playground evaluation (given to the services, which evaluate for REST and GraphQL alike). */
  playgroundEvaluated(kind: PlaygroundKind): void;
  metrics: AppMetrics;
  /** Stops counting the hub's events. */
  close(): void;
}

/** knex's pool (tarn.js), read at scrape time; undefined once the ORM is closed. */
function poolCounts(orm: MikroORM): () => PoolCounts | undefined {
  const knex = orm.em.getConnection().getKnex() as unknown as { client?: { pool?: Record<string, unknown> & { numUsed(): number; numFree(): number; numPendingAcquires(): number; numPendingCreates(): number; min: number; max: number } } };
  return () => {
    const pool = knex.client?.pool;
    if (!pool || typeof pool.numUsed !== 'function') return undefined;
    return { used: pool.numUsed(), free: pool.numFree(), pendingAcquires: pool.numPendingAcquires(), pendingCreates: pool.numPendingCreates(), min: pool.min, max: pool.max };
  };
}

/**
 * Request logs and Prometheus metrics of one app. Audit events are counted as this instance's committed
 * transactions write them (EventHub.onWritten, after the commit: a rolled-back change counts nothing).
 */
export function observability(app: unknown, orm: MikroORM, logger: Logger, eventHub: EventHub, clientAddress?: (req: IncomingMessage) => string, availability?: DatabaseAvailability): Observability {
  const metrics = new AppMetrics(poolCounts(orm), availability && (() => availability.reachable));
  let table: RouteTable | undefined;
  const routes = () => (table ??= routeTable((app as { router: { stack: [] } }).router.stack));
  const stopCounting = eventHub.onWritten((rows) => metrics.eventsWritten(rows));
  return {
    observe: requestObserver(logger, metrics, routes, clientAddress),
    async prometheus(_req, res) {
      const { contentType, body } = await metrics.scrape();
      res.setHeader('Content-Type', contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.end(body);
    },
    playgroundEvaluated: (kind) => metrics.playgroundEvaluated(kind),
    metrics,
    close: stopCounting,
  };
}
