/**
 * Latency of the feature-model read endpoints on the 1000-feature data set (bench/feature-model-data.ts), through the
 * real app over HTTP. Creates a throwaway database on the given PostgreSQL server, prints median and p99 per endpoint.
 * Usage: npm run bench:features [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [-- --requests 300]
 */
import { measure, startBenchApp, tableHeader } from './bench-app';
import { FEATURES, PROJECT, featureName } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const requests = Number(opt('--requests', '300'));

async function main() {
  const app = await startBenchApp(pgBase);
  try {
    console.log(app.describe);
    tableHeader(requests);
    await measure(app.base, 'GET /api/admin/context', requests, () => ({ path: '/api/admin/context' }));
    await measure(app.base, `GET /api/admin/projects/${PROJECT}/health-report`, requests, () => ({ path: `/api/admin/projects/${PROJECT}/health-report` }));
    await measure(app.base, 'GET /api/admin/events/:feature', requests, (i) => ({ path: `/api/admin/events/${featureName((i * 7) % FEATURES)}` }));
    await measure(app.base, `GET /api/admin/projects/${PROJECT}/features`, requests, () => ({ path: `/api/admin/projects/${PROJECT}/features` }));
    await measure(app.base, `GET /api/admin/projects/${PROJECT}/features/:feature`, requests, (i) => ({ path: `/api/admin/projects/${PROJECT}/features/${featureName((i * 13) % FEATURES)}` }));
  } finally {
    await app.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
