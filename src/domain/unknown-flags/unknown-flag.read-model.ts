import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import { KEEP_DAYS, type UnknownFlag } from './unknown-flag.shapes';

/**
 * The unknown flags reported within the kept days, newest report first: a name that became a flag since is left out
 * (its rows go at the next prune).
 */
export async function listUnknownFlags(em: EntityManager): Promise<UnknownFlag[]> {
  const rows: Array<{ name: string; app_name: string; environment: string; seen_at: Date }> = await em.execute(
    `select u.name, u.app_name, u.environment, u.seen_at from unknown_flags u
      where u.seen_at >= now() - make_interval(days => ?) and not exists (select 1 from features f where f.name = u.name)
      order by u.seen_at desc, u.name, u.app_name, u.environment`, [KEEP_DAYS]);
  return rows.map((r) => ({ name: r.name, appName: r.app_name, environment: r.environment, seenAt: iso(r.seen_at) }));
}
