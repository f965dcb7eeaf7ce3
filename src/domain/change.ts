import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from './access/principal';
import { appendEvents, type EventInput } from './events/event.store';

/**
 * Runs one state change and its audit events in a single transaction. The callback receives the
 * transaction's EntityManager (the only one it may use: on the embedded single-connection database any
 * other would wait forever) and an `emit` that queues events written just before commit.
 */
export async function change<T>(
  em: EntityManager,
  principal: Principal,
  work: (tx: EntityManager, emit: (event: EventInput) => void) => Promise<T>,
): Promise<T> {
  return em.transactional(async (tx) => {
    const events: EventInput[] = [];
    const result = await work(tx as EntityManager, (e) => events.push(e));
    await tx.flush();
    await appendEvents(tx as EntityManager, principal, events);
    return result;
  });
}
