import type { MikroORM } from '@mikro-orm/postgresql';

/** How long a readiness check waits for the database (a cut network hangs rather than refuses). */
export const READY_TIMEOUT_MS = 2000;

/** Whether the database answers `select 1` within `timeoutMs`; a statement still waiting then is left to finish. */
export async function databaseAnswers(orm: MikroORM, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), timeoutMs); });
  const asked = orm.em.getConnection().execute('select 1').then(() => true as const, () => false as const);
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}
