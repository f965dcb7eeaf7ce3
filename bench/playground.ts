/**
 * Latency of the playground endpoints on the 1000-feature data set (bench/feature-model-data.ts), through the real app
 * over HTTP against PostgreSQL. In-process engine throughput is `npm run bench:engine`.
 * Usage: npm run bench:playground [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [-- --requests 200]
 */
import { measure, startBenchApp, tableHeader } from './bench-app';
import { PROJECT } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const requests = Number(opt('--requests', '200'));

async function main() {
  const app = await startBenchApp(pgBase);
  try {
    console.log(app.describe);
    tableHeader(requests);
    await measure(app.base, 'POST /api/admin/playground (1000 features, 1 context)', requests, (i) => ({
      path: '/api/admin/playground',
      body: { environment: 'production', projects: [PROJECT], context: { appName: 'bench', userId: `user-${i}`, properties: { field3: `v${i % 7}` } } },
    }));
    await measure(app.base, 'POST /api/admin/playground/advanced (2 envs x 3 users)', requests, (i) => ({
      path: '/api/admin/playground/advanced',
      body: { environments: ['development', 'production'], projects: [PROJECT], context: { appName: 'bench', userId: `a${i},b${i},c${i}` } },
    }));
  } finally {
    await app.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
