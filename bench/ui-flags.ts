/**
 * The web UI's flag list at 1000 flags, measured in Chromium (issue 28, Speed): the real service on a fresh embedded
 * database (test/support/ui-browser.ts), a project of 1000 flags seeded through GraphQL as admin, signed in as admin.
 * Prints, over several runs:
 * - navigation: a full page load of /projects/<p> until the rows show and a search has filtered them (goal ≤ 1 s);
 * - search: a change of the search box until the rows show the result, timed inside the page;
 * - switch: a click on a switch until the server's GraphQL answer arrived, timed inside the page (goal p50 ≤ 100 ms);
 * - scroll: the whole list scrolled top to bottom, 240 px per frame by default, each frame's time from requestAnimationFrame
 *   (goal: no frame over 25 ms; --step sets the pixels per frame);
 * - bundle: the gzipped JavaScript of the first route (the scripts dist/web/index.html loads; goal ≤ 300 kB) and
 *   of everything the flag page loads.
 * Not a test: it prints figures.   npx tsx bench/ui-flags.ts [--runs 7] [--clicks 24] [--flags 1000] [--step 240]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ADMIN_PASSWORD, signIn, startUi } from '../test/support/ui-browser';
import { seededName, seedFlags } from '../test/support/ui-seed';
import { figureLine } from './figures';

const arg = (name: string, fallback: number) => { const i = process.argv.indexOf(name); return i > 0 ? Number(process.argv[i + 1]) : fallback; };
const RUNS = arg('--runs', 7);
const CLICKS = arg('--clicks', 24);
const FLAGS = arg('--flags', 1000);
/** Pixels scrolled per frame (240 at 60 frames a second: 14,400 px/s, a hard fling). */
const STEP = arg('--step', 240);
const PROJECT = 'bench';
const PREFIX = 'feature';

const line = figureLine(44);

async function main(): Promise<void> {
  const ui = await startUi();
  try {
    const { page } = ui;
    let t = performance.now();
    await ui.admin(`mutation { createProject(input: { id: "${PROJECT}", name: "Bench" }) { id } }`);
    await seedFlags(ui.admin, PROJECT, FLAGS, { prefix: PREFIX, environments: ['development', 'production'] });
    console.log(`# seeded ${FLAGS} flags (2 environments, a tag on every 10th, every 13th stale) through GraphQL in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    // tsx keeps function names with a `__name` helper that the functions handed to page.evaluate do not carry along.
    await page.context().addInitScript({ content: 'window.__name = (f) => f;' });
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);

    // JavaScript of the route: what the page fetches, gzipped as served.
    const scripts = new Map<string, number>();
    page.on('response', async (r) => {
      if (r.url().endsWith('.js')) scripts.set(r.url(), gzipSync(await r.body().catch(() => Buffer.alloc(0)), { level: 9 }).length);
    });

    const last = seededName(PREFIX, FLAGS - 1);
    const navigation: number[] = [];
    const listQuery: number[] = [];
    const search = page.getByRole('textbox', { name: 'Search flags' });
    for (let run = 0; run < RUNS; run++) {
      await page.goto('about:blank');
      t = performance.now();
      await page.goto(`/projects/${PROJECT}`);
      await page.getByRole('link', { name: seededName(PREFIX, 0) }).waitFor();
      await search.fill(last);
      await page.getByText(`1 of ${FLAGS} flags`).waitFor();
      await page.getByRole('link', { name: last }).waitFor();
      navigation.push(performance.now() - t);
      listQuery.push(await page.evaluate(() => {
        const entries = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/graphql')) as PerformanceResourceTiming[];
        // The largest answer of the page load is the list's.
        return entries.sort((a, b) => b.transferSize - a.transferSize)[0]?.duration ?? NaN;
      }));
    }

    // Search: set the box's value as typing does and wait, inside the page, for the frame that shows the new rows.
    await search.fill('');
    await page.getByText(`${FLAGS} flags`, { exact: true }).waitFor();
    const terms = ['feature-05', 'feature-051', 'feature-0512', 'feature-05', 'feature', '99', 'x-none', ''];
    const searchTimes: number[] = [];
    for (let run = 0; run < Math.max(2, Math.ceil(RUNS / 2)); run++) {
      for (const term of terms) {
        searchTimes.push(await page.evaluate(async (value) => {
          const input = [...document.querySelectorAll('input')].find((i) => i.labels?.[0]?.textContent === 'Search flags')!;
          const counter = () => [...document.querySelectorAll('p')].find((x) => /^\d+( of \d+)? flags$/.test(x.textContent ?? ''))?.textContent;
          const before = counter();
          const start = performance.now();
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          // The counter and the rows change in the same commit (consecutive terms have different counts).
          for (let i = 0; i < 600 && counter() === before; i++) await new Promise((r) => requestAnimationFrame(r));
          return performance.now() - start;
        }, term));
      }
    }

    // Switch clicks: from the click event to the GraphQL answer, timed by the page's own clock.
    await search.fill(seededName(PREFIX, 1));
    const toggle = page.getByRole('switch', { name: `${seededName(PREFIX, 1)} in development` });
    await toggle.waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => {
      const w = window as unknown as { __clicks: number[]; __lastClick: number; fetch: typeof fetch };
      w.__clicks = [];
      document.addEventListener('click', () => { w.__lastClick = performance.now(); }, true);
      const original = w.fetch.bind(window);
      w.fetch = async (input, init) => {
        const response = await original(input, init);
        if (typeof init?.body === 'string' && init.body.includes('ProjectFlagsSetEnabled')) w.__clicks.push(performance.now() - w.__lastClick);
        return response;
      };
    });
    for (let i = 0; i < CLICKS; i++) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('ProjectFlagsSetEnabled'));
      await toggle.click();
      await answered;
      await page.waitForFunction((n) => (window as unknown as { __clicks: number[] }).__clicks.length >= n, i + 1);
    }
    const clicks = await page.evaluate(() => (window as unknown as { __clicks: number[] }).__clicks);

    // The machine's own frame rate with nothing happening (a baseline: the machine is shared), then scrolling the
    // whole list, frame by frame.
    const idle = await page.evaluate(async () => {
      const times: number[] = [];
      let previous = performance.now();
      for (let i = 0; i < 120; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        times.push(now - previous);
        previous = now;
      }
      return times;
    });
    await search.fill('');
    await page.getByText(`${FLAGS} flags`, { exact: true }).waitFor();
    const frames: number[] = [];
    const scrollRuns: string[] = [];
    for (let run = 0; run < 3; run++) {
      const result = await page.evaluate(async (step) => {
        const el = document.querySelector<HTMLElement>('[data-testid="flag-scroll"]')!;
        el.scrollTop = 0;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const times: number[] = [];
        let previous = performance.now();
        while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
          el.scrollTop += step;
          await new Promise((r) => requestAnimationFrame(r));
          const now = performance.now();
          times.push(now - previous);
          previous = now;
        }
        const lastRow = el.querySelector('tbody tr:not([aria-hidden]):last-of-type a')?.textContent;
        return { times, lastRow, rows: el.querySelectorAll('tbody tr:not([aria-hidden])').length };
      }, STEP);
      frames.push(...result.times);
      scrollRuns.push(`${result.times.length} frames, ${result.times.filter((f) => f > 25).length} over 25 ms, last row ${result.lastRow}, ${result.rows} rows in the DOM`);
    }

    console.log(`\n| measure (${FLAGS} flags)${' '.repeat(Math.max(0, 44 - `measure (${FLAGS} flags)`.length))} |    n |      p50    |      max    | goal       |`);
    console.log(`|${'-'.repeat(46)}|------|-------------|-------------|------------|`);
    line('navigation to list shown and searched', navigation, '≤ 1000 ms');
    line('search typed until rows updated', searchTimes, 'instant');
    line('switch click until server answered', clicks, 'p50 ≤ 100');
    line('idle page: frame time (baseline)', idle, '');
    line(`scroll (${STEP} px a frame): frame time`, frames, '≤ 25 ms');
    line('list query (ProjectFlags) in the browser', listQuery, '');
    console.log(`# scroll runs: ${scrollRuns.join('; ')}`);
    console.log(`# frames over 25 ms: ${frames.filter((f) => f > 25).length} of ${frames.length}`);

    const dist = path.resolve(__dirname, '../dist/web');
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    const first = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    const sizes = first.map((f) => ({ f, raw: readFileSync(path.join(dist, f)).length, gz: gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length }));
    const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
    console.log(`# first route's JavaScript (index.html: ${sizes.map((s) => `${path.basename(s.f)} ${kB(s.gz)}`).join(' + ')}): ${kB(sizes.reduce((a, s) => a + s.gz, 0))} gzipped (${kB(sizes.reduce((a, s) => a + s.raw, 0))} raw); goal ≤ 300 kB`);
    const routeTotal = [...scripts.values()].reduce((a, b) => a + b, 0);
    console.log(`# everything /projects/${PROJECT} loads: ${scripts.size} scripts, ${kB(routeTotal)} gzipped (${[...scripts.entries()].map(([u, n]) => `${path.basename(u)} ${kB(n)}`).join(', ')})`);
  } finally {
    await ui.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
