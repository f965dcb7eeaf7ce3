/**
 * The slowest GraphQL requests that fit the cost budget (issue 8, defect 8): for each shape, its cost, time per
 * request, the process's peak RSS while it runs, and the latency of a bystander's GET /health sent every 25 ms
 * meanwhile. Data: the feature-model set (1000 features, 4 strategies each) plus audit events up to 50,000.
 *
 *   npm run bench:graphql                       # embedded database (in memory)
 *   npm run bench:graphql -- --pg postgresql://postgres@127.0.0.1:5432/postgres
 *   options: --runs N (default 3)
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse, validate } from 'graphql';
import { buildApp } from '../src/app';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { benchDatabase, fillEvents, migrateAndSeed } from './bench-app';
import { buildSchema } from '../src/resolvers';
import { costRule, DEFAULT_MAX_COST } from '../src/resolvers/limits';
import { featureName, PROJECT } from './feature-model-data';

const TOKEN = '*:*.bench-graphql-token';
const EVENTS = 50_000;
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const runs = Number(arg('--runs') ?? 3);
const pgBase = arg('--pg');

const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
const userIds = Array.from({ length: 15 }, (_, i) => `u${i}`).join(',');
const SHAPES: Array<{ label: string; query: string }> = [
  { label: '30 aliases × events(first: 1000) { totalCount }', query: aliases(30, 'events(first: 1000) { totalCount }') },
  { label: '30 aliases × events(first: 1000) { totalCount }, each its own feature filter', query: `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: events(first: 1000, filter: { feature: "${featureName(i)}" }) { totalCount }`).join(' ')} }` },
  { label: '10 aliases × events(first: 1000) full nodes, each its own cursor', query: `{ ${Array.from({ length: 10 }, (_, i) => `a${i}: events(first: 1000, after: "${Buffer.from(`event:${EVENTS - i * 1000}`).toString('base64url')}") { edges { node { id type createdBy project data } } }`).join(' ')} }` },
  { label: 'advancedPlayground, 1000 features × 15 contexts (15,000)', query: `{ advancedPlayground(input: { environments: ["development"], projects: ["${PROJECT}"], context: { appName: "a", userId: "${userIds}" } }) { name environments { environment entries { context evaluation { isEnabled } } } } }` },
  { label: '15 aliases × advancedPlayground, 1000 combinations each (limit shared)', query: aliases(15, `advancedPlayground(input: { environments: ["development"], projects: ["${PROJECT}"], context: { appName: "a", userId: "u1" } }) { name }`) },
  { label: '30 aliases × playground, 1000 features each', query: aliases(30, `playground(input: { environment: "production", projects: ["${PROJECT}"], context: { appName: "a", userId: "u1" } }) { name isEnabled }`) },
  { label: 'project features(first: 600) with strategies', query: `{ project(id: "${PROJECT}") { features(first: 600) { nodes { name environments { name enabled strategies { name parameters constraints { contextName operator values } variants { name } } } } } } }` },
];


async function main(): Promise<void> {
  const db = await benchDatabase(pgBase, 'gql');
  let total = 0;
  await migrateAndSeed(db.url, async (seed) => {
    await fillEvents(seed, EVENTS);
    total = (await seed.query('select count(*)::int as total from events')).rows[0].total;
  });
  const orm = await openOrm({ url: db.url, poolMax: pgBase ? 10 : 1, holdConnection: !pgBase });
  await ensureAdminTokens(orm.em, [TOKEN]);
  const app = buildApp({ orm, logger: createLogger('silent') });
  const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  console.log(`# ${db.describe}; ${featureName(999).replace(/\d+$/, '')}* × 1000 features, ${total} events; budget ${DEFAULT_MAX_COST}; ${runs} runs per shape`);
  console.log('| shape | cost | median ms | max ms | peak RSS MB (before → peak) | bystander /health median / max ms |');
  console.log('|---|---|---|---|---|---|');
  const schema = buildSchema();
  for (const shape of SHAPES) {
    const [costError] = validate(schema, parse(shape.query), [costRule({ context: {} }, { maxCost: 0 })]);
    const cost = /costs (\d+)/.exec(costError?.message ?? '')?.[1] ?? '?';
    const send = async () => {
      const t = performance.now();
      const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ query: shape.query }) });
      const body = (await res.json()) as { errors?: Array<{ message: string }> };
      if (res.status !== 200 || body.errors) throw new Error(`${shape.label}: ${res.status} ${body.errors?.[0]?.message}`);
      return performance.now() - t;
    };
    await send(); // warm-up
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    const bystander: number[] = [];
    let running = true;
    const watcher = (async () => {
      while (running) {
        const t = performance.now();
        await (await fetch(`${base}/health`)).text();
        bystander.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await send());
    running = false;
    await watcher;
    clearInterval(sampler);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const med = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
    const mb = (b: number) => Math.round(b / 1e6);
    console.log(`| ${shape.label} | ${cost} | ${med(times).toFixed(0)} | ${Math.max(...times).toFixed(0)} | ${mb(rssBefore)} → ${mb(peak)} | ${med(bystander).toFixed(0)} / ${Math.max(...bystander).toFixed(0)} |`);
  }
  await new Promise((r) => server.close(r));
  await orm.close(true);
  await db.close();
}

main().catch((err) => { console.error(err); process.exit(1); });
