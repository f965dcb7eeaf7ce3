import { randomUUID } from 'node:crypto';
import { warnUnlessUnreachable } from '../database-errors';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';
import type { EventHub } from '../events/event-hub';
import { toAuditEvent } from '../events/event.store';
import type { AddonDeliveryAttempt } from './addon.shapes';
import { claimDeliveries, recordOutcomes, type ClaimedRow, type DeliveryOutcome } from './addon.store';
import type { DeliveryOptions } from './delivery-options';
import { buildRequests } from './formats';
import { sendRequest, type AttemptOutcome } from './http-sender';
import { PROVIDER_BY_NAME } from './providers';

/** The wait before attempt `n + 1` after `n` failed: base × 2^(n-1), scaled by a random factor in [0.5, 1), at most an hour. */
export function retryDelayMs(failedAttempts: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.min(failedAttempts - 1, 30), 3_600_000);
  return Math.round(exponential * (0.5 + random() / 2));
}

/** An error text without any of the addon's sensitive values (a URL's secret path, a key), at most 500 characters. */
function withoutSecrets(error: string | null, provider: string, parameters: Record<string, unknown>): string | null {
  if (error === null) return null;
  let out = error;
  for (const definition of PROVIDER_BY_NAME.get(provider)?.parameters ?? []) {
    const value = parameters[definition.name];
    if (!definition.sensitive || typeof value !== 'string' || value.length < 4) continue;
    out = out.split(value).join('*****');
    try {
      const url = new URL(value);
      if (url.pathname.length > 1) out = out.split(url.pathname).join('/*****');
    } catch { /* not a URL */ }
  }
  return out.slice(0, 500);
}

/**
 * The addon delivery worker (issue 11): claims due deliveries from the outbox, sends them, records every attempt and
 * schedules retries. Any number of workers (instances) share one database:
 *
 * - A claim is one statement: due `pending` rows, `for update skip locked` (two workers never pick the same row),
 *   get a fresh `claim` id and their `next_attempt_at` moved a lease ahead. No transaction stays open while sending.
 * - If the worker dies mid-send, the row is due again when the lease ends and another worker (or this one after a
 *   restart) sends it again: at-least-once, with the delivery id as `Idempotency-Key` so receivers can drop repeats.
 * - The outcome is written only while the claim is still ours (`where claim = ?`).
 *
 * It wakes when this instance learns of committed deliveries (the event hub), and otherwise polls every `pollMs` for
 * retries that came due and for deliveries of other instances that died.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly unsubscribe: (() => void) | undefined;
  /** Claims whose sends are under way (so one worker never exceeds its concurrency). */
  private busy = 0;

  constructor(
    private readonly orm: MikroORM,
    private readonly options: DeliveryOptions & { publicUrl: string },
    private readonly logger: Logger,
    hub?: EventHub,
  ) {
    this.unsubscribe = hub?.onDeliveries(() => this.wake());
  }

  start(): this {
    this.wake();
    return this;
  }

  /** Look for due deliveries now (coalesced: a wake while a round runs makes one more round). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) { this.again = true; return; }
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined; }
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) { this.again = false; this.wake(); return; }
      this.timer = setTimeout(() => { this.timer = undefined; this.wake(); }, this.options.pollMs);
      this.timer.unref();
    });
  }

  /** Stops claiming; waits for the sends under way (each ends within the timeout) and records them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await Promise.all([...this.inFlight]);
  }

  private async round(): Promise<void> {
    try {
      for (;;) {
        const room = this.options.concurrency - this.busy;
        if (room <= 0 || this.stopped) return;
        const claimed = await this.claim(room);
        for (const row of claimed) {
          this.busy += 1;
          const p = this.deliver(row).catch((err) => this.logger.error({ err, delivery: row.delivery_id }, 'addon delivery could not be recorded')).finally(() => {
            this.busy -= 1;
            this.inFlight.delete(p);
            if (!this.stopped) this.wake();
          });
          this.inFlight.add(p);
        }
        if (claimed.length < room) return;
      }
    } catch (err) {
      if (!this.stopped) warnUnlessUnreachable(this.logger, { err }, 'could not claim addon deliveries');
    }
  }

  private async claim(limit: number): Promise<ClaimedRow[]> {
    const claim = randomUUID();
    return claimDeliveries(this.orm.em.fork(), limit, claim, this.options.leaseMs / 1000);
  }

  private async deliver(row: ClaimedRow): Promise<void> {
    const attempt = row.attempt_count + 1;
    const at = new Date();
    let outcome: AttemptOutcome;
    if (!row.enabled) {
      await this.record(row, 'skipped', { attempt, at: at.toISOString(), durationMs: 0, statusCode: null, error: 'the addon was disabled before this delivery was sent' }, null);
      return;
    }
    try {
      const requests = buildRequests(row.provider, row.parameters, toAuditEvent(row), { publicUrl: this.options.publicUrl, deliveryId: row.delivery_id });
      outcome = { ok: true, statusCode: null, durationMs: 0, error: null };
      for (const request of requests) {
        const one = await sendRequest(request, { timeoutMs: this.options.timeoutMs, allowPrivateUrls: this.options.allowPrivateUrls });
        outcome = { ...one, durationMs: outcome.durationMs + one.durationMs };
        if (!one.ok) break;
      }
    } catch (err) {
      outcome = { ok: false, statusCode: null, durationMs: 0, error: (err as Error).message };
    }
    const recorded: AddonDeliveryAttempt = {
      attempt, at: at.toISOString(), durationMs: outcome.durationMs, statusCode: outcome.statusCode,
      error: withoutSecrets(outcome.error, row.provider, row.parameters),
    };
    if (outcome.ok) await this.record(row, 'delivered', recorded, null);
    else if (attempt >= this.options.maxAttempts) await this.record(row, 'failed', recorded, null);
    else await this.record(row, 'pending', recorded, retryDelayMs(attempt, this.options.retryBaseMs));
  }

  /**
   * Writes an attempt and the delivery's new state, if the claim is still ours. Outcomes that arrive together (a
   * batch sent to a fast receiver) are written by one statement: each waits at most one turn of the event loop.
   */
  private record(row: ClaimedRow, status: 'pending' | 'delivered' | 'failed' | 'skipped', attempt: AddonDeliveryAttempt, retryInMs: number | null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.outcomes.push({ item: { id: row.delivery_id, claim: row.claim, attempt, status, retry: retryInMs === null ? null : retryInMs / 1000 }, resolve, reject });
      if (this.outcomes.length === 1) setImmediate(() => void this.flushOutcomes());
    });
  }

  private readonly outcomes: Array<{ item: DeliveryOutcome; resolve: () => void; reject: (err: unknown) => void }> = [];

  private async flushOutcomes(): Promise<void> {
    const batch = this.outcomes.splice(0);
    if (batch.length === 0) return;
    try {
      await recordOutcomes(this.orm.em.fork(), batch.map((b) => b.item));
      for (const b of batch) b.resolve();
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }
}
