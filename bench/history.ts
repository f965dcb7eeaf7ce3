/**
 * Time travel (issue 43) on the 1000-flag data set (bench/feature-model-data.ts) grown to 20,000 versions: changes
 * made with SQL in their own transactions (switches, a strategy's rollout, descriptions), each recording a version at
 * commit as an API change does. Prints:
 * - bytes per version (table and indexes over the number of versions; the average stored state);
 * - `GET …/features/:name?at=` (a flag at an instant) p50/p99 over HTTP, random flags and instants;
 * - the whole client answer of the project's production scope built in process, now (uncached: what a poll costs
 *   when the answer cache misses) and at an instant (from versions), p50/p99, and the same over HTTP;
 * - the flag's versions page (`…/versions`) p50.
 * The write path with versions on is `npm run bench:writes` (compare with a checkout before migration 0024).
 *
 * Usage: npm run bench:history [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [--versions 20000] [--requests 200]
 */
import { Client } from 'pg';
import { loadClientFeatures } from '../src/domain/client-features/client-features.read-model';
import { clientSnapshotAt } from '../src/domain/history/past-answers';
import { serializeAnswer, type ClientAnswerKey } from '../src/rest/sdk/client-answers';
import { seededRandom } from '../src/domain/playground/hashing';
import { percentile, startBenchApp, timedRequest } from './bench-app';
import { ENVIRONMENTS, FEATURES, PROJECT, featureName } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const target = Number(opt('--versions', '20000'));
const requests = Number(opt('--requests', '200'));

/** A deterministic sequence, so runs are comparable. */
const random = seededRandom(43);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];

const row = (label: string, times: number[]) => {
  times.sort((a, b) => a - b);
  console.log(`| ${label.padEnd(58)} | ${percentile(times, 50).toFixed(2).padStart(8)} ms | ${percentile(times, 99).toFixed(2).padStart(8)} ms |`);
};

async function main(): Promise<void> {
  const app = await startBenchApp(pgBase);
  console.log(`# history: ${app.describe}; node ${process.version}`);
  const db = new Client({ connectionString: app.url });
  await db.connect();
  const count = async () => Number((await db.query('select count(*) from feature_versions')).rows[0].count);
  const instants: string[] = [];
  const t0 = Date.now();
  let made = await count();
  const seeded = made;
  let attempts = 0;
  while (made < target) {
    const name = featureName(Math.floor(random() * FEATURES));
    const env = pick(ENVIRONMENTS);
    const kind = random();
    if (kind < 0.4) await db.query(`update feature_environments set enabled = not enabled where feature_name = $1 and environment = $2`, [name, env]);
    else if (kind < 0.8) {
      await db.query(`update feature_strategies set parameters = jsonb_set(parameters, '{rollout}', to_jsonb($3::text))
                       where id = (select id from feature_strategies where feature_name = $1 and environment = $2 order by sort_order limit 1)`,
      [name, env, String(Math.floor(random() * 101))]);
    } else await db.query(`update features set description = $2 where name = $1`, [name, `changed ${made}`]);
    attempts += 1;
    if (attempts % 100 === 0) instants.push(new Date().toISOString());
    // A change that leaves a flag as it was (the same rollout drawn again) records no version: count what was made.
    if (attempts % 500 === 0) made = await count();
  }
  made = await count();
  console.log(`${made} versions (${seeded} from seeding, the rest from ${attempts} single-flag changes, each its own transaction, in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  // As autovacuum would by then: the visibility map lets index-only scans skip the table.
  await db.query('vacuum analyze feature_versions');
  await db.query('analyze');
  const [size] = (await db.query(`select pg_total_relation_size('feature_versions') as total, pg_relation_size('feature_versions') as heap,
    (select avg(pg_column_size(state)) from feature_versions) as state, (select count(*) from feature_versions) as n`)).rows;
  console.log(`bytes per version: ${(Number(size.total) / Number(size.n)).toFixed(0)} with indexes and TOAST (${(Number(size.heap) / Number(size.n)).toFixed(0)} in the table's own pages; the stored state averages ${Number(size.state).toFixed(0)} bytes compressed)`);
  console.log('');
  console.log(`${requests} sequential requests or builds per row after 20 warm-up ones`);
  console.log('| what                                                       | p50         | p99         |');
  console.log('|------------------------------------------------------------|-------------|-------------|');

  const flagNow: number[] = [];
  for (let i = -20; i < requests; i++) {
    const { ms } = await timedRequest(app.base, 'flag now', { path: `/api/admin/projects/${PROJECT}/features/${featureName(Math.floor(random() * FEATURES))}` });
    if (i >= 0) flagNow.push(ms);
  }
  row('GET …/features/:name (the flag now, HTTP, for comparison)', flagNow);

  const flagAt: number[] = [];
  for (let i = -20; i < requests; i++) {
    const { ms } = await timedRequest(app.base, 'flag at an instant', { path: `/api/admin/projects/${PROJECT}/features/${featureName(Math.floor(random() * FEATURES))}?at=${encodeURIComponent(pick(instants))}` });
    if (i >= 0) flagAt.push(ms);
  }
  row('GET …/features/:name?at= (a flag at an instant, HTTP)', flagAt);

  const versions: number[] = [];
  for (let i = -20; i < requests; i++) {
    const { ms } = await timedRequest(app.base, 'versions', { path: `/api/admin/projects/${PROJECT}/features/${featureName(Math.floor(random() * FEATURES))}/versions` });
    if (i >= 0) versions.push(ms);
  }
  row('GET …/features/:name/versions (20 newest with diffs, HTTP)', versions);

  const key: ClientAnswerKey = { scope: { environment: 'production', projects: [PROJECT], tags: [] }, mode: 'separate' };
  const now: number[] = [];
  const past: number[] = [];
  const builds = Math.min(requests, 100);
  for (let i = -10; i < builds; i++) {
    let start = process.hrtime.bigint();
    serializeAnswer(await loadClientFeatures(app.orm.em.fork(), key.scope), key);
    if (i >= 0) now.push(Number(process.hrtime.bigint() - start) / 1e6);
    start = process.hrtime.bigint();
    serializeAnswer(await clientSnapshotAt(app.orm.em.fork(), key.scope, { at: new Date(pick(instants)) }), key);
    if (i >= 0) past.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  row('client answer now, built uncached (in process)', now);
  row('client answer at an instant, from versions (in process)', past);
  const pastHttp: number[] = [];
  for (let i = -10; i < builds; i++) {
    const { ms } = await timedRequest(app.base, 'client answer at', { path: `/api/admin/history/client-features?environment=production&projects=${PROJECT}&at=${encodeURIComponent(pick(instants))}` });
    if (i >= 0) pastHttp.push(ms);
  }
  row('GET /api/admin/history/client-features?at= (HTTP)', pastHttp);
  await db.end();
  await app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
