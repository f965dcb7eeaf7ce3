import type { MikroORM } from '@mikro-orm/postgresql';
import { withinMs } from '../domain/deadline';

/** How long a readiness check waits for the database (a cut network hangs rather than refuses). */
export const READY_TIMEOUT_MS = 2000;

/** Whether the database answers `select 1` within `timeoutMs`; a statement still waiting then is left to finish. */
export async function databaseAnswers(orm: MikroORM, timeoutMs: number): Promise<boolean> {
  const asked = orm.em.getConnection().execute('select 1').then(() => true, () => false);
  return (await withinMs(asked, timeoutMs)) === true;
}
