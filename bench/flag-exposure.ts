/**
 * The flag page with a 30-day exposure chart (issue 44, Speed), in Chromium against the real service (`npm start`'s
 * embedded database in a data folder): the feature-model data set (1000 flags of 4 strategies, bench/feature-model-data.ts)
 * plus 30 days of hourly SDK counts for one flag (5 applications × 2 environments, with variants) and its changes in
 * the audit log, written before the service starts. Prints, over runs, a full load of
 * `/projects/bench/features/feature-0000?range=30d` (and `&per=day`) until the flag's heading and every environment's
 * chart are drawn with their bars (goal ≤ 1 s), and the GraphQL exposure request's own time.
 * Not a test: it prints figures.   npx tsx bench/flag-exposure.ts [--runs 7]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase } from '../src/db/embedded';
import { ADMIN_PASSWORD, signIn, startUi } from '../test/support/ui-browser';
import { migrateAndSeed } from './bench-app';
import { PROJECT } from './feature-model-data';

const arg = (name: string, fallback: number) => { const i = process.argv.indexOf(name); return i > 0 ? Number(process.argv[i + 1]) : fallback; };
const RUNS = arg('--runs', 7);
const FLAG = 'feature-0000';

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const p = (xs: number[], q: number) => { const s = sorted(xs); return s[Math.min(s.length - 1, Math.ceil((q / 100) * s.length) - 1)]; };
const line = (label: string, xs: number[], goal: string) =>
  console.log(`| ${label.padEnd(50)} | ${String(xs.length).padStart(4)} | ${p(xs, 50).toFixed(1).padStart(8)} ms | ${Math.max(...xs).toFixed(1).padStart(8)} ms | ${goal.padEnd(10)} |`);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-bench-exposure-'));
  const dataDir = path.join(dir, 'data');
  const db = await startEmbeddedDatabase(path.join(dataDir));
  await migrateAndSeed(db.url, async (seed) => {
    await seed.query(`insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no)
      select $1, 'app-' || a, e, date_trunc('hour', now()) - make_interval(hours => h), 50 + (h * 7 + a) % 40, 10 + (h * 3 + a) % 20
        from generate_series(0, 719) h, generate_series(1, 5) a, unnest(array['development', 'production']) e`, [FLAG]);
    await seed.query(`insert into client_metrics_hourly_variants (feature_name, app_name, environment, hour, variant, count)
      select feature_name, app_name, environment, hour, v, yes / 2 from client_metrics_hourly, unnest(array['blue', 'green']) v where feature_name = $1`, [FLAG]);
    await seed.query(`insert into events (type, created_by, project, environment, feature_name, data, created_at)
      select (array['feature-environment-enabled', 'feature-environment-disabled', 'feature-strategy-update'])[1 + g % 3], 'bench', $2, 'production', $1,
             '{}'::jsonb, now() - make_interval(hours => g * 17) from generate_series(1, 40) g`, [FLAG, PROJECT]);
  });
  await db.stop();
  const ui = await startUi({ DATA_DIR: dataDir });
  try {
    const { page } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);
    const load = async (query: string) => {
      const times: number[] = [];
      const requests: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        await page.goto('about:blank');
        const t = performance.now();
        await page.goto(`/projects/${PROJECT}/features/${FLAG}?${query}`);
        await page.getByRole('heading', { level: 1, name: FLAG }).waitFor();
        for (const env of ['development', 'production']) await page.locator(`figure[data-environment="${env}"] [data-chart][data-drawn]`).waitFor({ timeout: 30_000 });
        times.push(performance.now() - t);
        requests.push(await page.evaluate(() => {
          const entries = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/graphql')) as PerformanceResourceTiming[];
          return Math.max(...entries.map((e) => e.duration));
        }));
      }
      return { times, requests };
    };
    const hourly = await load('range=30d');
    const daily = await load('range=30d&per=day');
    console.log(`\n| measure (30 days × 5 applications × 2 environments, 40 changes) | runs | p50 | max | goal |\n|---|---|---|---|---|`);
    line('flag page, 30-day chart per hour: drawn', hourly.times, '≤ 1000 ms');
    line('  its slowest GraphQL request', hourly.requests, '');
    line('flag page, 30-day chart per day: drawn', daily.times, '≤ 1000 ms');
    line('  its slowest GraphQL request', daily.requests, '');
  } finally {
    await ui.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
