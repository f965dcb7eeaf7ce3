/**
 * Calibration of the GraphQL cost model (src/resolvers/cost.ts) against measured work: for each shape of request, its
 * estimated cost, the wall time and this process's CPU per request (the app, the driver and, on the embedded database,
 * PGlite all run here), and the time per 1000 cost units. A well calibrated model gives about the same time per 1000
 * units whatever the shape, so that a request at the budget takes about the same time whatever it asks for.
 * Data: the feature-model set (1000 features, 4 strategies each) plus audit events up to 50,000. The response cache is
 * off (every request runs), and the shapes are measured in turn, round after round, so a change in load hits all.
 *
 *   npm run bench:graphql-cost                          # PostgreSQL at DATABASE_URL or 127.0.0.1:5432
 *   npm run bench:graphql-cost -- --db embedded         # the embedded database (in memory)
 *   options: --pg URL, --requests N (per shape and round, default 5), --rounds N (default 2), --only REGEX
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { parse, validate } from 'graphql';
import { buildApp } from '../src/app';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { buildSchema } from '../src/resolvers';
import { costRule, DEFAULT_MAX_COST } from '../src/resolvers/limits';
import { benchDatabase, fillEvents, migrateAndSeed, percentile } from './bench-app';
import { FEATURE_LIST_QUERY, FEATURE_QUERY, featureName, PROJECT } from './feature-model-data';

const TOKEN = '*:*.bench-graphql-cost-token';
const EVENTS = 50_000;
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const kind = (arg('--db') ?? 'pg') as 'pg' | 'embedded';
const pgBase = arg('--pg') ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const requests = Number(arg('--requests') ?? 5);
const rounds = Number(arg('--rounds') ?? 2);
const only = arg('--only') ? new RegExp(arg('--only') as string, 'i') : undefined;

const aliases = (n: number, field: (i: number) => string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field(i)}`).join(' ')} }`;
const cursor = (i: number) => Buffer.from(`event:${EVENTS - i * 1000}`).toString('base64url');
const STRATEGY = 'name parameters constraints { contextName operator values inverted caseInsensitive } variants { name weight stickiness }';

const SHAPES: Array<{ label: string; query: string }> = [
  { label: 'dashboard: project features(first: 1000), envs, strategies, constraints, variants', query: FEATURE_QUERY },
  { label: 'feature list: project features(first: 1000), list fields, envs, tags', query: FEATURE_LIST_QUERY },
  { label: 'features(first: 1000) { nodes { name } } (root)', query: '{ features(first: 1000) { nodes { name } } }' },
  { label: 'features(first: 1000), envs, strategies (root)', query: `{ features(first: 1000) { nodes { name environments { name enabled strategies { ${STRATEGY} } } } } }` },
  { label: 'feature(name) × 30 aliases, envs, strategies', query: aliases(30, (i) => `feature(name: "${featureName(i * 31)}") { name environments { name strategies { ${STRATEGY} } } }`) },
  { label: 'events(first: 1000) full nodes × 10 aliases, own cursors', query: aliases(10, (i) => `events(first: 1000, after: "${cursor(i)}") { edges { node { id type createdBy project featureName data createdAt } } }`) },
  { label: 'events(first: 1000) { totalCount } × 30 aliases', query: aliases(30, () => 'events(first: 1000) { totalCount }') },
  { label: 'events(first: 100) full nodes × 10 aliases, own cursors', query: aliases(10, (i) => `events(first: 100, after: "${cursor(i)}") { nodes { id type createdBy project featureName data createdAt } }`) },
  { label: 'features(first: 100) { events(first: 20) } (feature events)', query: '{ features(first: 100) { nodes { name events(first: 20) { nodes { id type data createdAt } } } } }' },
  { label: 'projects { features(first: 1000) { nodes { name } } featureCount environments }', query: '{ projects { id name featureCount environments { environment } features(first: 1000) { nodes { name type } } } }' },
  { label: 'segments, context fields, environments, tags, feature types', query: '{ segments { id name constraints { contextName values } } contextFields { name } environments { name type } tags { type value } featureTypes { id name } }' },
  { label: 'playground × 10 aliases, 1000 features each', query: aliases(10, () => `playground(input: { environment: "production", projects: ["${PROJECT}"], context: { appName: "a", userId: "u1" } }) { name isEnabled }`) },
  { label: 'advancedPlayground, 1000 features × 5 contexts', query: `{ advancedPlayground(input: { environments: ["development"], projects: ["${PROJECT}"], context: { appName: "a", userId: "u1,u2,u3,u4,u5" } }) { name environments { environment entries { context evaluation { isEnabled } } } } }` },
  { label: 'project healthReport × 10 aliases', query: aliases(10, () => `project(id: "${PROJECT}") { healthReport { health potentiallyStaleCount } }`) },
];

async function main(): Promise<void> {
  const db = await benchDatabase(kind === 'pg' ? pgBase : undefined, 'gqlcost');
  await migrateAndSeed(db.url, (seed) => fillEvents(seed, EVENTS));
  const orm = await openOrm({ url: db.url, poolMax: kind === 'pg' ? 10 : 1, holdConnection: kind === 'embedded' });
  await ensureAdminTokens(orm.em, [TOKEN]);
  const app = buildApp({ orm, logger: createLogger('silent'), graphqlMaxCost: 10_000_000, graphqlResponseCache: false });
  const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const schema = buildSchema();
  const shapes = SHAPES.filter((s) => !only || only.test(s.label)).map((shape) => {
    const [costError] = validate(schema, parse(shape.query), [costRule({ context: {} }, { maxCost: 0 })]);
    const cost = Number(/costs (\d+)/.exec(costError?.message ?? '')?.[1] ?? NaN);
    return { ...shape, cost, times: [] as number[], cpu: [] as number[] };
  });
  const send = async (query: string, label: string) => {
    const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = (await res.json()) as { errors?: Array<{ message: string }> };
    if (res.status !== 200 || body.errors) throw new Error(`${label}: ${res.status} ${body.errors?.[0]?.message}`);
  };
  for (const s of shapes) for (let i = 0; i < 3; i++) await send(s.query, s.label); // warm-up: compiled, caches filled
  for (let round = 0; round < rounds; round++) {
    for (const s of shapes) {
      for (let i = 0; i < requests; i++) {
        const cpu = process.cpuUsage();
        const t = performance.now();
        await send(s.query, s.label);
        s.times.push(performance.now() - t);
        const used = process.cpuUsage(cpu);
        s.cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  console.log(`# ${db.describe}; 1000 features, ${EVENTS} events; budget ${DEFAULT_MAX_COST}; ${rounds} rounds × ${requests} requests per shape; response cache off; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; node ${process.version}`);
  console.log('| shape | cost | wall p50 ms | CPU p50 ms | wall ms per 1000 cost | CPU ms per 1000 cost | wall ms at the budget |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const s of shapes) {
    const wall = percentile([...s.times].sort((a, b) => a - b), 50);
    const cpu = percentile([...s.cpu].sort((a, b) => a - b), 50);
    const per = (ms: number) => (ms / s.cost) * 1000;
    console.log(`| ${s.label} | ${s.cost} | ${wall.toFixed(1)} | ${cpu.toFixed(1)} | ${per(wall).toFixed(2)} | ${per(cpu).toFixed(2)} | ${(per(wall) * DEFAULT_MAX_COST / 1000).toFixed(0)} |`);
  }
  await new Promise((r) => server.close(r));
  await app.close();
  await orm.close(true);
  await db.close();
}

main().catch((err) => { console.error(err); process.exit(1); });
