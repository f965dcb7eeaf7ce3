/**
 * Latency of the change-request preview (issue 12 part 9) on the 1000-feature data set (bench/feature-model-data.ts),
 * through the real app over HTTP against PostgreSQL: a request that changes one feature's rollout and switches a second
 * feature, previewed for 1, 100 and 1000 contexts.
 * Usage: npx tsx bench/change-request-preview.ts [--pg postgresql://postgres@127.0.0.1:5432/postgres] [--requests 50]
 */
import { measure, startBenchApp, tableHeader, TOKEN } from './bench-app';
import { featureName, PROJECT } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const requests = Number(opt('--requests', '50'));

async function call(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, { method, headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function main() {
  const app = await startBenchApp(pgBase);
  try {
    console.log(app.describe);
    const env = `/api/admin/projects/${PROJECT}/features/${featureName(1)}/environments/production`;
    const [strategy] = (await call(app.base, 'GET', env)).strategies;
    const request = await call(app.base, 'POST', `/api/admin/projects/${PROJECT}/environments/production/change-requests`, [
      { action: 'updateStrategy', feature: featureName(1), payload: { id: strategy.id, parameters: { ...strategy.parameters, rollout: '50' } } },
      { action: 'updateEnabled', feature: featureName(2), payload: { enabled: true } },
    ]);
    const contexts = (n: number, i: number) => Array.from({ length: n }, (_, k) => ({ appName: 'bench', userId: `user-${i}-${k}`, properties: { field3: `v${k % 7}` } }));
    tableHeader(requests);
    for (const n of [1, 100, 1000]) {
      await measure(app.base, `POST …/change-requests/:id/preview (${n} context${n === 1 ? '' : 's'})`, requests, (i) => ({
        path: `/api/admin/projects/${PROJECT}/change-requests/${request.id}/preview`, body: { contexts: contexts(n, i) },
      }));
    }
  } finally {
    await app.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
