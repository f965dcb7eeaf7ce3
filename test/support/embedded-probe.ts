/**
 * Run by test/e2e/process/embedded-bridge.test.ts in a child process (PGlite cannot load inside jest's VM), with
 * --expose-gc: starts an in-memory embedded database, exercises its socket the way clients can, and prints one JSON
 * object with what it saw.
 */
import { createConnection } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedDatabase } from '../../src/db/embedded';

const gc = (globalThis as { gc?: () => void }).gc!;

async function main(): Promise<void> {
  const db = await startEmbeddedDatabase();
  const report: Record<string, unknown> = {};
  const connect = async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    return c;
  };
  const one = async (c: Client, sql: string) => (await c.query(sql)).rows[0];
  try {
    report.wasmMemoryMiB = db.wasmMemoryBytes() / 2 ** 20;
    let c = await connect();
    const settings: Record<string, string> = {};
    for (const name of ['shared_buffers', 'wal_buffers', 'temp_buffers', 'min_wal_size', 'enable_seqscan', 'client_min_messages', 'log_min_messages', 'jit']) {
      settings[name] = (await one(c, `show ${name}`))[name];
    }
    report.settings = settings;
    await c.query('create table probe (id int primary key, pad text)');
    await c.query(`insert into probe select g, repeat('x', 200) from generate_series(1, 100000) g`);
    report.planOfFullRead = (await c.query('explain select count(*) from probe')).rows.map((r) => r['QUERY PLAN']).join('\n');

    // A second client while the first holds the socket's one connection.
    const intruder = new Client({ connectionString: db.url });
    report.secondClient = await intruder.connect().then(() => 'served', (err: { code?: string }) => err.code ?? 'error');
    await intruder.end().catch(() => {});

    // A 5 MB parameter arrives in many socket reads; it must come back whole.
    const big = 'y'.repeat(5 * 2 ** 20);
    const echoed = (await c.query('select $1::text as value', [big])).rows[0].value as string;
    report.bigValue = { sent: big.length, received: echoed.length, same: echoed === big };

    // Answers are not kept anywhere once sent: 300 answers of 1000 rows leave the heap where it was.
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 300; i++) await c.query(`select g, md5(g::text) from generate_series(1, 1000) g`);
    gc();
    report.heapGrowthMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20;

    // Maintenance: the new table was never analysed and >16 MiB of WAL were written since the last checkpoint.
    report.firstMaintenance = db.maintain();
    report.afterFirst = await one(c, `select (select reltuples from pg_class where relname = 'probe') as reltuples,
                                             (pg_current_wal_lsn() - redo_lsn)::float8 as wal_since_checkpoint from pg_control_checkpoint()`);
    await c.query(`insert into probe select g, repeat('z', 200) from generate_series(100001, 150000) g`);
    report.secondMaintenance = db.maintain();
    report.thirdMaintenance = db.maintain();
    await c.query('begin');
    report.maintenanceInTransaction = db.maintain() ?? null;

    // The client goes away inside a transaction: its writes are rolled back and the next client starts clean.
    await c.query('insert into probe values (0, $1)', ['uncommitted']);
    await c.end();
    c = await connect();
    report.afterAbandonedTransaction = await one(c, `select count(*)::int as uncommitted, current_setting('enable_seqscan') as seqscan from probe where id = 0`);
    // … and inside a failed one.
    await c.query('begin');
    await c.query('select 1/0').catch(() => {});
    await c.end();
    c = await connect();
    report.afterFailedTransaction = await one(c, 'select 1 as ok');
    await c.end();

    // A start-up packet sent a byte at a time is answered (an authentication request), and a client that leaves in
    // the middle of authentication leaves nothing behind for the next one.
    report.startupByBytes = await new Promise<string>((resolve, reject) => {
      const params = Buffer.from('user\0postgres\0database\0postgres\0\0', 'latin1');
      const packet = Buffer.alloc(8 + params.length);
      packet.writeInt32BE(packet.length, 0);
      packet.writeInt32BE(196608, 4);
      params.copy(packet, 8);
      const raw = createConnection(path.join(db.socketDir, '.s.PGSQL.5432'));
      raw.on('error', reject);
      raw.once('data', (answer) => { raw.destroy(); resolve(String.fromCharCode(answer[0])); });
      raw.on('connect', async () => {
        for (const byte of packet) {
          raw.write(Buffer.from([byte]));
          await new Promise((r) => setTimeout(r, 2));
        }
      });
    });
    await new Promise((r) => setTimeout(r, 50));
    c = await connect();
    report.afterHalfAuthenticated = await one(c, 'select 2 as ok');
    await c.end();
  } finally {
    await db.stop();
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
