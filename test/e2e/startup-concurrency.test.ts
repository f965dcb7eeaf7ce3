import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Client } from 'pg';
import { migrationsList } from '../../src/db/migrations';
import { createScratchDatabase } from '../support/scratch-database';
import { probe, spawnService, type ServiceProcess } from '../support/service-process';
import { describeWhen, NEEDS_POSTGRES } from '../support/skip';

/**
 * Issue 8, defect 9: instances started together on one empty PostgreSQL database used to race through the
 * migrations (`Migration 0001-init (up) failed`). With the start-up advisory lock they all start. Needs a PostgreSQL
 * server (the suite's run against one); on the embedded run there is none to share, so it is skipped there.
 */
const admin = process.env.FLAGDECK_TEST_ADMIN_URL;
const name = `flagdeck_race_${process.pid}`;
const INSTANCES = 4;
const TOKEN = '*:*.race-test-token-1';
const services: ServiceProcess[] = [];

describeWhen(Boolean(admin), NEEDS_POSTGRES)('instances started together on an empty PostgreSQL database', () => {
  let url = '';
  let drop = async () => {};
  beforeAll(async () => {
    ({ url, drop } = await createScratchDatabase(admin!, name));
  });
  afterAll(async () => {
    for (const s of services) s.kill('SIGKILL');
    await Promise.all(services.map((s) => s.exited));
    await drop();
  });

  it(`all ${INSTANCES} start, migrate once between them, and serve`, async () => {
    const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => spawnService({ DATABASE_URL: url, INIT_ADMIN_API_TOKENS: TOKEN })));
    for (const r of started) if (r.status === 'fulfilled') services.push(r.value);
    expect(started.map((r) => (r.status === 'rejected' ? String(r.reason).slice(0, 400) : 'started'))).toEqual(Array(INSTANCES).fill('started'));
    for (const s of services) expect(await probe(s, '/api/admin/projects', { authorization: TOKEN })).toBe(200);
    const c = new Client({ connectionString: url });
    await c.connect();
    const { rows } = await c.query('select name, count(*)::int as n from mikro_orm_migrations group by name order by name');
    const tokens = await c.query(`select count(*)::int as n from api_tokens where type = 'admin'`);
    await c.end();
    expect(rows).toEqual(migrationsList.map((m) => ({ name: m.name, n: 1 })));
    expect(tokens.rows[0].n).toBe(1);
    for (const s of services) s.kill('SIGTERM');
    expect(await Promise.all(services.map((s) => s.exited))).toEqual(Array(INSTANCES).fill(0));
  }, 90_000);
});
