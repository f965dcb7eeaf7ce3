/**
 * Change requests (issue 12) on the 1000-feature data set (bench/feature-model-data.ts), through the real app over HTTP
 * against PostgreSQL:
 * - reading: the open list with 100 open requests of 3 changes each (conflicts and background changes included), and
 *   one request;
 * - applying: `PUT …/state {state: Applied}` for requests of 3 changes, and for one of 50 strategy updates (every
 *   change through its direct edit, one transaction).
 * Usage: npx tsx bench/change-requests.ts [--pg postgresql://postgres@127.0.0.1:5432/postgres] [--requests 50]
 */
import { measure, percentile, startBenchApp, tableHeader, TOKEN } from './bench-app';
import { featureName, PROJECT } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const requests = Number(opt('--requests', '50'));
const P = `/api/admin/projects/${PROJECT}`;

async function call(base: string, method: string, path: string, body?: unknown, token = TOKEN): Promise<any> {
  const res = await fetch(base + path, { method, headers: { authorization: token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

async function main() {
  const app = await startBenchApp(pgBase);
  try {
    console.log(app.describe);
    const reviewer = (await call(app.base, 'POST', '/api/admin/api-tokens', { tokenName: 'bench-reviewer', type: 'admin' })).secret;
    await call(app.base, 'PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
    const firstStrategy = async (i: number) => (await call(app.base, 'GET', `${P}/features/${featureName(i)}/environments/production`)).strategies[0];
    // 100 open requests (In review), 3 changes each.
    const open: number[] = [];
    for (let i = 0; i < 100; i++) {
      const s = await firstStrategy(i);
      const draft = await call(app.base, 'POST', `${P}/environments/production/change-requests`, [
        { action: 'updateStrategy', feature: featureName(i), payload: { id: s.id, name: s.name, parameters: { ...s.parameters, rollout: '50' } } },
        { action: 'patchVariant', feature: featureName(i), payload: { variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default' }] } },
        { action: 'updateEnabled', feature: featureName(i), payload: { enabled: true } },
      ]);
      await call(app.base, 'PUT', `${P}/change-requests/${draft.id}/state`, { state: 'In review' });
      open.push(draft.id);
    }
    tableHeader(requests);
    await measure(app.base, 'GET …/change-requests/open (100 open, 3 changes each)', requests, () => ({ path: `${P}/change-requests/open` }));
    await measure(app.base, 'GET …/change-requests/:id (3 changes)', requests, (i) => ({ path: `${P}/change-requests/${open[i % open.length]}` }));

    // Applying: each of the first `requests` open requests (3 changes), approved by the second token, then applied.
    const times: number[] = [];
    for (const id of open.slice(0, Math.min(requests, open.length))) {
      await call(app.base, 'PUT', `${P}/change-requests/${id}/state`, { state: 'Approved' }, reviewer);
      const start = process.hrtime.bigint();
      await call(app.base, 'PUT', `${P}/change-requests/${id}/state`, { state: 'Applied' }, reviewer);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(`| ${'PUT …/state Applied (3 changes)'.padEnd(52)} | ${percentile(times, 50).toFixed(2).padStart(7)} ms | ${percentile(times, 99).toFixed(2).padStart(7)} ms |           |`);

    // One request of 50 strategy updates.
    const big: unknown[] = [];
    for (let i = 500; i < 550; i++) {
      const s = await firstStrategy(i);
      big.push({ action: 'updateStrategy', feature: featureName(i), payload: { id: s.id, name: s.name, parameters: { ...s.parameters, rollout: '25' } } });
    }
    const request = await call(app.base, 'POST', `${P}/environments/production/change-requests`, big);
    await call(app.base, 'PUT', `${P}/change-requests/${request.id}/state`, { state: 'In review' });
    await call(app.base, 'PUT', `${P}/change-requests/${request.id}/state`, { state: 'Approved' }, reviewer);
    const start = process.hrtime.bigint();
    await call(app.base, 'PUT', `${P}/change-requests/${request.id}/state`, { state: 'Applied' }, reviewer);
    console.log(`| ${'PUT …/state Applied (50 strategy updates, once)'.padEnd(52)} | ${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(2).padStart(7)} ms |            |           |`);
  } finally {
    await app.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
