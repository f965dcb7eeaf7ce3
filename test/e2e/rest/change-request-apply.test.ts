import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 12, part 6: applying a change request. Every action runs through the service of its direct edit, in one
 * transaction, writing that edit's usual events; a request with a conflict (what a change relies on vanished or
 * changed since it was made) is refused and changes nothing; a change that fails fails the whole request; background
 * changes (`defaultChange`) are shown before and made when applied.
 */
let app: TestApp;
type As = { token: null; headers: { cookie: string } };
let ann: As;
const P = '/api/admin/projects/cra';
const F = `${P}/features`;
const CR = `${P}/environments/production/change-requests`;
const prod = (feature: string) => `${F}/${feature}/environments/production`;

/** What a failed apply must leave as it was: features, strategies, segments, dependencies and the audit log. */
async function modelSnapshot(): Promise<unknown> {
  const em = app.orm.em.fork();
  const [features, strategies, environments, segments, deps, events] = await Promise.all([
    em.execute(`select name, archived_at from features where project = 'cra' order by name`),
    em.execute(`select id, feature_name, strategy_name, parameters, sort_order, disabled from feature_strategies where project = 'cra' order by id`),
    em.execute(`select feature_name, environment, enabled, variants from feature_environments where feature_name like 'cra-%' order by 1, 2`),
    em.execute('select id, name, constraints from segments order by id'),
    em.execute('select parent, child from feature_dependencies order by 1, 2'),
    em.execute('select count(*)::int as n from events'),
  ]);
  return { features, strategies, environments, segments, deps, events };
}

/** ann proposes the changes, sends them to review; the admin approves (minApprovals 1). Returns the request id. */
async function approved(changes: unknown): Promise<number> {
  const draft = await app.post(CR, changes, ann);
  expect(draft.status).toBe(200);
  expect((await app.put(`${P}/change-requests/${draft.body.id}/state`, { state: 'In review' }, ann)).status).toBe(200);
  const res = await app.put(`${P}/change-requests/${draft.body.id}/state`, { state: 'Approved' });
  expect(res.body.state).toBe('Approved');
  return draft.body.id;
}
const apply = (id: number) => app.put(`${P}/change-requests/${id}/state`, { state: 'Applied' });
const strategiesOf = async (feature: string) => (await app.get(`${prod(feature)}/strategies`)).body as any[];
const enabledIn = async (feature: string) => (await app.get(`${F}/${feature}`)).body.environments.find((e: any) => e.name === 'production').enabled as boolean;

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/projects', { id: 'cra', name: 'Apply' });
  await app.post(`${P}/environments`, { environment: 'production' });
  await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
  const user = (await app.post('/api/admin/user-admin', { username: 'cra-ann', password: 'Change-Apply-42', rootRole: 'Editor' })).body.id;
  await app.post(`${P}/access`, { roles: [4], users: [{ id: user }] });
  const res = await app.post('/auth/simple/login', { username: 'cra-ann', password: 'Change-Apply-42' }, { token: null });
  ann = { token: null, headers: { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] } };
});
afterAll(async () => { await app.close(); });

describe('every action, applied with its usual event', () => {
  const ids: Record<string, string | number> = {};
  let request: number;
  let eventsBefore: number;

  beforeAll(async () => {
    for (const name of ['cra-a', 'cra-b', 'cra-p', 'cra-c', 'cra-x']) await app.post(F, { name });
    ids.s1 = (await app.post(`${prod('cra-a')}/strategies`, { name: 'default' })).body.id;
    ids.s2 = (await app.post(`${prod('cra-a')}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: 'cra-a' } })).body.id;
    await app.post(`${prod('cra-a')}/on`);
    await app.post(`${F}/cra-c/dependencies`, { feature: 'cra-p' });
    ids.seg1 = (await app.post('/api/admin/segments', { name: 'cra-seg1', constraints: [] })).body.id;
    ids.seg2 = (await app.post('/api/admin/segments', { name: 'cra-seg2', constraints: [] })).body.id;
    request = await approved([
      { action: 'addStrategy', feature: 'cra-b', payload: { name: 'userWithId', parameters: { userIds: 'u1,u2' }, constraints: [] } },
      { action: 'updateStrategy', feature: 'cra-a', payload: { id: ids.s2, name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'cra-a' } } },
      { action: 'reorderStrategy', feature: 'cra-a', payload: [{ id: ids.s2, sortOrder: 0 }, { id: ids.s1, sortOrder: 1 }] },
      { action: 'deleteStrategy', feature: 'cra-a', payload: { id: ids.s1 } },
      { action: 'patchVariant', feature: 'cra-a', payload: { variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }] } },
      { action: 'updateEnabled', feature: 'cra-b', payload: { enabled: true } },
      { action: 'addDependency', feature: 'cra-b', payload: { feature: 'cra-p', enabled: true } },
      { action: 'deleteDependency', feature: 'cra-c' },
      { action: 'archiveFeature', feature: 'cra-x' },
      { action: 'updateSegment', payload: { id: ids.seg1, name: 'cra-seg1', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u9'] }] } },
      { action: 'deleteSegment', payload: { id: ids.seg2 } },
    ]);
    eventsBefore = (await app.events()).length;
  });

  it('before applying: no conflict, no background change (cra-b gets a strategy from the request itself)', async () => {
    const body = (await app.get(`${P}/change-requests/${request}`)).body;
    expect(body.features.map((f: any) => f.name).sort()).toEqual(['cra-a', 'cra-b', 'cra-c', 'cra-x']);
    for (const f of body.features) {
      expect(f.conflict).toBeUndefined();
      expect(f.defaultChange).toBeUndefined();
      for (const c of f.changes) expect(c.conflict).toBeUndefined();
    }
  });

  it('applies them all, each through its direct edit', async () => {
    const res = await apply(request);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('Applied');
    const a = await strategiesOf('cra-a');
    expect(a.map((s) => [s.id, s.parameters.rollout, s.sortOrder])).toEqual([[ids.s2, '50', 0]]);
    const b = await strategiesOf('cra-b');
    expect(b.map((s) => s.name)).toEqual(['userWithId']);
    expect(await enabledIn('cra-b')).toBe(true);
    expect((await app.get(`${prod('cra-a')}/variants`)).body.variants.map((v: any) => v.name)).toEqual(['blue']);
    expect((await app.get(`${F}/cra-b`)).body.dependencies).toEqual([{ feature: 'cra-p', enabled: true }]);
    expect((await app.get(`${F}/cra-c`)).body.dependencies).toEqual([]);
    expect((await app.get(`${F}/cra-x`)).status).toBe(404);
    expect((await app.get(`/api/admin/segments/${ids.seg1}`)).body.constraints).toEqual([expect.objectContaining({ contextName: 'userId', values: ['u9'] })]);
    expect((await app.get(`/api/admin/segments/${ids.seg2}`)).status).toBe(404);
  });

  it('writes the events each direct edit writes, in the applier\'s name, then change-request-applied', async () => {
    const events = (await app.events()).slice(0, (await app.events()).length - eventsBefore).reverse();
    expect(events.map((e) => e.type)).toEqual([
      'feature-strategy-add', 'feature-strategy-update', 'strategy-order-changed', 'feature-strategy-remove', 'feature-environment-variants-updated',
      'feature-dependency-added', 'feature-dependencies-removed', 'segment-updated', 'segment-deleted', 'feature-environment-enabled', 'feature-archived',
      'change-request-applied',
    ]);
    expect(new Set(events.map((e) => e.createdBy))).toEqual(new Set(['admin']));
  });
});

describe('conflicts', () => {
  let strategy: string;
  beforeEach(async () => {
    await app.post(F, { name: `cra-k${++n}` });
    strategy = (await app.post(`${prod(`cra-k${n}`)}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: 'k' } })).body.id;
  });
  let n = 0;
  const k = () => `cra-k${n}`;
  const update = () => ({ action: 'updateStrategy', feature: k(), payload: { id: strategy, name: 'flexibleRollout', parameters: { rollout: '20', stickiness: 'default', groupId: 'k' } } });

  async function refused(id: number, conflict: (body: any) => string | undefined, text: string): Promise<void> {
    const body = (await app.get(`${P}/change-requests/${id}`)).body;
    expect(conflict(body)).toContain(text);
    const before = await modelSnapshot();
    const res = await apply(id);
    expect([res.status, res.body.name]).toEqual([409, 'ConflictError']);
    expect(res.body.message).toContain(text);
    expect(await modelSnapshot()).toEqual(before);
    expect((await app.get(`${P}/change-requests/${id}`)).body.state).toBe('Approved');
  }

  it('the strategy was changed since: the change shows the conflict and applying is refused, changing nothing', async () => {
    const id = await approved(update());
    await app.put(`${prod(k())}/strategies/${strategy}`, { name: 'flexibleRollout', parameters: { rollout: '30', stickiness: 'default', groupId: 'k' } });
    await refused(id, (b) => b.features[0].changes[0].conflict, `The strategy ${strategy} was changed`);
  });

  it('the strategy was deleted since', async () => {
    const id = await approved(update());
    await app.del(`${prod(k())}/strategies/${strategy}`);
    await refused(id, (b) => b.features[0].changes[0].conflict, `The strategy ${strategy} was deleted`);
  });

  it('the feature was archived since: the feature shows the conflict', async () => {
    const id = await approved({ action: 'updateEnabled', feature: k(), payload: { enabled: true } });
    await app.del(`${F}/${k()}`);
    await refused(id, (b) => b.features[0].conflict, `The feature ${k()} was archived`);
  });

  it('the variants were changed since', async () => {
    const id = await approved({ action: 'patchVariant', feature: k(), payload: { variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default' }] } });
    await app.put(`${prod(k())}/variants`, [{ name: 'b', weight: 1000, weightType: 'variable', stickiness: 'default' }]);
    await refused(id, (b) => b.features[0].changes[0].conflict, 'variants');
  });

  it('the segment was changed since', async () => {
    const segment = (await app.post('/api/admin/segments', { name: `cra-kseg${n}`, constraints: [] })).body.id;
    const id = await approved({ action: 'updateSegment', payload: { id: segment, name: `cra-kseg${n}`, description: 'mine' } });
    await app.put(`/api/admin/segments/${segment}`, { name: `cra-kseg${n}`, description: 'theirs' });
    await refused(id, (b) => b.segments[0].changes[0].conflict, `The segment ${segment} was changed`);
  });

  it('editing the change (while In review) takes a new snapshot: the conflict is gone', async () => {
    const draft = (await app.post(CR, update(), ann)).body;
    await app.put(`${P}/change-requests/${draft.id}/state`, { state: 'In review' }, ann);
    await app.put(`${prod(k())}/strategies/${strategy}`, { name: 'flexibleRollout', parameters: { rollout: '30', stickiness: 'default', groupId: 'k' } });
    const stale = (await app.get(`${P}/change-requests/${draft.id}`)).body.features[0].changes[0];
    expect(stale.conflict).toContain('was changed');
    const edited = await app.put(`${P}/change-requests/${draft.id}/changes/${stale.id}`, update(), ann);
    expect(edited.body.features[0].changes[0].conflict).toBeUndefined();
  });

  it('a closed request shows no conflicts', async () => {
    const id = await approved(update());
    await app.put(`${P}/change-requests/${id}/state`, { state: 'Cancelled' }, ann);
    await app.del(`${prod(k())}/strategies/${strategy}`);
    expect((await app.get(`${P}/change-requests/${id}`)).body.features[0].changes[0].conflict).toBeUndefined();
  });
});

describe('all or nothing', () => {
  it('a change that fails (a segment still in use) fails the whole request, naming the change; nothing is written', async () => {
    await app.post(F, { name: 'cra-t' });
    const segment = (await app.post('/api/admin/segments', { name: 'cra-used', constraints: [] })).body.id;
    await app.post(`${prod('cra-t')}/strategies`, { name: 'default', segments: [segment] });
    const id = await approved([
      { action: 'addStrategy', feature: 'cra-t', payload: { name: 'userWithId', parameters: { userIds: 'x' } } },
      { action: 'updateEnabled', feature: 'cra-t', payload: { enabled: true } },
      { action: 'deleteSegment', payload: { id: segment } },
    ]);
    const before = await modelSnapshot();
    const res = await apply(id);
    expect([res.status, res.body.name]).toEqual([403, 'InvalidOperationError']);
    expect(res.body.message).toMatch(/^Change \d+ \(deleteSegment\) could not be applied: /);
    expect(await modelSnapshot()).toEqual(before);
    expect((await app.get(`${P}/change-requests/${id}`)).body.state).toBe('Approved');
  });
});

describe('background changes (defaultChange)', () => {
  it('switching on a feature without strategies adds the default strategy: shown before, made when applied', async () => {
    await app.post(F, { name: 'cra-d1' });
    const id = await approved({ action: 'updateEnabled', feature: 'cra-d1', payload: { enabled: true } });
    const shown = (await app.get(`${P}/change-requests/${id}`)).body.features[0].defaultChange;
    expect(shown).toEqual({ action: 'addStrategy', payload: expect.objectContaining({ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'cra-d1' } }) });
    expect((await apply(id)).status).toBe(200);
    expect((await strategiesOf('cra-d1')).map((s) => [s.name, s.parameters])).toEqual([['flexibleRollout', { rollout: '100', stickiness: 'default', groupId: 'cra-d1' }]]);
    expect(await enabledIn('cra-d1')).toBe(true);
  });

  it('removing the last active strategy of an enabled environment switches it off: shown before, made when applied', async () => {
    await app.post(F, { name: 'cra-d2' });
    const only = (await app.post(`${prod('cra-d2')}/strategies`, { name: 'default' })).body.id;
    await app.post(`${prod('cra-d2')}/on`);
    const id = await approved({ action: 'deleteStrategy', feature: 'cra-d2', payload: { id: only } });
    expect((await app.get(`${P}/change-requests/${id}`)).body.features[0].defaultChange).toEqual({ action: 'updateEnabled', payload: { enabled: false } });
    expect((await apply(id)).status).toBe(200);
    expect(await enabledIn('cra-d2')).toBe(false);
  });

  it('re-activating disabled strategies instead, when the change asks: no default strategy', async () => {
    await app.post(F, { name: 'cra-d3' });
    await app.post(`${prod('cra-d3')}/strategies`, { name: 'default', disabled: true });
    const id = await approved({ action: 'updateEnabled', feature: 'cra-d3', payload: { enabled: true, shouldActivateDisabledStrategies: true } });
    expect((await app.get(`${P}/change-requests/${id}`)).body.features[0].defaultChange).toBeUndefined();
    expect((await apply(id)).status).toBe(200);
    expect((await strategiesOf('cra-d3')).map((s) => [s.name, s.disabled])).toEqual([['default', false]]);
  });
});

describe('archiving', () => {
  it('a parent and the child depending on it are archived together, whatever the order of the changes', async () => {
    await app.post(F, { name: 'cra-parent' });
    await app.post(F, { name: 'cra-child' });
    await app.post(`${F}/cra-child/dependencies`, { feature: 'cra-parent' });
    const id = await approved([{ action: 'archiveFeature', feature: 'cra-parent' }, { action: 'archiveFeature', feature: 'cra-child' }]);
    expect((await apply(id)).status).toBe(200);
    expect((await app.get(`${F}/cra-parent`)).status).toBe(404);
    expect((await app.get(`${F}/cra-child`)).status).toBe(404);
  });
});

describe('reading open requests', () => {
  it('costs the same statements for one request as for eleven (conflicts and background changes read in batches)', async () => {
    await app.post('/api/admin/projects', { id: 'crq', name: 'Reads' });
    await app.post('/api/admin/projects/crq/environments', { environment: 'production' });
    const propose = async (i: number) => {
      const feature = `crq-${i}`;
      await app.post('/api/admin/projects/crq/features', { name: feature });
      const strategy = (await app.post(`/api/admin/projects/crq/features/${feature}/environments/production/strategies`, { name: 'default', disabled: true })).body.id;
      const draft = await app.post('/api/admin/projects/crq/environments/production/change-requests', [
        { action: 'updateEnabled', feature, payload: { enabled: true } },
        { action: 'updateStrategy', feature, payload: { id: strategy, name: 'default', title: 'x' } },
        { action: 'patchVariant', feature, payload: { variants: [] } },
      ]);
      expect(draft.status).toBe(200);
      // Sent to review, so the next proposal opens a new Draft.
      await app.put(`/api/admin/projects/crq/change-requests/${draft.body.id}/state`, { state: 'In review' });
    };
    const statements = async () => {
      app.resetQueryCount();
      const res = await app.get('/api/admin/projects/crq/change-requests/open');
      return { n: res.body.length, queries: app.queries.length, defaults: res.body.filter((r: any) => r.features[0].defaultChange).length };
    };
    await propose(0);
    const one = await statements();
    for (let i = 1; i <= 10; i++) await propose(i);
    const eleven = await statements();
    expect([one.n, eleven.n, one.defaults, eleven.defaults]).toEqual([1, 11, 1, 11]);
    expect(eleven.queries).toBe(one.queries);
  });
});
