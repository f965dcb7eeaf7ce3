import type { MikroORM } from '@mikro-orm/postgresql';
import { warnUnlessUnreachable } from '../database-errors';
import type { Principal } from '../access/principal';
import type { Logger } from '../logger';
import { isEmptyBatch, MetricsBuffer, type MetricsBatch } from './metrics-buffer';
import { reportEnvironment, type MetricsReport } from './metrics-input';
import { writeMetrics } from './metrics-writer';

export interface MetricsIntakeOptions {
  /** How often the buffer is written (CLIENT_METRICS_FLUSH_MS). */
  flushMs: number;
  /** How long hourly counts and silent instances are kept (CLIENT_METRICS_RETENTION_HOURS). */
  retentionHours: number;
  /** Keys held before a flush is started early (default 20,000). */
  flushAtKeys?: number;
  /** Keys held at most; reports for new keys beyond it are dropped and logged (default 200,000). */
  maxKeys?: number;
  /** The write of one batch (tests replace it to make a flush fail). */
  write?: typeof writeMetrics;
}

/** Without reports, an instance still prunes this often (while its flush timer runs). */
const IDLE_PRUNE_MS = 10 * 60_000;
const HOUR_MS = 3_600_000;

/**
 * The metrics intake of one app instance (issue 14): reports are summed in memory (MetricsBuffer) and written on an
 * interval and at `close()`, one batch at a time, in a fixed number of statements per batch (writeMetrics). A request
 * only validates its body and adds to the buffer: it never waits on the database.
 *
 * A failed write puts its batch back (added to what arrived meanwhile) for the next flush and is logged; it never
 * throws out of the timer. The timer starts with the first report and is unref'd, so an app that is never closed does
 * not keep its process alive.
 */
export class MetricsIntake {
  private readonly buffer: MetricsBuffer;
  private readonly flushAtKeys: number;
  private readonly write: typeof writeMetrics;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private lastPrune = 0;
  private closed = false;
  /** Writes done and failed, for logs and tests. */
  readonly stats = { flushes: 0, failures: 0, dropped: 0 };

  constructor(private readonly orm: MikroORM, private readonly logger: Logger, private readonly options: MetricsIntakeOptions) {
    this.buffer = new MetricsBuffer(options.maxKeys ?? 200_000);
    this.flushAtKeys = options.flushAtKeys ?? 20_000;
    this.write = options.write ?? writeMetrics;
  }

  /** Adds a validated report, counted in the environment its token decides (reportEnvironment). */
  record(principal: Principal, report: MetricsReport, clientIp: string): void {
    const now = Date.now();
    const oldestHour = Math.floor((now - this.options.retentionHours * HOUR_MS) / HOUR_MS) * HOUR_MS;
    this.buffer.add(report, {
      environment: reportEnvironment(principal, report.environment),
      clientIp,
      projects: principal.tokenProjects ?? ['*'],
      reporter: principal.name,
    }, now, oldestHour);
    if (!this.timer && !this.closed) {
      this.timer = setInterval(() => { void this.flush(); }, this.options.flushMs);
      this.timer.unref();
    }
    if (this.buffer.size >= this.flushAtKeys) void this.flush();
  }

  /**
   * Writes what is buffered. One write runs at a time; a flush asked for while one runs waits for it and then writes
   * what arrived meanwhile (asking again while that one waits joins it). Never rejects.
   */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.current) {
      this.current = this.flushOnce().finally(() => { this.current = undefined; });
      return this.current;
    }
    this.queued = this.current.then(() => {
      this.queued = undefined;
      return this.flush();
    });
    return this.queued;
  }

  private async flushOnce(): Promise<void> {
    const dropped = this.buffer.takeDropped();
    if (dropped > 0) {
      this.stats.dropped += dropped;
      this.logger.warn({ dropped }, 'client metrics buffer full: reports for new keys were dropped');
    }
    const batch = this.buffer.take();
    const pruneDue = Date.now() - this.lastPrune >= IDLE_PRUNE_MS;
    if (isEmptyBatch(batch) && !pruneDue) return;
    try {
      await this.write(this.orm.em.fork(), batch, this.options.retentionHours);
      this.lastPrune = Date.now();
      this.stats.flushes += 1;
    } catch (err) {
      this.buffer.restore(batch);
      this.stats.failures += 1;
      warnUnlessUnreachable(this.logger, { err, keys: batchKeys(batch) }, 'client metrics could not be written; they are kept for the next flush');
    }
  }

  /** Stops the timer and writes what is buffered (called when the app closes, before the database does). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    // A flush that failed left its batch in the buffer: at shutdown there is no next time.
    const left = this.buffer.take();
    if (!isEmptyBatch(left)) this.logger.error({ keys: batchKeys(left) }, 'client metrics could not be written before shutdown and are lost');
  }
}

const batchKeys = (b: MetricsBatch) => ({ counts: b.counts.length, seen: b.seen.length, instances: b.instances.length });
