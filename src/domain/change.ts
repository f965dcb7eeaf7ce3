import { LockMode, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from './access/principal';
import { eventHubOf } from './events/event-hub';
import { appendEvents, type AppendedEvents, type EventCause, type EventInput } from './events/event.store';

/**
 * # Concurrency rule for every state change (issue 8)
 *
 * Every change runs in `change()` below: one transaction with its events, started on a fork with an EMPTY identity map
 * (`clear: true`), so nothing read inside it comes from an entity the request loaded earlier.
 *
 * 1. **Lock what you read before writing it back.** A change that reads a row, computes from it and writes it (or
 *    writes an event whose `preData` is what it read) first takes the row lock, then reads:
 *    - raw SQL: `select … for update` (then every later read of that row in the transaction is current);
 *    - entities: `lockedFindOne(tx, Schema, where)` (PESSIMISTIC_WRITE = `for update`, with `refresh: true`: without
 *      it MikroORM 6.6 merges the fresh row into an entity it already manages and keeps the entity's values where the
 *      row now holds null or where the entity was changed in memory);
 *    - or one atomic statement (`update … set x = x + 1`, `insert … on conflict`, `delete … returning`).
 *    A row that is only *relied on* (it must still exist, or keep the value that was checked, until commit: the
 *    project of a new feature, the tag type of a new tag, the strategy type of a new strategy) is read
 *    `for share` (value checked) or `for key share` (existence only), so a concurrent delete or change waits.
 * 2. **A rule that counts rows** ("at most N features", "at least one environment") needs a lock that every change
 *    of that count takes and that conflicts with itself: the owner's row `for update` / `for no key update`, or
 *    `pg_advisory_xact_lock` when the owner row is only shared. Count after the lock is granted.
 * 3. **One lock order**, so two changes never wait on each other in a circle: projects (by id), then environments, then
 *    features (by name, `lockFeatures`), then a feature's rows (environment configuration, strategies, variants),
 *    then the definitions those rows refer to (strategy types, segments, tag types, context fields; usually shared).
 *    Deleting a project or an environment cascades into rows of features after locking it, so it can still
 *    deadlock with a change of one of those features: PostgreSQL then rolls one back and it is run again here.
 * 4. **Unique keys decide creates.** A check-then-insert may lose a race; the unique index then refuses the insert
 *    and `fromDatabaseError` (database-errors.ts) turns SQLSTATE 23505 into `NameExistsError` (409) for both doors. It is not
 *    retried: running again would only find the name taken.
 */

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back and may simply be run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/** The SQLSTATE of a database error, whether the driver's own or MikroORM's wrapper of it. */
const sqlState = (err: unknown): string => {
  const e = err as { code?: unknown; sqlState?: unknown } | null;
  return String(e?.sqlState ?? e?.code ?? '');
};

/**
 * Row lock strengths, strongest first (rule 1): `update` to change or delete the row; `no key update` to guard what
 * hangs off the row (a project's environment links) without blocking rows that reference it; `share` to rely on its
 * values; `key share` to rely on its existence only.
 */
export type RowLock = 'update' | 'no key update' | 'share' | 'key share';

/** The SQL suffix of a locking read (` for update`, …), or nothing. */
export const lockClause = (lock: RowLock | undefined): string => (lock ? ` for ${lock}` : '');

/**
 * An entity read `for update` inside a transaction, always from the database, never from the identity map: the read
 * of an entity-based read-modify-write (rule 1).
 */
export async function lockedFindOne<T extends object>(tx: EntityManager, entity: EntityName<T>, where: FilterQuery<T>): Promise<T | null> {
  return tx.findOne(entity, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** The transactions of running changes, with their `emit`: a change started on one of them joins it (see `change`). */
const joined = new WeakMap<EntityManager, (event: EventInput) => void>();

/**
 * Runs one state change and its audit events in a single transaction. The callback receives the
 * transaction's EntityManager (the only one it may use: on the embedded single-connection database any
 * other would wait forever) and an `emit` that queues events written just before commit.
 *
 * Concurrent changes that lock rows in different orders (say a segment update and a strategy that uses the segment)
 * can deadlock; PostgreSQL then rolls one back. That one is run again, from scratch, up to three times: the callback
 * must therefore only depend on its input and what it reads through `tx`, which every service callback does.
 */
export async function change<T>(
  em: EntityManager,
  principal: Principal,
  work: (tx: EntityManager, emit: (event: EventInput) => void) => Promise<T>,
  /** Why the change is made, written on each of its events (those of changes that join it included). */
  cause?: EventCause,
): Promise<T> {
  // A change made inside another one (applying a change request runs each of its changes through the services of
  // direct edits) joins the outer transaction: its events are the outer change's, written at its commit.
  const outer = joined.get(em);
  if (outer) {
    const out = await work(em, outer);
    await em.flush();
    return out;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const hub = eventHubOf(em);
      const wholeRows = hub?.wantsRows ?? false;
      let appended: AppendedEvents | undefined;
      const result = await em.transactional(async (tx) => {
        const events: EventInput[] = [];
        const emit = (e: EventInput) => { events.push(e); };
        joined.set(tx as EntityManager, emit);
        const out = await work(tx as EntityManager, emit);
        await tx.flush();
        appended = await appendEvents(tx as EntityManager, principal, events, wholeRows, hub?.inlineAnnouncement(events.length), cause);
        if (!appended.announced) await hub?.announceInTransaction(tx as EntityManager, appended.rows, appended.deliveries);
        return out;
      }, { clear: true });
      // Committed: this instance's metrics count the events; the live stream and the delivery worker of this instance
      // learn of it (embedded database; on PostgreSQL the notification queued above reaches every instance instead).
      if (appended) hub?.afterCommit(appended.rows, appended.deliveries, wholeRows);
      // This instance's own answers see the change from the next request on, without waiting for the notification.
      hub?.modelVersion.moved();
      return result;
    } catch (err) {
      if (attempt >= ATTEMPTS || !RETRYABLE.has(sqlState(err))) throw err;
      em.clear();
    }
  }
}
