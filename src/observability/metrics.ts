import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { StaleDoor } from '../domain/last-known';
import type { ExecutionPath } from '../resolvers/compiled-execution';

/** The counts of a connection pool at one moment (knex's pool, tarn.js: `numUsed()`, `numFree()`...). */
export interface PoolCounts {
  used: number;
  free: number;
  pendingAcquires: number;
  pendingCreates: number;
  min: number;
  max: number;
}

/** What a playground request evaluated: the basic playground (one environment) or the advanced one. */
export type PlaygroundKind = 'playground' | 'advanced';

/**
 * Request durations in seconds: from 0.5 ms (the SDK poll answered from cached bytes) to 10 s (a large import).
 */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus metrics of one app (served at GET /internal-backstage/prometheus). Each app has a registry of its
 * own, never prom-client's global one, so several apps in one process (tests) keep their counts apart.
 *
 * What they show is what an operator needs and nothing a caller could not learn otherwise: route patterns as the code
 * declares them (`/api/admin/projects/:projectId`, never a URL with a project or flag name in it), the fixed list of
 * audit event types, HTTP methods and statuses, pool counts and process figures. No label ever holds a token, a user
 * name, or a name chosen by a user.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly auditEvents: Counter<'type'>;
  private readonly playground: Counter<'kind'>;
  private readonly graphqlExecutions: Counter<'executor'>;
  private readonly staleAnswers: Counter<'door'>;
  private readonly refusals: Counter<'api'>;

  /**
   * `pool`: the database pool's counts at scrape time (undefined when it is closed or not known); `reachable`: whether
   * the database is reachable as far as the app knows (src/domain/database-availability.ts).
   */
  constructor(pool: () => PoolCounts | undefined, reachable?: () => boolean) {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests, from their arrival to the end of the answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.auditEvents = new Counter({
      name: 'flagdeck_audit_events_written_total',
      help: 'Audit events this instance wrote in committed transactions, by event type',
      labelNames: ['type'],
      registers,
    });
    this.playground = new Counter({
      name: 'flagdeck_playground_evaluations_total',
      help: 'Playground evaluations (REST and GraphQL) by kind: playground (one environment) or advanced',
      labelNames: ['kind'],
      registers,
    });
    this.graphqlExecutions = new Counter({
      name: 'flagdeck_graphql_executions_total',
      help: 'GraphQL operations executed, by executor: compiled (a hot query answered by its compiled code), standard, standard_rerun (a compiled run had errors; the standard executor answered), or cached (answered from the response cache without executing)',
      labelNames: ['executor'],
      registers,
    });
    this.staleAnswers = new Counter({
      name: 'flagdeck_sdk_stale_answers_total',
      help: 'SDK answers given from the last known state because the database was away or slow, by door: client_features, client_delta, client_streaming (streams opened), frontend',
      labelNames: ['door'],
      registers,
    });
    this.refusals = new Counter({
      name: 'flagdeck_database_unavailable_refusals_total',
      help: 'Requests refused with ServiceUnavailableError (503, Retry-After) because the database was not reachable, by api: rest or graphql (one per error)',
      labelNames: ['api'],
      registers,
    });
    if (reachable) {
      new Gauge({
        name: 'flagdeck_database_reachable', help: 'Whether the database is reachable as far as this instance knows (1) or has been found away (0)', registers,
        collect() { this.set(reachable() ? 1 : 0); },
      });
    }
    // Unleash's names for the same pool figures. Read when scraped, so they cost nothing between scrapes.
    const poolGauge = (name: string, help: string, read: (p: PoolCounts) => number) => new Gauge({
      name, help, registers,
      collect() {
        const counts = pool();
        if (counts) this.set(read(counts));
        else this.reset();
      },
    });
    poolGauge('db_pool_used', 'Database connections in use', (p) => p.used);
    poolGauge('db_pool_free', 'Idle database connections in the pool', (p) => p.free);
    poolGauge('db_pool_pending_acquires', 'Requests waiting for a database connection', (p) => p.pendingAcquires);
    poolGauge('db_pool_pending_creates', 'Database connections being opened', (p) => p.pendingCreates);
    poolGauge('db_pool_min', 'Least database connections the pool keeps', (p) => p.min);
    poolGauge('db_pool_max', 'Most database connections the pool opens', (p) => p.max);
    collectDefaultMetrics({ register: this.registry });
  }

  /** One answered (or abandoned) request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  /** Events of one committed transaction. */
  eventsWritten(rows: ReadonlyArray<{ type: string }>): void {
    const byType = new Map<string, number>();
    for (const { type } of rows) byType.set(type, (byType.get(type) ?? 0) + 1);
    for (const [type, n] of byType) this.auditEvents.inc({ type }, n);
  }

  /** One SDK answer given from the last known state. */
  staleAnswer(door: StaleDoor): void {
    this.staleAnswers.inc({ door });
  }

  /** One request (or GraphQL error) refused because the database was away. */
  refusedForOutage(api: 'rest' | 'graphql'): void {
    this.refusals.inc({ api });
  }

  playgroundEvaluated(kind: PlaygroundKind): void {
    this.playground.inc({ kind });
  }

  graphqlExecuted(executor: ExecutionPath): void {
    this.graphqlExecutions.inc({ executor });
  }

  /** The text exposition of every metric, with its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
