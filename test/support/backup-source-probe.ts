/**
 * Run by test/e2e/process/backup-source.test.ts in a child process (PGlite does not load inside jest's module
 * sandbox): the embedded database's backup source on an in-memory database of its own. Prints one JSON line with
 * what it found.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { restoreBackup } from '../../src/db/backup/restore';
import { embeddedBackups } from '../../src/db/backup/take';
import { startEmbeddedDatabase } from '../../src/db/embedded';
import { openOrm } from '../../src/db/orm';

async function main(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-backup-source-'));
  const db = await startEmbeddedDatabase();
  const orm = await openOrm({ url: db.url, poolMax: 1, holdConnection: true });
  const connection = orm.em.getConnection();
  const client = (connection.getKnex() as unknown as { client: { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> } }).client;
  const held = async <T>(job: () => T): Promise<T> => {
    const c = await client.acquireConnection();
    try { return job(); } finally { await client.releaseConnection(c); }
  };
  try {
    await connection.execute(`insert into tag_types (name, description) values ('backup-source', 'written before the backup')`);
    const source = embeddedBackups(orm, db);

    const both = await Promise.allSettled([source.take(), source.take()]);
    const concurrent = both.map((r) => (r.status === 'fulfilled' ? 'taken' : `${(r.reason as Error).name}: ${(r.reason as Error).message}`));
    for (const r of both) if (r.status === 'fulfilled') r.value.bytes.destroy();

    // The copy's last exclusive step fails once: the copy is refused, and its backup ended for the next one.
    let calls = 0;
    const failing = <T>(job: () => T): Promise<T> => (++calls === 2 ? Promise.reject(new Error('connection lost at the end of the copy')) : held(job));
    const failed = await db.copy(failing).then(() => 'copied', (err: Error) => err.message);

    const backup = await source.take();
    const file = path.join(dir, 'restorable.backup');
    await pipeline(backup.bytes, createWriteStream(file));
    await connection.execute(`insert into tag_types (name, description) values ('after-backup', 'written after the backup')`);
    const target = path.join(dir, 'restored');
    const manifest = await restoreBackup(file, target);
    const restored = await startEmbeddedDatabase(target);
    let names: string[];
    try {
      const check = await openOrm({ url: restored.url, poolMax: 1, holdConnection: true });
      names = (await check.em.getConnection().execute<Array<{ name: string }>>(`select name from tag_types where name in ('backup-source', 'after-backup') order by name`)).map((r) => r.name);
      await check.close(true);
    } finally {
      await restored.stop();
    }
    return {
      concurrent, failed, heldMs: backup.heldMs, hasLabel: manifest.files.some((f) => f.path === 'pglite/backup_label'),
      walFiles: manifest.files.filter((f) => f.path.startsWith('pglite/pg_wal/')).length, restoredNames: names,
    };
  } finally {
    await orm.close(true);
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then((result) => process.stdout.write(`${JSON.stringify(result)}\n`), (err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exitCode = 1;
});
