import type { EntityManager } from '@mikro-orm/postgresql';
import { bound } from '../metrics/client-metrics.store';
import { KEEP_DAYS, MAX_UNKNOWN_NAMES } from './unknown-flag.shapes';

/**
 * Records the names of a metrics flush that no flag has, and prunes to the bounds (one call of the function migration
 * 0028 made). `counts` and `seen` are the flush's JSON lists, sent as bind parameters as the flush's other statements are.
 */
export async function recordUnknownFlags(tx: EntityManager, counts: string, seen: string): Promise<void> {
  await bound(tx, `select unknown_flags_record(?::jsonb, ?::jsonb, ?, make_interval(days => ?))`, [counts, seen, MAX_UNKNOWN_NAMES, KEEP_DAYS]);
}
