import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from './access/principal';
import { appendEvents, type EventInput } from './events/event.store';

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back and may simply be run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/** The SQLSTATE of a database error, whether the driver's own or MikroORM's wrapper of it. */
const sqlState = (err: unknown): string => {
  const e = err as { code?: unknown; sqlState?: unknown } | null;
  return String(e?.sqlState ?? e?.code ?? '');
};

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
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await em.transactional(async (tx) => {
        const events: EventInput[] = [];
        const result = await work(tx as EntityManager, (e) => events.push(e));
        await tx.flush();
        await appendEvents(tx as EntityManager, principal, events);
        return result;
      });
    } catch (err) {
      if (attempt >= ATTEMPTS || !RETRYABLE.has(sqlState(err))) throw err;
      em.clear();
    }
  }
}
