/**
 * Issue 42's figures: the real service on a PostgreSQL server of its own, under load, through a fast shutdown and a
 * network cut (the scenario of test/e2e/database-outage-acceptance.test.ts, test/support/outage-load.ts). Prints how
 * long after PostgreSQL is back writes succeed, and what SDK polls, frontend calls and writes took during the outage.
 *
 *   npm run bench:outage [-- --outage-ms 7000 --runs 3]
 */
import { percentiles, runOutage, type Answer, type OutageKind, type OutageReport } from '../test/support/outage-load';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const outageMs = arg('outage-ms', 7000);
const runs = arg('runs', 3);

const within = (r: OutageReport, answers: Answer[]) => answers.filter((a) => a.at >= r.outageAt && a.at < r.backAt);
const fmt = ({ p50, p95, max, n }: ReturnType<typeof percentiles>) => `p50 ${p50} ms, p95 ${p95} ms, max ${max} ms (n=${n})`;

async function main() {
  for (const kind of ['stop', 'cut'] as OutageKind[]) {
    const firstWrites: number[] = [];
    const polls: number[] = [];
    const frontend: number[] = [];
    const writes: number[] = [];
    const statuses = new Map<string, number>();
    for (let i = 0; i < runs; i++) {
      const r = await runOutage(kind, outageMs);
      firstWrites.push(r.firstWriteMs);
      polls.push(...within(r, r.polls).map((a) => a.ms));
      frontend.push(...within(r, r.frontend).map((a) => a.ms));
      writes.push(...within(r, r.writes).map((a) => a.ms));
      for (const a of within(r, r.polls)) statuses.set(`poll ${a.status}`, (statuses.get(`poll ${a.status}`) ?? 0) + 1);
      for (const a of within(r, r.writes)) statuses.set(`write ${a.status}`, (statuses.get(`write ${a.status}`) ?? 0) + 1);
    }
    console.log(`\n== ${kind === 'stop' ? 'pg_ctl stop -m fast' : 'network cut (connections hang)'}, ${outageMs} ms, ${runs} runs`);
    console.log(`first write after PostgreSQL is back: ${firstWrites.join(', ')} ms`);
    console.log(`SDK polls during the outage:      ${fmt(percentiles(polls))}`);
    console.log(`frontend calls during the outage: ${fmt(percentiles(frontend))}`);
    console.log(`writes during the outage:         ${fmt(percentiles(writes))}`);
    console.log(`answers during the outage: ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
