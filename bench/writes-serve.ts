/**
 * One side of bench/writes-ab.ts: the app of the checkout at `--root` (its own source, migrations and seed), on a
 * fresh database seeded as bench/writes.ts seeds it, served on a free port. Run as a child process with IPC: it sends
 * `{ base }` once listening, answers 'cpu' with its process CPU in ms, and closes everything on 'stop'.
 *
 * Usage (by writes-ab.ts): tsx bench/writes-serve.ts --root DIR --db pg|embedded --pg URL --token TOKEN
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name: string) => args[args.indexOf(name) + 1];
const root = path.resolve(opt('--root'));
const kind = opt('--db') as 'pg' | 'embedded';
const token = opt('--token');

async function main(): Promise<void> {
  // The checkout's own modules: what is measured is its code, not this one's.
  const from = (file: string) => import(path.join(root, file));
  const { benchDatabase, migrateAndSeed } = await from('bench/bench-app.ts');
  const { openOrm } = await from('src/db/orm.ts');
  const { ensureAdminTokens } = await from('src/domain/access/api-token.service.ts');
  const { buildApp } = await from('src/app.ts');
  const { EventHub } = await from('src/domain/events/event-hub.ts');
  const { listenForEvents } = await from('src/domain/events/event-listener.ts');
  const { createLogger } = await from('src/logger.ts');

  const db = await benchDatabase(kind === 'pg' ? opt('--pg') : undefined, 'writesab', true);
  await migrateAndSeed(db.url, async (seed: { query(sql: string): Promise<unknown> }) => {
    await seed.query(`insert into project_environments (project_id, environment_name) values ('default', 'production') on conflict do nothing`);
  });
  const orm = await openOrm({ url: db.url, poolMax: kind === 'pg' ? 10 : 1, holdConnection: kind === 'embedded' });
  await ensureAdminTokens(orm.em, [token]);
  // As src/server.ts runs: commits announced by NOTIFY on PostgreSQL, in process on the embedded database.
  const logger = createLogger('silent');
  const eventHub = new EventHub(kind === 'pg' ? 'notify' : 'local');
  const listener = kind === 'pg' ? listenForEvents(orm, db.url, eventHub, logger) : undefined;
  await listener?.ready;
  const app = buildApp({ orm, logger, eventHub });
  const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  process.on('message', async (m) => {
    if (m === 'cpu') { const u = process.cpuUsage(); process.send!({ cpuMs: (u.user + u.system) / 1000 }); return; }
    if (m !== 'stop') return;
    await new Promise((r) => server.close(r));
    await app.close();
    eventHub.close();
    await listener?.stop();
    await orm.close(true);
    await db.close();
    process.exit(0);
  });
  process.send!({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, describe: db.describe });
}

main().catch((err) => { console.error(err); process.exit(1); });
