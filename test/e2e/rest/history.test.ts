import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from 'pg';
import { startTestApp, type TestApp } from '../../support/harness';
import { itWhen, NEEDS_POSTGRES, onPostgres } from '../../support/skip';

/**
 * Issue 43 through REST: a flag's versions (newest first, paged, each with its diff and the events that made it), the
 * flag as it was at an instant, diffs between instants, a change made with plain SQL recorded too, and reverts
 * (permissions as the equivalent edits, a draft in an environment under change requests, a single event's revert and
 * its 409, things deleted since). history-replay.test.ts holds the long random sequence.
 */
let app: TestApp;
const F = '/api/admin/projects/default/features';
const H = `${F}/hist`;
type As = { token: null; headers: { cookie: string; 'content-type': string } };
let viewer: As;
let editor: As;
const instants: string[] = [];
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const onPostgresIt = itWhen(onPostgres, NEEDS_POSTGRES);

const login = async (username: string): Promise<As> => {
  const res = await app.post('/auth/simple/login', { username, password: 'History-Pass-42' }, { token: null });
  return { token: null, headers: { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0], 'content-type': 'application/json' } };
};

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/user-admin', { username: 'hist-viewer', password: 'History-Pass-42', rootRole: 'Viewer' });
  viewer = await login('hist-viewer');
  await app.post('/api/admin/user-admin', { username: 'hist-editor', password: 'History-Pass-42', rootRole: 'Editor' });
  editor = await login('hist-editor');
  instants.push(new Date().toISOString());
  await tick();
  expect((await app.post(F, { name: 'hist', description: 'first' })).status).toBe(201);
  await tick();
  instants.push(new Date().toISOString());
  expect((await app.put(H, { description: 'second' })).status).toBe(200);
  expect((await app.post(`${H}/environments/production/strategies`, { name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'default', groupId: 'hist' } })).status).toBe(200);
  expect((await app.post(`${H}/environments/production/on`)).status).toBe(200);
  await tick();
  instants.push(new Date().toISOString());
});
afterAll(async () => { await app.close(); });

describe('versions', () => {
  it('lists them newest first with their diffs, events and author; pages with limit and before', async () => {
    const res = await app.get(`${H}/versions`);
    expect(res.status).toBe(200);
    const versions = res.body.versions;
    expect(versions.map((v: any) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions[0]).toMatchObject({ createdBy: 'admin', archived: false, deleted: false, events: [expect.objectContaining({ type: 'feature-environment-enabled', environment: 'production' })] });
    expect(versions[0].diff).toEqual([{ path: '/environments/production/enabled', before: false, after: true }]);
    expect(versions[1].diff).toEqual([{ path: expect.stringMatching(/^\/environments\/production\/strategies\/[0-9a-f-]{36}$/), before: null, after: expect.objectContaining({ name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'default', groupId: 'hist' } }) }]);
    expect(versions[2].diff).toEqual([{ path: '/description', before: 'first', after: 'second' }]);
    expect(versions[3].diff).toEqual([{ path: '', before: null, after: expect.objectContaining({ name: 'hist', description: 'first' }) }]);
    expect(versions[3].events.map((e: any) => e.type)).toEqual(['feature-created']);
    const page = await app.get(`${H}/versions?limit=2&before=4`);
    expect(page.body.versions.map((v: any) => [v.version, v.diff.length])).toEqual([[3, 1], [2, 1]]);
    for (const bad of ['limit=0', 'limit=x', 'before=-1']) {
      const r = await app.get(`${H}/versions?${bad}`);
      expect([bad, r.status, r.body.name]).toEqual([bad, 400, 'ValidationError']);
    }
    for (const path of [`${F}/nope/versions`, `/api/admin/projects/other/features/hist/versions`]) {
      const r = await app.get(path);
      expect([path, r.status, r.body.name]).toEqual([path, 404, 'NotFoundError']);
    }
  });

  it('records N concurrent changes of one flag as N versions, numbered in commit order, each with its own event', async () => {
    await app.post(F, { name: 'hist-race', description: 'start' });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => app.put(`${F}/hist-race`, { description: `d${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const { versions } = (await app.get(`${F}/hist-race/versions?limit=20`)).body;
    expect(versions.map((v: any) => v.version)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    for (const v of versions.slice(0, 10)) {
      expect(v.diff).toEqual([{ path: '/description', before: expect.anything(), after: expect.stringMatching(/^d\d$/) }]);
      expect(v.events.map((e: any) => e.type)).toEqual(['feature-metadata-updated']);
    }
    // Each version's "before" is the previous version's "after": no change was lost or recorded twice.
    for (let i = 0; i < 9; i += 1) expect(versions[i].diff[0].before).toBe(versions[i + 1].diff[0].after);
    expect(new Set(versions.slice(0, 10).map((v: any) => v.diff[0].after)).size).toBe(10);
  });

  onPostgresIt('records two commits that waited on each other, each with the rows the one before it committed', async () => {
    // Two transactions add a tag each to one flag (rows of their own: no row lock between them) while a third holds the
    // revision counter, so both compute their states before either commits; the second to take the counter must not
    // record a state without the first one's tag.
    await app.post(F, { name: 'hist-interleaved' });
    for (const value of ['x0', 'x1']) expect((await app.post('/api/admin/tags', { type: 'simple', value })).status).toBe(201);
    const url = process.env.DATABASE_URL;
    const [holder, first, second] = [new Client({ connectionString: url }), new Client({ connectionString: url }), new Client({ connectionString: url })];
    await Promise.all([holder, first, second].map((c) => c.connect()));
    try {
      await holder.query(`begin; select version from model_version where id = 1 for update`);
      const commits = [first, second].map(async (c, i) => {
        await c.query(`begin; insert into feature_tags (feature_name, tag_type, tag_value) values ('hist-interleaved', 'simple', 'x${i}')`);
        return c.query('commit');
      });
      // Both are waiting for the counter once their commits' states were computed.
      let waiting = 0;
      for (let tries = 0; waiting < 2 && tries < 400; tries += 1) {
        await tick();
        // (Activity is read once per transaction unless the snapshot is dropped.)
        await holder.query('select pg_stat_clear_snapshot()');
        const { rows } = await holder.query(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query = 'commit'`);
        waiting = rows[0].n;
      }
      // A transaction that failed instead of waiting shows its own error, not a count.
      if (waiting < 2) await Promise.race([...commits, tick()]);
      expect(waiting).toBe(2);
      await holder.query('commit');
      await Promise.all(commits);
    } finally {
      await Promise.all([holder, first, second].map((c) => c.end()));
    }
    const { versions } = (await app.get(`${F}/hist-interleaved/versions?limit=5`)).body;
    expect(versions.map((v: any) => v.version)).toEqual([3, 2, 1]);
    const tagsOf = async (at: string) => (await app.get(`${F}/hist-interleaved?at=${at}`)).body.tags.map((t: any) => t.value).sort();
    expect((await tagsOf(versions[1].createdAt)).length).toBe(1);
    expect(await tagsOf(versions[0].createdAt)).toEqual(['x0', 'x1']);
  });

  it('records a change made with plain SQL, with no events and no author', async () => {
    await app.orm.em.fork().execute(`update features set description = 'by sql' where name = 'hist'`);
    const [latest] = (await app.get(`${H}/versions?limit=1`)).body.versions;
    expect(latest).toMatchObject({ version: 5, createdBy: null, events: [], diff: [{ path: '/description', before: 'second', after: 'by sql' }] });
    await app.put(H, { description: 'second' });
  });
});

describe('the flag at an instant', () => {
  it('answers the shape of GET without `at`, as it was; 404 before it existed; 400 for a bad instant', async () => {
    const then = await app.get(`${H}?at=${instants[1]}`);
    expect(then.status).toBe(200);
    expect(then.body).toMatchObject({ name: 'hist', description: 'first', enabled: false });
    expect(then.body.environments.find((e: any) => e.name === 'production')).toMatchObject({ enabled: false, strategies: [] });
    const later = await app.get(`${H}?at=${instants[2]}`);
    expect(later.body.environments.find((e: any) => e.name === 'production')).toMatchObject({ enabled: true, strategies: [expect.objectContaining({ name: 'flexibleRollout' })] });
    const now = await app.get(H);
    expect(Object.keys(later.body).sort()).toEqual(Object.keys(now.body).sort());
    const before = await app.get(`${H}?at=${instants[0]}`);
    expect([before.status, before.body.name]).toEqual([404, 'NotFoundError']);
    for (const bad of ['at=yesterday', 'at=2026-13-01T00:00:00Z', 'revision=x', `at=${instants[1]}&revision=1`]) {
      const r = await app.get(`${H}?${bad}`);
      expect([bad, r.status, r.body.name]).toEqual([bad, 400, 'ValidationError']);
    }
  });

  it('diffs the flag, and the project, between two instants', async () => {
    const one = await app.get(`${H}/diff?from=${instants[1]}&to=${instants[2]}`);
    expect(one.status).toBe(200);
    expect(one.body.diff.map((d: any) => d.path)).toEqual(['/description', expect.stringMatching(/^\/environments\/production\/enabled$/), expect.stringMatching(/strategies/)]);
    const project = await app.get(`/api/admin/projects/default/diff?from=${instants[0]}&to=${instants[2]}`);
    expect(project.body.features.map((f: any) => [f.name, f.diff[0].path])).toEqual([['hist', '']]);
    const backwards = await app.get(`${H}/diff?from=${instants[2]}&to=${instants[1]}`);
    expect([backwards.status, backwards.body.name]).toEqual([400, 'ValidationError']);
  });
});

describe('what SDKs were served', () => {
  it('refuses a question without a scope or an instant, with the field named', async () => {
    for (const [query, path] of [['at=2026-01-01T00:00:00Z', 'environment'], ['environment=development', 'at'], ['environment=development&at=soon', 'at'], ['environment=development&at=2026-01-01T00:00:00Z&projects=,', 'projects']]) {
      const r = await app.get(`/api/admin/history/client-features?${query}`);
      expect([query, r.status, r.body.name, r.body.details?.[0]?.path]).toEqual([query, 400, 'ValidationError', path]);
    }
    const frontend = await app.post('/api/admin/history/frontend', { environment: 'development', context: {} });
    expect([frontend.status, frontend.body.name]).toEqual([400, 'ValidationError']);
  });

  it('answers the client API body of a scope at an instant, and the frontend answer for a context', async () => {
    const client = await app.get(`/api/admin/history/client-features?environment=production&projects=default&at=${instants[2]}`);
    expect(client.status).toBe(200);
    expect(client.body.query).toEqual({ project: ['default'], environment: 'production', inlineSegmentConstraints: true });
    expect(client.body.features.find((f: any) => f.name === 'hist')).toMatchObject({ enabled: true, description: 'second', strategies: [expect.objectContaining({ name: 'flexibleRollout' })] });
    const before = await app.get(`/api/admin/history/client-features?environment=production&at=${instants[0]}`);
    expect(before.body.features.find((f: any) => f.name === 'hist')).toBeUndefined();
    const frontend = await app.post('/api/admin/history/frontend', { environment: 'production', at: instants[2], context: { userId: 'u1' } });
    expect(frontend.status).toBe(200);
    expect(Array.isArray(frontend.body.toggles)).toBe(true);
  });
});

describe('revert', () => {
  it('is refused with the 403 of the equivalent edit, and changes nothing', async () => {
    const res = await app.post(`${H}/revert`, { version: 2 }, viewer);
    expect([res.status, res.body.name]).toEqual([403, 'NoAccessError']);
    expect(res.body.message).toMatch(/UPDATE_FEATURE|DELETE_FEATURE_STRATEGY|UPDATE_FEATURE_ENVIRONMENT/);
    expect((await app.get(H)).body.description).toBe('second');
  });

  it('brings the flag back to a version through ordinary changes, each event marked', async () => {
    const before = (await app.get(`${H}/versions?limit=1`)).body.versions[0].version;
    const res = await app.post(`${H}/revert`, { version: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, drafts: [] });
    expect(res.body.changes.map((c: any) => c.action)).toEqual(['updateFeature', 'deleteStrategy']);
    const flag = (await app.get(H)).body;
    expect(flag.description).toBe('first');
    expect(flag.environments.find((e: any) => e.name === 'production')).toMatchObject({ enabled: false, strategies: [] });
    const events = (await app.events()).filter((e) => e.revertOf);
    expect(events.map((e) => e.type).sort()).toEqual(['feature-environment-disabled', 'feature-metadata-updated', 'feature-strategy-remove'].sort());
    for (const e of events) expect(e.revertOf).toEqual({ featureName: 'hist', version: 1 });
    // One transaction: one version.
    expect((await app.get(`${H}/versions?limit=1`)).body.versions[0].version).toBe(before + 1);
    // Nothing left to do the second time.
    expect((await app.post(`${H}/revert`, { version: 1 })).body.changes).toEqual([]);
  });

  it('gives a draft in an environment under change requests, which applied brings the version back', async () => {
    const P = '/api/admin/projects/default';
    await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
    try {
      const res = await app.post(`${H}/revert`, { version: 4, environments: ['production'] }, editor);
      expect(res.status).toBe(200);
      expect(res.body.changes).toEqual([]);
      expect(res.body.drafts).toEqual([{ environment: 'production', changeRequestId: expect.any(Number), changes: [
        expect.objectContaining({ action: 'addStrategy' }), { action: 'updateEnabled', environment: 'production', payload: { enabled: true } },
      ] }]);
      const id = res.body.drafts[0].changeRequestId;
      const draft = (await app.get(`${P}/change-requests/${id}`)).body;
      expect(draft.features[0].changes.map((c: any) => c.action)).toEqual(['addStrategy', 'updateEnabled']);
      expect((await app.get(H)).body.environments.find((e: any) => e.name === 'production').enabled).toBe(false);
      // Reviewed and applied as any request: production is then as version 4 had it.
      expect((await app.put(`${P}/change-requests/${id}/state`, { state: 'In review' }, editor)).status).toBe(200);
      expect((await app.put(`${P}/change-requests/${id}/state`, { state: 'Approved' })).status).toBe(200);
      expect((await app.put(`${P}/change-requests/${id}/state`, { state: 'Applied' })).status).toBe(200);
      const production = (await app.get(H)).body.environments.find((e: any) => e.name === 'production');
      expect({ enabled: production.enabled, strategies: production.strategies.map((s: any) => [s.name, s.parameters]) })
        .toEqual({ enabled: true, strategies: [['flexibleRollout', { rollout: '25', stickiness: 'default', groupId: 'hist' }]] });
    } finally {
      await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: false, requiredApprovals: 1 });
    }
  });

  it('a version needing something deleted since is a 409 naming it; unknown versions 404; a deletion 400', async () => {
    const segment = (await app.post('/api/admin/segments', { name: 'hist-seg', constraints: [] })).body.id;
    const strategy = (await app.post(`${H}/environments/development/strategies`, { name: 'default', segments: [segment] })).body.id;
    const { versions } = (await app.get(`${H}/versions?limit=1`)).body;
    await app.del(`${H}/environments/development/strategies/${strategy}`);
    await app.del(`/api/admin/segments/${segment}`);
    const res = await app.post(`${H}/revert`, { version: versions[0].version });
    expect([res.status, res.body.name]).toEqual([409, 'ConflictError']);
    expect(res.body.message).toContain(`the segment ${segment}`);
    const unknown = await app.post(`${H}/revert`, { version: 999 });
    expect([unknown.status, unknown.body.name]).toEqual([404, 'NotFoundError']);
    const bad = await app.post(`${H}/revert`, { version: 'one' });
    expect([bad.status, bad.body.name]).toEqual([400, 'ValidationError']);
  });

  it('brings back an archived flag, and a deleted one, from its last version', async () => {
    await app.post(F, { name: 'hist-gone', description: 'kept in history' });
    await app.post(`${F}/hist-gone/environments/development/on`);
    const { versions } = (await app.get(`${F}/hist-gone/versions?limit=1`)).body;
    await app.del(`${F}/hist-gone`);
    await app.del('/api/admin/archive/hist-gone');
    expect((await app.get(`${F}/hist-gone`)).status).toBe(404);
    const res = await app.post(`${F}/hist-gone/revert`, { version: versions[0].version });
    expect(res.status).toBe(200);
    expect(res.body.changes.map((c: any) => c.action)).toEqual(['createFeature', 'addStrategy', 'updateEnabled']);
    const flag = (await app.get(`${F}/hist-gone`)).body;
    expect(flag).toMatchObject({ description: 'kept in history' });
    expect(flag.environments.find((e: any) => e.name === 'development')).toMatchObject({ enabled: true });
  });
});

describe('revert of one event', () => {
  it('undoes what the event changed when nothing touched it since, else 409 naming what changed', async () => {
    await app.post(F, { name: 'hist-ev' });
    await app.post(`${F}/hist-ev/environments/development/on`);
    const enabled = (await app.events('feature-environment-enabled')).find((e) => e.featureName === 'hist-ev');
    await app.put(`${F}/hist-ev`, { description: 'later, elsewhere' });
    const res = await app.post(`/api/admin/events/${enabled.id}/revert`);
    expect(res.status).toBe(200);
    // Switching on added the default strategy in the same change: undoing it removes that, which switches it off.
    expect(res.body.changes).toEqual([{ action: 'deleteStrategy', environment: 'development', payload: { id: expect.any(String) } }]);
    const flag = (await app.get(`${F}/hist-ev`)).body;
    expect([flag.description, flag.environments.find((e: any) => e.name === 'development').enabled]).toEqual(['later, elsewhere', false]);
    const marked = (await app.events('feature-environment-disabled')).find((e) => e.featureName === 'hist-ev');
    expect(marked.revertOf).toEqual({ featureName: 'hist-ev', version: expect.any(Number), eventId: enabled.id });

    const described = (await app.events('feature-metadata-updated')).find((e) => e.featureName === 'hist-ev');
    await app.put(`${F}/hist-ev`, { description: 'changed again' });
    const conflict = await app.post(`/api/admin/events/${described.id}/revert`);
    expect([conflict.status, conflict.body.name]).toEqual([409, 'ConflictError']);
    expect(conflict.body.message).toContain('/description');
    for (const [id, status, name] of [['999999', 404, 'NotFoundError'], ['abc', 404, 'NotFoundError']] as const) {
      const r = await app.post(`/api/admin/events/${id}/revert`);
      expect([id, r.status, r.body.name]).toEqual([id, status, name]);
    }
  });
});
