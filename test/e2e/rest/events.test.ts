import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * The audit log over REST: `GET /api/admin/events` (filters and paging) and `GET /api/admin/events/:featureName`.
 * Every answer is also checked against the OpenAPI document by the harness.
 */

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  for (const name of ['ev-one', 'ev-two']) expect((await app.post('/api/admin/projects/default/features', { name })).status).toBe(201);
  expect((await app.post('/api/admin/features/ev-one/stale/on')).status).toBe(200);
  expect((await app.post('/api/admin/features/ev-one/tags', { type: 'simple', value: 'audited' })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

describe('GET /api/admin/events', () => {
  it('pages through the log newest first: nextBefore leads to the next page, and is absent on the last', async () => {
    const all = await app.get('/api/admin/events?limit=1000');
    expect(all.status).toBe(200);
    expect(all.body.version).toBe(1);
    expect(all.body.nextBefore).toBeUndefined();
    const ids: number[] = all.body.events.map((e: { id: number }) => e.id);
    expect(ids.length).toBe(all.body.totalEvents);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const seen: number[] = [];
    let before: number | undefined;
    for (let page = 0; page < ids.length + 1; page++) {
      const res = await app.get(`/api/admin/events?limit=2${before ? `&before=${before}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.totalEvents).toBe(ids.length);
      seen.push(...res.body.events.map((e: { id: number }) => e.id));
      before = res.body.nextBefore;
      if (before === undefined) break;
      expect(before).toBe(seen[seen.length - 1]);
    }
    expect(seen).toEqual(ids);
  });

  it('filters by type and feature; the count follows the filter', async () => {
    const res = await app.get('/api/admin/events?type=feature-created&feature=ev-one');
    expect(res.status).toBe(200);
    expect(res.body.totalEvents).toBe(1);
    expect(res.body.events).toEqual([expect.objectContaining({ type: 'feature-created', featureName: 'ev-one', project: 'default', environment: null })]);
    expect(res.body.events[0].data).toEqual(expect.objectContaining({ name: 'ev-one', type: 'release' }));
    expect(res.body.events[0].preData).toBeNull();
  });

  it('refuses a limit that is not a whole number from 1 to 1000 with 400, naming it', async () => {
    for (const limit of ['0', '1001', 'ten', '1.5']) {
      const res = await app.get(`/api/admin/events?limit=${limit}`);
      expect([limit, res.status, res.body.name]).toEqual([limit, 400, 'ValidationError']);
      expect(res.body.details[0].path).toBe('limit');
    }
  });
});

describe('GET /api/admin/events/:featureName', () => {
  it('answers the feature’s events, newest first, with its name and total', async () => {
    const res = await app.get('/api/admin/events/ev-one');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, toggleName: 'ev-one', events: expect.any(Array), totalEvents: 3 });
    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(['feature-tagged', 'feature-stale-on', 'feature-created']);
    expect(res.body.events[0].tags).toEqual([{ type: 'simple', value: 'audited' }]);
  });

  it('answers an empty list for a feature that never existed', async () => {
    expect((await app.get('/api/admin/events/never-was')).body).toEqual({ version: 1, toggleName: 'never-was', events: [], totalEvents: 0 });
  });
});
