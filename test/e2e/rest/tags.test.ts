import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

describe('tag types', () => {
  it('lists the seeded simple type', async () => {
    const res = await app.get('/api/admin/tag-types');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, tagTypes: [{ name: 'simple', description: 'Used to simplify filtering of features', icon: '#' }] });
  });

  it('creates a tag type (201) with its event, and refuses a duplicate (409)', async () => {
    const res = await app.post('/api/admin/tag-types', { name: 'team', description: 'Owning team', icon: 'T' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'team', description: 'Owning team', icon: 'T' });
    const [event] = await app.events('tag-type-created');
    expect(event).toMatchObject({ type: 'tag-type-created', createdBy: 'admin', createdByUserId: -1337, data: { name: 'team', description: 'Owning team', icon: 'T' }, preData: null });
    const dup = await app.post('/api/admin/tag-types', { name: 'team' });
    expect(dup.status).toBe(409);
    expect(dup.body.name).toBe('NameExistsError');
  });

  it('reads, updates (event with preData) and validates names', async () => {
    expect((await app.get('/api/admin/tag-types/team')).body).toEqual({ version: 1, tagType: { name: 'team', description: 'Owning team', icon: 'T' } });
    const missing = await app.get('/api/admin/tag-types/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    const upd = await app.put('/api/admin/tag-types/team', { description: 'Team that owns it' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ name: 'team', description: 'Team that owns it', icon: 'T' });
    const [event] = await app.events('tag-type-updated');
    expect(event.data).toEqual({ name: 'team', description: 'Team that owns it', icon: 'T' });
    expect(event.preData).toEqual({ name: 'team', description: 'Owning team', icon: 'T' });
    expect((await app.post('/api/admin/tag-types/validate', { name: 'fresh' })).status).toBe(200);
    const taken = await app.post('/api/admin/tag-types/validate', { name: 'team' });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe('NameExistsError');
    const bad = await app.post('/api/admin/tag-types/validate', { name: 'has space' });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
    expect(bad.body.details[0].path).toBe('name');
  });
});

describe('tags', () => {
  it('starts empty', async () => {
    expect((await app.get('/api/admin/tags')).body).toEqual({ version: 1, tags: [] });
  });

  it('creates a tag: 201 {version, tag}, type defaults to simple, event tag-created', async () => {
    const res = await app.post('/api/admin/tags', { value: 'frontend' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ version: 1, tag: { type: 'simple', value: 'frontend' } });
    const [event] = await app.events('tag-created');
    expect(event).toMatchObject({ type: 'tag-created', data: { type: 'simple', value: 'frontend' }, project: null, featureName: null });
  });

  it('refuses a duplicate with 409 NameExistsError and writes no event', async () => {
    const before = (await app.events('tag-created')).length;
    const res = await app.post('/api/admin/tags', { type: 'simple', value: 'frontend' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ name: 'NameExistsError' });
    expect(typeof res.body.id).toBe('string');
    expect((await app.events('tag-created')).length).toBe(before);
  });

  it('enforces 2..50 characters with the property path', async () => {
    const short = await app.post('/api/admin/tags', { value: 'x' });
    expect(short.status).toBe(400);
    expect(short.body.name).toBe('ValidationError');
    expect(short.body.details[0].path).toBe('value');
    const long = await app.post('/api/admin/tags', { value: 'y'.repeat(51) });
    expect(long.status).toBe(400);
    expect(long.body.details[0].path).toBe('value');
    expect((await app.post('/api/admin/tags', { value: 'z'.repeat(50) })).status).toBe(201);
  });

  it('refuses an unknown tag type (400, path type)', async () => {
    const res = await app.post('/api/admin/tags', { type: 'unknown-type', value: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('type');
  });

  it('lists by type, reads one, deletes with an event', async () => {
    await app.post('/api/admin/tags', { type: 'team', value: 'payments' });
    expect((await app.get('/api/admin/tags/team')).body).toEqual({ version: 1, tags: [{ type: 'team', value: 'payments' }] });
    expect((await app.get('/api/admin/tags/team/payments')).body).toEqual({ version: 1, tag: { type: 'team', value: 'payments' } });
    expect((await app.get('/api/admin/tags/team/absent')).status).toBe(404);
    expect((await app.get('/api/admin/tags/no-such-type')).status).toBe(404);
    const del = await app.del('/api/admin/tags/team/payments');
    expect(del.status).toBe(200);
    const [event] = await app.events('tag-deleted');
    expect(event.preData).toEqual({ type: 'team', value: 'payments' });
    const again = await app.del('/api/admin/tags/team/payments');
    expect(again.status).toBe(404);
    expect(again.body.name).toBe('NotFoundError');
  });

  it('deleting a tag type deletes its tags, with event tag-type-deleted', async () => {
    await app.post('/api/admin/tags', { type: 'team', value: 'search' });
    const res = await app.del('/api/admin/tag-types/team');
    expect(res.status).toBe(200);
    const [event] = await app.events('tag-type-deleted');
    expect(event.preData).toMatchObject({ name: 'team' });
    expect((await app.get('/api/admin/tags')).body.tags.filter((t: { type: string }) => t.type === 'team')).toEqual([]);
  });
});
