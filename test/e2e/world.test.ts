import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/harness';
import { saveWorld } from '../support/world';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

it('a saved world comes back exactly: rows, sequences and trigger-kept tables', async () => {
  expect((await app.post('/api/admin/projects', { id: 'w1', name: 'W1' })).status).toBe(201);
  expect((await app.post('/api/admin/projects/w1/features', { name: 'wf' })).status).toBe(201);
  const s = await app.post('/api/admin/projects/w1/features/wf/environments/development/strategies', { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] });
  expect(s.status).toBe(200);
  const world = await saveWorld(app.orm);
  const before = await app.get('/api/admin/projects/w1/features/wf');
  const events = (await app.events()).length;
  await app.post('/api/admin/projects/w1/features', { name: 'wf2' });
  await app.del('/api/admin/projects/w1/features/wf/environments/development/strategies/' + s.body.id);
  await world.restore();
  expect((await app.get('/api/admin/projects/w1/features/wf')).body).toEqual(before.body);
  expect((await app.get('/api/admin/projects/w1/features/wf2')).status).toBe(404);
  expect((await app.events()).length).toBe(events);
  const usage = await app.get('/api/admin/context/userId');
  expect(usage.status).toBe(200);
  // The next event id continues where the saved world stood.
  await app.post('/api/admin/tags', { type: 'simple', value: 'after-restore' });
  const [newest] = await app.events();
  expect(newest.id).toBe(Math.max(...(await app.events()).slice(1).map((e: any) => e.id)) + 1);
});
