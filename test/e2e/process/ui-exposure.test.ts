import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { runEmbeddedSql } from '../../support/embedded-sql-client';
import { spawnService } from '../../support/service-process';
import { ADMIN_PASSWORD, ADMIN_TOKEN, browserSuite, eventually, expectAccessible, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * Issue 44, item 1, in Chromium: a flag's exposure chart. A first run of the service takes an SDK's report for the
 * current hour through `POST /api/client/metrics`, and a switch and a strategy change through the admin API; with the
 * service stopped, the hours before are written into its embedded database as SDKs would have left them, and the two
 * changes moved back to the hours they stand for. The UI then runs on that database: the chart's bars and markers
 * (read from the data its uPlot instance draws and from the markers' attributes, not pixels), its table and the project
 * list's sparkline must show those numbers.
 */
let ui: UiHarness;
let dir: string;
const FLAG = 'exposure-demo';
const HOUR = 3_600_000;
let h: number;
const at = (hoursBefore: number, minutes = 0) => new Date(h - hoursBefore * HOUR + minutes * 60_000).toISOString();

async function story(base: string): Promise<void> {
  const admin = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: ADMIN_TOKEN }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data?: any; errors?: unknown[] };
    if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const rest = async (method: string, url: string, body?: unknown, token = ADMIN_TOKEN) => {
    const res = await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/json', authorization: token }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json().catch(() => null);
  };
  await admin(`mutation { createFeature(input: {project: "default", name: "${FLAG}"}) { name } }`);
  const env = `/api/admin/projects/default/features/${FLAG}/environments/development`;
  const strategy = await rest('POST', `${env}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: FLAG } });
  const token = await rest('POST', '/api/admin/api-tokens', { tokenName: 'exposure-sdk', type: 'client', environment: 'development', projects: ['default'] });
  const start = new Date();
  h = Math.floor(start.getTime() / HOUR) * HOUR;
  await rest('POST', '/api/client/metrics', {
    appName: 'checkout', instanceId: 'checkout-1',
    bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 10_000).toISOString(), toggles: { [FLAG]: { yes: 7, no: 3, variants: { blue: 4, green: 3 } } } },
  }, token.secret);
  await rest('POST', `${env}/on`);
  await rest('PUT', `${env}/strategies/${strategy.id}`, { name: 'flexibleRollout', parameters: { rollout: '80', stickiness: 'default', groupId: FLAG } });
}

browserSuite()('the web UI: a flag\'s exposure chart', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-ui-exposure-'));
    const dataDir = path.join(dir, 'data');
    const first = await spawnService({ DATA_DIR: dataDir, INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, INIT_ADMIN_PASSWORD: ADMIN_PASSWORD });
    try {
      await story(`http://127.0.0.1:${first.port}`);
    } finally {
      first.kill(); // SIGTERM: the buffered report is written at shutdown
      await first.exited;
    }
    const hour = (back: number, yes: number, no: number): [string, unknown[]] => [
      `insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no) values ($1, 'checkout', 'development', $2, $3, $4)`, [FLAG, at(back), yes, no]];
    const variant = (back: number, name: string, count: number): [string, unknown[]] => [
      `insert into client_metrics_hourly_variants (feature_name, app_name, environment, hour, variant, count) values ($1, 'checkout', 'development', $2, $3, $4)`, [FLAG, at(back), name, count]];
    const move = (type: string, time: string): [string, unknown[]] => [`update events set created_at = $1 where feature_name = $2 and type = $3`, [time, FLAG, type]];
    await runEmbeddedSql(dataDir, [
      hour(3, 40, 10), hour(2, 25, 5), variant(2, 'blue', 15), variant(2, 'green', 10),
      // The strategy was added long before the window; the switch and the change of its rollout fall between the hours.
      move('feature-strategy-add', at(40)), move('feature-environment-enabled', at(2, 20)), move('feature-strategy-update', at(1, 10)),
    ]);
    ui = await startUi({ DATA_DIR: dataDir });
  }, 180_000);
  jest.setTimeout(90_000);
  afterAll(async () => {
    await ui?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The bars drawn in an environment's chart: `period series` → count, zero bars left out. Read from the data its uPlot
   * instance draws (kept on the chart's root), each series' own counts, under the label its legend shows.
   */
  const bars = (region: Locator, environment: string) => region.locator(`figure[data-environment="${environment}"] [data-chart]`).evaluate((root) => {
    const u = (root as HTMLElement & { uplot: { data: ArrayLike<number | null>[]; series: Array<{ label: string }> } }).uplot;
    const out: Record<string, number> = {};
    for (let s = 1; s < u.data.length; s++) {
      for (let i = 0; i < u.data[0].length; i++) {
        const v = u.data[s][i];
        if (v) out[`${new Date(u.data[0][i]! * 1000).toISOString()} ${u.series[s].label}`] = v;
      }
    }
    return out;
  });

  const openFlag = async (page: Page, query = '') => {
    await page.goto(`/projects/default/features/${FLAG}${query}`);
    const region = page.getByRole('region', { name: 'Exposure' });
    await region.locator('figure[data-environment="development"] [data-chart][data-drawn]').waitFor({ state: 'attached' });
    return region;
  };

  it('draws each hour\'s counts and the two changes at their hours, lists the same numbers, and passes axe', async () => {
    const { page } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);
    const region = await openFlag(page);

    expect(await bars(region, 'development')).toEqual({
      [`${at(3)} On (yes)`]: 40, [`${at(3)} Off (no)`]: 10,
      [`${at(2)} On (yes)`]: 25, [`${at(2)} Off (no)`]: 5,
      [`${at(0)} On (yes)`]: 7, [`${at(0)} Off (no)`]: 3,
    });
    const markers = await region.locator('figure [data-change-type]').evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-change-type'), n.getAttribute('data-period'), n.getAttribute('data-time')]));
    expect(markers).toEqual([
      ['feature-environment-enabled', at(2), at(2, 20)],
      ['feature-strategy-update', at(1), at(1, 10)],
    ]);

    // The pointer on an hour's bar (past the switch's marker): the legend tells that hour's own counts, not the stack's top.
    const chart = region.locator('figure[data-environment="development"] [data-chart]');
    await chart.scrollIntoViewIfNeeded();
    const [px, py] = await chart.evaluate((root, start) => {
      const u = (root as HTMLElement & { uplot: { over: HTMLElement; valToPos(v: number, scale: string): number } }).uplot;
      const r = u.over.getBoundingClientRect();
      return [r.left + u.valToPos(start + 45 * 60, 'x'), r.bottom - 2];
    }, Date.parse(at(2)) / 1000);
    await page.mouse.move(px, py);
    await eventually(() => chart.locator('.u-legend .u-value').allInnerTexts(), (v) => v.slice(1).join() === '25,5', 'the legend at the hour');
    // Hovering a marker tells the change.
    await region.locator('figure [data-change-type="feature-environment-enabled"]').hover();
    await page.getByRole('tooltip').filter({ hasText: 'Switched on in development' }).waitFor();
    await page.mouse.move(0, 0);

    // The table holds the same numbers, and the changes.
    const table = region.getByRole('table', { name: 'Exposure by hour' });
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-period'), ...[...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())]));
    expect(rows.map(([period, env, , yes, no, variants]) => [period, env, yes, no, variants])).toEqual([
      [at(3), 'development', '40', '10', '—'],
      [at(2), 'development', '25', '5', 'blue 15, green 10'],
      [at(0), 'development', '7', '3', 'blue 4, green 3'],
    ]);
    const changes = await region.getByRole('table', { name: 'Changes in this window' }).locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(changes).toEqual(['Switched on in development', 'Strategy “flexibleRollout” changed in development']);
    await ui.shot('exposure-flag-page');
    await expectAccessible(page);

    // The variants stacked instead, and the application filter.
    await region.getByRole('radiogroup', { name: 'Bars' }).getByText('Variants', { exact: true }).click();
    await eventually(() => bars(region, 'development'), (b) => b[`${at(2)} blue`] === 15, 'variant bars');
    expect(await bars(region, 'development')).toEqual({ [`${at(2)} blue`]: 15, [`${at(2)} green`]: 10, [`${at(0)} blue`]: 4, [`${at(0)} green`]: 3 });
    await region.getByRole('textbox', { name: 'Application' }).click();
    await page.getByRole('option', { name: 'checkout', exact: true }).click();
    await page.waitForURL(/app=checkout/);
    // Every count came from that application: the same bars, now of it alone.
    await eventually(() => region.getAttribute('data-loading'), (busy) => busy === null, 'the filtered chart');
    expect(await bars(region, 'development')).toEqual({ [`${at(2)} blue`]: 15, [`${at(2)} green`]: 10, [`${at(0)} blue`]: 4, [`${at(0)} green`]: 3 });
    expect(ui.seen.consoleErrors).toEqual([]);
  });

  it('keeps 30 days: the 30-day range shows the same hours, and days sum them', async () => {
    const { page } = ui;
    const region = await openFlag(page, '?range=30d');
    expect(await bars(region, 'development')).toMatchObject({ [`${at(3)} On (yes)`]: 40, [`${at(0)} Off (no)`]: 3 });
    await region.getByRole('radiogroup', { name: 'Periods' }).getByText('Per day', { exact: true }).click();
    await page.waitForURL(/per=day/);
    // Every evaluation of the hours, on and off, falls in one of the days (the 30 days begin long before the data).
    const cells = (n: number) => region.getByRole('table', { name: 'Exposure by day' }).locator(`tbody tr td:nth-child(${n})`).allInnerTexts();
    const yes = await eventually(() => cells(3), (d) => d.length > 0, 'the daily table');
    const sum = (list: string[]) => list.map(Number).reduce((a, b) => a + b, 0);
    expect([sum(yes), sum(await cells(4))]).toEqual([72, 18]);
  });

  it('shows each flag\'s last seen as a colour and its last 24 hours as a sparkline in the project list', async () => {
    const { page } = ui;
    await page.goto('/projects/default');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: FLAG }) });
    const sparkline = row.getByRole('img', { name: /evaluations in the last 24 hours/ });
    await sparkline.waitFor();
    const values = (await sparkline.getAttribute('data-values'))!.split(',').map(Number);
    expect(values).toHaveLength(24);
    // The hours from three ago to the report's (the last of the 24 unless an hour has begun since).
    const since = Math.floor(Date.now() / HOUR) - h / HOUR;
    expect(values.slice(20 - since, 24 - since)).toEqual([50, 30, 0, 10]);
    expect(await sparkline.getAttribute('aria-label')).toBe('90 evaluations in the last 24 hours');
    expect(await row.locator('[data-seen]').getAttribute('data-seen')).toBe('hour');
    await ui.shot('exposure-project-list');
    await expectAccessible(page);
    expect(ui.seen.consoleErrors).toEqual([]);
  });
});
