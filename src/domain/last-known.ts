import type { DatabaseAvailability } from './database-availability';
import { LATE, withinMs } from './deadline';

/** How long an SDK door waits for the database before answering from its last state (SDK_STALE_AFTER_MS). */
export const DEFAULT_STALE_AFTER_MS = 1_000;

/** Which SDK door answered from its last state (a label of `flagdeck_sdk_stale_answers_total`). */
export type StaleDoor = 'client_features' | 'client_delta' | 'client_streaming' | 'frontend';

/** What the SDK doors need to answer through a database outage (issue 42); without it they answer only from the database. */
export interface LastKnownPolicy {
  availability: DatabaseAvailability;
  /** How long to wait for the database, when a last state is held, before answering from it. */
  staleAfterMs: number;
  /** Counts one answer given from the last state. */
  onStale?: (door: StaleDoor) => void;
}

/** A value kept from when the database last answered, with the instant (epoch ms) it was last known current. */
export interface Kept<T> {
  value: T;
  confirmedAt: number;
}

/** The current value, or the kept one with the instant from which it may be stale. */
export interface Served<T> {
  value: T;
  staleSince?: Date;
}

/**
 * The value the database gives now, or, while the database is away, the value kept from when it last answered:
 * - known away or in doubt (an earlier request found it so, or waited too long) with a kept value: the kept value at
 *   once, the database not asked;
 * - asked and refused with an error that says it is out of reach: the kept value, else that error (a 503 at the door);
 * - asked and not answering within `staleAfterMs` (a cut network hangs): the kept value, the question left to finish.
 * Any other error is the caller's. Without a policy, only the database answers. `door` names the SDK door an answer
 * from the kept value is counted for (none: not counted).
 */
export async function currentOrKept<T>(policy: LastKnownPolicy | undefined, door: StaleDoor | undefined, fresh: () => Promise<T>, kept: () => Kept<T> | undefined): Promise<Served<T>> {
  if (!policy) return { value: await fresh() };
  const { availability } = policy;
  const stale = (k: Kept<T>): Served<T> => {
    if (door) policy.onStale?.(door);
    return { value: k.value, staleSince: new Date(k.confirmedAt) };
  };
  const held = kept();
  if (held && availability.doubtful) return stale(held);
  const asked = fresh();
  try {
    const value = held ? await withinMs(asked, policy.staleAfterMs) : await asked;
    if (value === LATE) {
      asked.catch((err: unknown) => { availability.noteError(err); });
      // Slow or away: a bounded probe tells; meanwhile, and once it is known away, requests no longer wait for it.
      availability.suspect();
      return stale(held!);
    }
    availability.noteReachable();
    return { value: value as T };
  } catch (err) {
    if (!availability.noteError(err)) throw err;
    const last = held ?? kept();
    if (!last) throw err;
    return stale(last);
  }
}
