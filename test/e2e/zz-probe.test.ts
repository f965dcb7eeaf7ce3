import { afterAll, beforeAll, it } from '@jest/globals';
import { startDbProxy, type DbProxy } from '../support/db-proxy';
import { startTestApp, type TestApp } from '../support/harness';
import { createLogger } from '../../src/logger';
let app: TestApp; let proxy: DbProxy;
beforeAll(async () => { proxy = await startDbProxy(process.env.DATABASE_URL!); app = await startTestApp({ databaseUrl: proxy.url, logger: createLogger('error') }); });
afterAll(async () => { await proxy.start().catch(() => undefined); await app.close(); await proxy.close(); });
it('probes', async () => {
  await app.post('/api/admin/projects', { id: 'p0', name: 'P0' });
  await proxy.stop();
  process.env.OPENAPI_CHECK = 'report:/tmp/oa.txt';
  const r = await app.post('/api/admin/projects', { id: 'p1', name: 'P1' });
  console.log('REST', r.status, JSON.stringify(r.body).slice(0, 300));
}, 60000);
