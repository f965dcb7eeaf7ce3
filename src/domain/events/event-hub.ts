import type { EntityManager } from '@mikro-orm/postgresql';
import { eventsByIds } from './event.read-model';
import { notifyChannel, toAuditEvent, type EventDbRow } from './event.store';
import type { AuditEvent } from './event.shapes';

/** What one committed transaction wrote: its audit events, in order (the live streams' view of a commit). */
export interface CommittedEvents {
  events: AuditEvent[];
}

export type CommitListener = (committed: CommittedEvents) => void;

/** What one instance allows its live event streams (src/domain/events/event-stream.ts). */
export interface StreamLimits {
  /** Most streams open at once on this instance; one more is refused with a TooManyRequestsError. */
  maxStreams: number;
  /** Most matching events a stream may hold for a client that reads slowly; one more ends that stream with an error. */
  maxBacklog: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxStreams: 1000, maxBacklog: 1000 };

/** The channel committed transactions announce their events on (PostgreSQL mode). */
export const EVENT_CHANNEL = 'flagdeck_events';
/** The channel every transaction that moved `model_version` announces itself on, once (migration 0018). */
export const MODEL_VERSION_CHANNEL = 'flagdeck_model_version';

/**
 * What this instance hears of `model_version` moving. `watching` is true while it hears of every move: on PostgreSQL,
 * while the listener's connection is up and LISTENs on MODEL_VERSION_CHANNEL. `generation` counts what it heard: each
 * move, and each start or end of watching. A read of the counter made while watching stays the current value until
 * the generation moves (see VersionReader).
 */
export class ModelVersionSignal {
  private on = false;
  private gen = 0;

  get watching(): boolean {
    return this.on;
  }

  get generation(): number {
    return this.gen;
  }

  /** The counter may have moved (a notification, or a commit of this instance). */
  moved(): void {
    this.gen += 1;
  }

  /** Watching starts (LISTEN in place) or ends (connection lost, service stopping); what was read before is not trusted. */
  setWatching(on: boolean): void {
    this.on = on;
    this.gen += 1;
  }
}

/**
 * Most event ids one notification carries: a payload must stay under PostgreSQL's 8000 bytes, and an id is at most
 * 20 characters and a comma.
 */
const IDS_PER_NOTIFICATION = 300;

/**
 * Tells the parts of one service instance (the live event stream, the addon delivery worker) about every committed
 * audit event, once, on every instance:
 *
 * - `local` (the embedded database, one process): `change()` hands the events over right after its commit.
 * - `notify` (PostgreSQL, any number of instances): `change()` queues `pg_notify` in its transaction, which
 *   PostgreSQL sends only if and when the transaction commits; each instance LISTENs (event-listener.ts), reads the
 *   events by id and hands them over. Its own commits reach it the same way, so each event is handed over once.
 *
 * A rolled-back change announces nothing in either mode. Listeners run synchronously and must not throw.
 *
 * `close()` (the service is stopping) tells every listener that gave an `onClose` callback that no more events will
 * come, and forgets all listeners: the live streams end, so their connections can close.
 */
export class EventHub {
  private readonly listeners = new Set<CommitListener>();
  /** Told only how many deliveries a commit queued (the delivery worker): no events are read for them. */
  private readonly deliveryListeners = new Set<(deliveries: number) => void>();
  private readonly closers = new Map<CommitListener, () => void>();
  /** Told of the events each of this instance's own transactions wrote, after its commit (the metrics). */
  private readonly writtenListeners = new Set<(rows: ReadonlyArray<{ type: string }>) => void>();
  private isClosed = false;
  /** Moves of `model_version` as this instance hears of them (watched in notify mode while the listener is up). */
  readonly modelVersion = new ModelVersionSignal();

  constructor(readonly mode: 'local' | 'notify', readonly streamLimits: StreamLimits = DEFAULT_STREAM_LIMITS) {}

  /**
   * Adds a listener; `onClose` runs once if the hub closes while it is subscribed. On a closed hub, `onClose` runs at
   * once and nothing is added.
   */
  subscribe(listener: CommitListener, onClose?: () => void): () => void {
    if (this.isClosed) {
      onClose?.();
      return () => {};
    }
    this.listeners.add(listener);
    if (onClose) this.closers.set(listener, onClose);
    return () => {
      this.listeners.delete(listener);
      this.closers.delete(listener);
    };
  }

  /** `listener` learns of every commit that queued addon deliveries, with their number. */
  onDeliveries(listener: (deliveries: number) => void): () => void {
    if (this.isClosed) return () => {};
    this.deliveryListeners.add(listener);
    return () => { this.deliveryListeners.delete(listener); };
  }

  /**
   * `listener` learns of the events every transaction of this instance commits, in both modes, right after the commit
   * (never of a rolled-back one, nor of other instances' events). It runs synchronously and must not throw.
   */
  onWritten(listener: (rows: ReadonlyArray<{ type: string }>) => void): () => void {
    if (this.isClosed) return () => {};
    this.writtenListeners.add(listener);
    return () => { this.writtenListeners.delete(listener); };
  }

  private deliveriesQueued(deliveries: number): void {
    if (deliveries <= 0) return;
    for (const listener of [...this.deliveryListeners]) {
      try {
        listener(deliveries);
      } catch {
        // As for event listeners.
      }
    }
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** No more events: every listener's `onClose` runs and every listener is forgotten. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const closers = [...this.closers.values()];
    this.listeners.clear();
    this.deliveryListeners.clear();
    this.writtenListeners.clear();
    this.closers.clear();
    for (const onClose of closers) {
      try {
        onClose();
      } catch {
        // One listener's failure must not keep the others open.
      }
    }
  }

  /**
   * Whether `change()` must read back whole event rows for this hub: only in local mode with someone listening (in
   * notify mode the listener reads them by id; without listeners nobody needs them).
   */
  get wantsRows(): boolean {
    return this.mode === 'local' && this.listeners.size > 0;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Hands committed events to every listener. */
  publish(committed: CommittedEvents): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(committed);
      } catch {
        // A listener's failure must not stop the others (or the change that committed).
      }
    }
  }

  /**
   * The channel `appendEvents` may announce `count` new events on in its own statement (notify mode, when they fit one
   * notification); otherwise `announceInTransaction` announces them.
   */
  inlineAnnouncement(count: number): string | undefined {
    return this.mode === 'notify' && count > 0 && count <= IDS_PER_NOTIFICATION ? EVENT_CHANNEL : undefined;
  }

  /** Inside the transaction (notify mode): queue the notifications that announce these events at commit. */
  async announceInTransaction(tx: EntityManager, rows: Array<{ id: string | number }>, deliveries: number): Promise<void> {
    if (this.mode !== 'notify' || (rows.length === 0 && deliveries === 0)) return;
    if (rows.length === 0) {
      // Deliveries without events (a redelivery): wake the workers.
      await notifyChannel(tx, EVENT_CHANNEL, `${deliveries}:`);
      return;
    }
    for (let i = 0; i < rows.length; i += IDS_PER_NOTIFICATION) {
      const ids = rows.slice(i, i + IDS_PER_NOTIFICATION).map((r) => String(r.id)).join(',');
      // The delivery count rides on the first chunk only, so the worker wakes once per transaction.
      await notifyChannel(tx, EVENT_CHANNEL, `${i === 0 ? deliveries : 0}:${ids}`);
    }
  }

  /** After the commit: the `onWritten` listeners learn of the events (both modes); in local mode, hand them over. */
  afterCommit(rows: EventDbRow[], deliveries: number, wholeRows: boolean): void {
    if (rows.length > 0) {
      for (const listener of [...this.writtenListeners]) {
        try {
          listener(rows);
        } catch {
          // As for event listeners.
        }
      }
    }
    if (this.mode !== 'local') return;
    this.deliveriesQueued(deliveries);
    // Rows read back whole only when someone listened as the change began (`wantsRows`): a stream that started
    // during the transaction follows from the next commit on.
    if (!wholeRows || this.listeners.size === 0 || rows.length === 0) return;
    this.publish({ events: rows.map(toAuditEvent) });
  }

  /**
   * Notify mode: one notification's payload (`<deliveries>:<id>,<id>…`): the delivery count goes to the workers; the
   * events are read back by id only when someone listens to them (a live stream).
   */
  async received(em: EntityManager, payload: string): Promise<void> {
    const colon = payload.indexOf(':');
    const deliveries = Number(payload.slice(0, colon)) || 0;
    this.deliveriesQueued(deliveries);
    if (this.listeners.size === 0) return;
    const ids = payload.slice(colon + 1).split(',').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
    if (ids.length === 0) return;
    this.publish({ events: await eventsByIds(em, ids) });
  }
}

/** Each ORM's hub, keyed by its configuration object (shared by every fork and transaction of that ORM). */
const hubs = new WeakMap<object, EventHub>();

/** Makes `hub` the one `change()` announces to for every EntityManager of this ORM. */
export function attachEventHub(em: EntityManager, hub: EventHub): void {
  hubs.set(em.config, hub);
}

export function eventHubOf(em: EntityManager): EventHub | undefined {
  return hubs.get(em.config);
}
