import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Deletes the versions older than `cut`, keeping per flag and segment the last one at or before it (unless it records a
 * deletion), and moves the history horizon to `cut` (`history_prune()`, migration 0024); returns how many went.
 */
export async function pruneVersions(em: EntityManager, cut: Date): Promise<number> {
  const [row]: Array<{ gone: number }> = await em.execute(`select history_prune(?) as gone`, [cut.toISOString()]);
  return row.gone;
}
