import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * `model_version` (migration 0004), the counter every change of what evaluations and SDK answers show moves, as text
 * (0 when its row is missing). Read through `em`, so inside a transaction it belongs to that transaction's snapshot.
 */
export async function readModelVersion(em: EntityManager): Promise<string> {
  const [{ version }] = await em.execute<Array<{ version: string }>>(
    `select coalesce((select version from model_version where id = 1), 0)::text as version`);
  return version;
}
