import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { systemPrincipal } from '../../src/domain/access/principal';
import { change } from '../../src/domain/change';
import { startTestApp, type TestApp } from '../support/harness';
import { itWhen, NEEDS_POSTGRES } from '../support/skip';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  for (const name of ['lock-a', 'lock-b']) expect((await app.post('/api/admin/projects/default/features', { name })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

// Two transactions need two connections: the embedded database serves one, so this runs against PostgreSQL only.
const concurrent = itWhen(Number(process.env.TEST_DB_POOL_MAX ?? 1) > 1, NEEDS_POSTGRES);

describe('change() and deadlocks', () => {
  concurrent('a transaction PostgreSQL aborts as a deadlock victim is run again and both changes commit, each with its event once', async () => {
    let arrived = 0;
    let release!: () => void;
    const bothHoldFirstLock = new Promise<void>((r) => { release = r; });
    const attempts = { ab: 0, ba: 0 };
    const lockBoth = (first: string, second: string, key: 'ab' | 'ba') => change(app.orm.em.fork(), systemPrincipal, async (tx, emit) => {
      attempts[key] += 1;
      await tx.execute(`select name from features where name = ? for update`, [first]);
      if (attempts[key] === 1 && ++arrived === 2) release();
      if (attempts[key] === 1) await bothHoldFirstLock;
      await tx.execute(`update features set description = ? where name = ?`, [`by ${key}`, second]);
      emit({ type: 'feature-metadata-updated', project: 'default', featureName: second, data: { by: key } });
      return key;
    });
    const results = await Promise.all([lockBoth('lock-a', 'lock-b', 'ab'), lockBoth('lock-b', 'lock-a', 'ba')]);
    expect(results).toEqual(['ab', 'ba']);
    // At least one rerun; under load PostgreSQL's deadlock checks of both waiting sessions can each pick itself as the
    // victim (the second runs before the first's abort releases its locks), so both may run again.
    expect(attempts.ab + attempts.ba).toBeGreaterThanOrEqual(3);
    expect(attempts.ab + attempts.ba).toBeLessThanOrEqual(4);
    const events = (await app.events('feature-metadata-updated')).filter((e) => e.data?.by);
    expect(events.map((e) => e.data.by).sort()).toEqual(['ab', 'ba']);
  });

  it('other errors are not retried', async () => {
    let runs = 0;
    await expect(change(app.orm.em.fork(), systemPrincipal, async (tx) => {
      runs += 1;
      await tx.execute(`select 1/0`);
    })).rejects.toBeDefined();
    expect(runs).toBe(1);
  });
});
