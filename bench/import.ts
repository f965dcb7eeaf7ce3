/**
 * Batch import (issue 13) at size: 1000 features with 4000 strategies (4 per feature: 2–3 constraints and 2 variants
 * each), environment variants on half of them and a tag on every tenth, exported from the feature-model data set
 * (bench/feature-model-data.ts), the source features deleted (names are unique per instance), and imported into an
 * empty project through the real app over HTTP, in one transaction.
 * Prints the time of: the export, validation, the first import (everything created), the same import again (nothing
 * changes), and an import where every strategy changed (4000 removed, 4000 added); with the payload size and the
 * events each import wrote.
 *
 *   npm run bench:import                                  # embedded database (in memory)
 *   npm run bench:import -- --pg postgresql://postgres@127.0.0.1:5432/postgres
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { benchDatabase } from './bench-app';
import { PROJECT, seedFeatureModel } from './feature-model-data';

const TOKEN = '*:*.bench-import-token';
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const pgBase = arg('--pg');


async function main(): Promise<void> {
  const db = await benchDatabase(pgBase, 'import');
  const migrate = await openOrm({ url: db.url, poolMax: 1 });
  await migrate.close(true);
  const seed = new Client({ connectionString: db.url });
  await seed.connect();
  await seedFeatureModel(seed);
  await seed.query(`insert into projects (id, name) values ('imported', 'Imported')`);
  await seed.query(`insert into project_environments (project_id, environment_name) values ('imported', 'development'), ('imported', 'production')`);
  await seed.end();
  const orm = await openOrm({ url: db.url, poolMax: pgBase ? 10 : 1, holdConnection: !pgBase });
  await ensureAdminTokens(orm.em, [TOKEN]);
  const app = buildApp({ orm, logger: createLogger('silent'), importBodyLimit: '50mb' });
  const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (path: string, body: unknown): Promise<{ ms: number; body: any }> => {
    const t = performance.now();
    const res = await fetch(base + path, { method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 400)}`);
    return { ms, body: JSON.parse(text) };
  };
  const events = async () => Number((await orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from events'))[0].n);
  try {
    const exported = await call('/api/admin/features-batch/export', { project: PROJECT, environment: 'production' });
    // The data set has 2 strategies per feature and environment: the production ones, twice (4 per feature).
    const data = exported.body;
    const doubled = data.featureStrategies.map((s: any) => ({ ...s, id: undefined, sortOrder: s.sortOrder + 10, parameters: { ...s.parameters, groupId: `${s.featureName}-2` } }));
    data.featureStrategies = [...data.featureStrategies, ...doubled];
    const payload = { project: 'imported', environment: 'production', data };
    // Feature names are unique on an instance: the source features go, as when the payload is taken to another instance.
    await orm.em.fork().execute(`delete from features where project = ?`, [PROJECT]);
    const size = JSON.stringify(payload).length;
    console.log(`# ${db.describe}; ${data.features.length} features, ${data.featureStrategies.length} strategies, ${data.featureEnvironments.filter((e: any) => e.variants.length).length} with environment variants, ${data.featureTags.length} tags; payload ${(size / 1e6).toFixed(2)} MB`);
    console.log('| step | ms | events written |');
    console.log('|---|---|---|');
    console.log(`| export (${data.features.length} features) | ${exported.ms.toFixed(0)} | 1 |`);
    const row = async (label: string, path: string, body: unknown, check?: (b: any) => void) => {
      const before = await events();
      const r = await call(path, body);
      check?.(r.body);
      console.log(`| ${label} | ${r.ms.toFixed(0)} | ${(await events()) - before} |`);
    };
    await row('validate (all new)', '/api/admin/features-batch/validate', payload, (b) => { if (b.errors.length) throw new Error(JSON.stringify(b.errors).slice(0, 400)); });
    await row('import: 1000 features, 4000 strategies created', '/api/admin/features-batch/import', payload);
    await row('validate (all unchanged)', '/api/admin/features-batch/validate', payload);
    await row('import again: nothing changes', '/api/admin/features-batch/import', payload, (b) => { if (b.changes.some((c: any) => c.action !== 'unchanged')) throw new Error('not idempotent'); });
    const changed = { ...payload, data: { ...data, featureStrategies: data.featureStrategies.map((s: any) => ({ ...s, title: 'changed' })) } };
    await row('import: every strategy changed (4000 removed, 4000 added)', '/api/admin/features-batch/import', changed);
    const [{ n }] = await orm.em.fork().execute<Array<{ n: number }>>(`select count(*)::int as n from feature_strategies where project = 'imported'`);
    console.log(`# strategies in the imported project afterwards: ${n}; RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
  } finally {
    await new Promise((r) => server.close(r));
    await orm.close(true);
    await db.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
