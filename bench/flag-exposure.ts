/**
 * The flag page with a 30-day exposure chart (issue 44, Speed), in Chromium against the real service (`npm start`'s
 * embedded database in a data folder): the feature-model data set (1000 flags of 4 strategies, bench/feature-model-data.ts)
 * plus 30 days of hourly SDK counts for one flag (5 applications × 2 environments, with variants) and its changes in
 * the audit log, written before the service starts. Prints, over runs, a full load of
 * `/projects/bench/features/feature-0000?range=30d` (and `&per=day`) until every environment's chart is drawn (goal
 * ≤ 1 s), by the page's clock from the navigation's start and as the driver saw it, and the slowest GraphQL request;
 * with no HTTP cache (as the test harness opens pages) and with the UI's files cached (a returning user).
 * Not a test: it prints figures.   npx tsx bench/flag-exposure.ts [--runs 7]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startEmbeddedDatabase } from '../src/db/embedded';
import { ADMIN_PASSWORD, signIn, startUi } from '../test/support/ui-browser';
import { migrateAndSeed } from './bench-app';
import { PROJECT } from './feature-model-data';
import { figureLine } from './figures';

const arg = (name: string, fallback: number) => { const i = process.argv.indexOf(name); return i > 0 ? Number(process.argv[i + 1]) : fallback; };
const RUNS = arg('--runs', 7);
const FLAG = 'feature-0000';

const line = figureLine(62);

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
    // As the test harness opens pages (its request filter turns Chromium's HTTP cache off: every file fetched again),
    // and as a returning user's browser does, the UI's hashed files cached.
    const returning = await ui.browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: ui.base });
    const pages = { 'no HTTP cache': ui.page, 'files cached': await returning.newPage() };
    for (const page of Object.values(pages)) {
      // The page's own clock: when, after the navigation started, the flag's heading and each environment's drawn
      // chart first appeared (what the user sees, without the driver's polling in it).
      await page.addInitScript({ content: `
        window.__shown = {};
        new MutationObserver(() => {
          const shown = window.__shown;
          if (!shown.heading && document.querySelector('h1')) shown.heading = performance.now();
          if (!shown.charts && document.querySelectorAll('figure[data-environment] [data-chart][data-drawn]').length >= 2) shown.charts = performance.now();
        }).observe(document, { subtree: true, childList: true, attributes: true });` });
      await signIn(page, 'admin', ADMIN_PASSWORD);
      await page.waitForURL(/\/projects$/);
    }
    const load = async (page: Page, query: string) => {
      const times: number[] = [];
      const inPage: number[] = [];
      const requests: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        await page.goto('about:blank');
        const t = performance.now();
        await page.goto(`/projects/${PROJECT}/features/${FLAG}?${query}`);
        await page.getByRole('heading', { level: 1, name: FLAG }).waitFor();
        for (const env of ['development', 'production']) await page.locator(`figure[data-environment="${env}"] [data-chart][data-drawn]`).waitFor({ timeout: 30_000 });
        times.push(performance.now() - t);
        inPage.push(await page.evaluate(() => (window as unknown as { __shown: { charts: number } }).__shown.charts));
        requests.push(await page.evaluate(() => {
          const entries = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/graphql')) as PerformanceResourceTiming[];
          return Math.max(...entries.map((e) => e.duration));
        }));
      }
      return { times, inPage, requests };
    };
    const figures: Array<[string, Awaited<ReturnType<typeof load>>]> = [];
    for (const [label, page] of Object.entries(pages)) {
      figures.push([`${label}, per hour`, await load(page, 'range=30d')], [`${label}, per day`, await load(page, 'range=30d&per=day')]);
    }
    console.log(`\n| measure (30 days × 5 applications × 2 environments, 40 changes) | runs | p50 | max | goal |\n|---|---|---|---|---|`);
    for (const [label, { times, inPage, requests }] of figures) {
      line(`flag page, 30-day chart (${label}): drawn`, inPage, '≤ 1000 ms');
      line('  the same, as the driver saw it (goto until found)', times, '');
      line('  its slowest GraphQL request', requests, '');
    }
  } finally {
    await ui.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
