import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createScratchDatabase } from '../support/scratch-database';
import { describeWhen } from '../support/skip';
import { spawnService, type ServiceProcess } from '../support/service-process';
import { adminApi, expectAcknowledgedKept, holdings, startWriters, writeFlag, type Flag } from '../support/write-load';

/**
 * The README's backup of a PostgreSQL database, run as written: `pg_dump --format=custom` while the service takes
 * writes from several clients, `pg_restore --no-owner` into a new database, and a service started on that database
 * serves every change acknowledged before the dump began, with its events. Needs the suite's PostgreSQL server and its
 * client tools (the PostgreSQL run of CI has both).
 */
const admin = process.env.FLAGDECK_TEST_ADMIN_URL;
const TOKEN = '*:*.pg-dump-admin-token';
const run = promisify(execFile);
jest.setTimeout(120_000);

describeWhen(Boolean(admin), 'needs a PostgreSQL server and its client tools pg_dump and pg_restore (run with DATABASE_URL=postgresql://...)')('pg_dump and pg_restore of the service\'s PostgreSQL database', () => {
  const services: ServiceProcess[] = [];
  const drops: Array<() => Promise<void>> = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-pgdump-'));
  const dump = path.join(dir, 'flagdeck.dump');
  let source: ServiceProcess;
  const before: Flag[] = Array.from({ length: 20 }, (_, i) => ({ name: `before-${i}` }));
  let during: Flag[] = [];
  let began = 0;

  beforeAll(async () => {
    const original = await createScratchDatabase(admin!, `flagdeck_dump_${process.pid}`);
    drops.push(original.drop);
    source = await spawnService({ DATABASE_URL: original.url, INIT_ADMIN_API_TOKENS: TOKEN });
    services.push(source);
    const call = adminApi(source.port, TOKEN);
    for (const flag of before) await writeFlag(call, flag);
    const writers = startWriters(call, 4, 'during');
    during = writers.flags;
    await new Promise((resolve) => setTimeout(resolve, 300));
    began = Date.now();
    await run('pg_dump', ['--format=custom', `--file=${dump}`, original.url]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await writers.stop();
  });

  afterAll(async () => {
    for (const s of services) s.kill('SIGKILL');
    await Promise.all(services.map((s) => s.exited));
    for (const drop of drops) await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the backup path points to pg_dump on PostgreSQL', async () => {
    const { status, json } = await adminApi(source.port, TOKEN)('GET', '/api/admin/backup');
    expect(status).toBe(409);
    expect(json).toMatchObject({ name: 'ConflictError', message: expect.stringContaining('pg_dump') });
  });

  it('a dump taken under writes restores into a new database that starts and serves every change acknowledged before it began', async () => {
    const restored = await createScratchDatabase(admin!, `flagdeck_restored_${process.pid}`);
    drops.push(restored.drop);
    await run('pg_restore', ['--no-owner', `--dbname=${restored.url}`, dump]);
    const service = await spawnService({ DATABASE_URL: restored.url });
    services.push(service);
    const read = adminApi(service.port, TOKEN);
    expect(expectAcknowledgedKept([...before, ...during], began, await holdings(read))).toBeGreaterThan(before.length);
    expect((await read('POST', '/api/admin/projects/default/features', { name: 'after-restore' })).status).toBe(201);
    const { json: sdk } = await read('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] });
    const { json: served } = await read('GET', '/api/client/features', undefined, sdk.secret);
    expect(served.features.find((f: any) => f.name === 'before-0')).toMatchObject({ enabled: true, strategies: [{ name: 'default' }] });
  });
});
