import type { EntityManager } from '@mikro-orm/postgresql';
import type { CompletedStatus } from './lifecycle.shapes';

/** The writes of the stages users set (lifecycle.service.ts); the stages SDK reports and switches set are written by their own statements. */

export interface Completion { status: CompletedStatus; statusValue: string | null }

/** The flag's completion, if it is completed (call after locking the flag). */
export async function loadCompletion(tx: EntityManager, feature: string): Promise<Completion | undefined> {
  const rows: Array<{ status: CompletedStatus; status_value: string | null }> = await tx.execute(
    `select status, status_value from feature_lifecycles where feature_name = ? and stage = 'completed'`, [feature]);
  return rows[0] && { status: rows[0].status, statusValue: rows[0].status_value };
}

/** Marks the flag completed (entered now), or changes how it was completed (keeping when it was). */
export async function complete(tx: EntityManager, feature: string, { status, statusValue }: Completion): Promise<void> {
  await tx.execute(
    `insert into feature_lifecycles (feature_name, stage, status, status_value) values (?, 'completed', ?, ?)
     on conflict (feature_name, stage) do update set status = excluded.status, status_value = excluded.status_value`,
    [feature, status, statusValue]);
}

export async function uncomplete(tx: EntityManager, feature: string): Promise<void> {
  await tx.execute(`delete from feature_lifecycles where feature_name = ? and stage = 'completed'`, [feature]);
}

/**
 * After a CTE `switched` (feature_name, environment, enabled), in the switch's own statement: the pre-live stage of
 * the flags switched on outside production, for those that had not entered it.
 */
export const PRE_LIVE_ON_SWITCH = `insert into feature_lifecycles (feature_name, stage)
     select distinct s.feature_name, 'pre-live' from switched s join environments e on e.name = s.environment
      where s.enabled and e.type <> 'production'
     on conflict (feature_name, stage) do nothing`;
