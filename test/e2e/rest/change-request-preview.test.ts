import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { normalizedValue } from '../../../src/domain/playground/hashing';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 12 part 9: preview before approving. `POST …/change-requests/:id/preview {contexts}` applies the request in
 * memory and evaluates each context before and after for every feature it affects. The reference for "after" is the
 * playground once the same changes are made directly (the admin token skips change requests); for "before", the
 * playground now. Nothing is written by a preview.
 */
let app: TestApp;
const PROJECT = 'crp';
const ENV = 'production';
const P = `/api/admin/projects/${PROJECT}`;
const fe = (feature: string) => `${P}/features/${feature}/environments/${ENV}`;
const CR = `${P}/environments/${ENV}/change-requests`;

async function ok<T = any>(call: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
const sql = <T = any>(text: string, params: unknown[] = []) => app.orm.em.fork().execute<T[]>(text, params);

/** A Draft holding `changes` (the admin's Draft for the environment: discard() empties it between tests). */
async function draft(changes: unknown[]): Promise<number> {
  return (await ok(app.post(CR, changes))).id;
}
async function discard(id: number): Promise<void> {
  const request = await ok(app.get(`${P}/change-requests/${id}`));
  const changes = [...request.features, ...request.segments].flatMap((f: any) => f.changes.map((c: any) => c.id));
  for (const c of changes) await ok(app.del(`${P}/change-requests/${id}/changes/${c}`));
}
const preview = (id: number, contexts: unknown[]) => app.post(`${P}/change-requests/${id}/preview`, { contexts });

type Decision = { isEnabled: boolean; variant: string };
/** The playground now, per context: feature name → decision (one request per context). */
async function playground(contexts: Array<Record<string, unknown>>): Promise<Array<Map<string, Decision>>> {
  const out: Array<Map<string, Decision>> = [];
  for (const context of contexts) {
    const body = await ok(app.post('/api/admin/playground', { environment: ENV, projects: [PROJECT], context }));
    out.push(new Map(body.features.map((f: any) => [f.name, { isEnabled: f.isEnabled, variant: f.variant.name }])));
  }
  return out;
}
const decision = (r: any): Decision | undefined => (r === null ? undefined : { isEnabled: r.isEnabled, variant: r.variant.name });

/** Every shown feature's `before` equals `was` and `after` equals `is`, context by context. */
function expectPlayground(body: any, was: Array<Map<string, Decision>>, is: Array<Map<string, Decision>>): void {
  for (const feature of body.features) {
    const got = feature.results.map((r: any) => ({ before: decision(r.before), after: decision(r.after) }));
    const want = was.map((w, i) => ({ before: w.get(feature.name), after: is[i].get(feature.name) }));
    expect({ feature: feature.name, results: got }).toEqual({ feature: feature.name, results: want });
  }
}

/** What a preview must not change: the audit log and the model version. */
async function written(): Promise<unknown> {
  const [events] = await sql('select count(*)::int as n, coalesce(max(id), 0)::int as last from events');
  const [version] = await sql('select version::text as v from model_version where id = 1');
  const [changes] = await sql('select count(*)::int as n from change_request_changes');
  return { events, version, changes };
}

const users = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ appName: 'preview-test', userId: `user-${from + i}` }));

beforeAll(async () => {
  app = await startTestApp();
  await ok(app.post('/api/admin/projects', { id: PROJECT, name: 'Preview', defaultStickiness: 'sessionId' }), 201);
  await ok(app.put(`${P}/environments/${ENV}/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 }), 204);
});
afterAll(async () => { await app.close(); });

describe('a rollout raised from 10 % to 50 %', () => {
  const contexts = users(1000);
  let strategy: string;
  let request: number;

  beforeAll(async () => {
    await ok(app.post(`${P}/features`, { name: 'crp-rollout' }), 201);
    strategy = (await ok(app.post(`${fe('crp-rollout')}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: 'crp-rollout' } }))).id;
    await ok(app.put(`${fe('crp-rollout')}/variants`, [{ name: 'blue', weightType: 'variable', stickiness: 'default' }, { name: 'green', weightType: 'variable', stickiness: 'default' }]));
    await ok(app.post(`${fe('crp-rollout')}/on`));
    request = await draft([{ action: 'updateStrategy', feature: 'crp-rollout', payload: { id: strategy, parameters: { rollout: '50', stickiness: 'default', groupId: 'crp-rollout' } } }]);
  });

  it('shows, over 1000 contexts, exactly the contexts that flip, and equals the playground before and after the request is applied', async () => {
    const untouched = await written();
    const res = await preview(request, contexts);
    expect(res.status).toBe(200);
    expect(await written()).toEqual(untouched);
    const body = res.body;
    expect(body).toMatchObject({ id: request, project: PROJECT, environment: ENV, warnings: [] });
    expect(body.features.map((f: any) => [f.name, f.reasons])).toEqual([['crp-rollout', ['change']]]);
    const [feature] = body.features;
    expect(feature.before.strategies.map((s: any) => [s.id, s.parameters.rollout])).toEqual([[strategy, '10']]);
    expect(feature.after.strategies.map((s: any) => [s.id, s.parameters.rollout])).toEqual([[strategy, '50']]);
    expect(feature.results).toHaveLength(1000);
    expect(feature.results[7].context).toEqual(contexts[7]);

    // The contexts that flip are those whose bucket is above 10 and at most 50, and only they.
    const flips = contexts.filter((c) => { const b = normalizedValue(c.userId, 'crp-rollout'); return b > 10 && b <= 50; }).map((c) => c.userId);
    const changed = feature.results.filter((r: any) => r.changed).map((r: any) => r.context.userId);
    expect(changed).toEqual(flips);
    expect(flips.length).toBeGreaterThan(300);
    expect(body.changedCount).toBe(flips.length);
    for (const r of feature.results) {
      if (r.changed) expect([r.before.isEnabled, r.after.isEnabled, r.before.variant.name]).toEqual([false, true, 'disabled']);
      else expect(r.before.isEnabled).toBe(r.after.isEnabled);
    }

    // The playground now (one advanced request expands the 1000 user ids), then after the same change made directly.
    const advanced = async () => {
      const answer = await ok(app.post('/api/admin/playground/advanced', { environments: [ENV], projects: [PROJECT], context: { appName: 'preview-test', userId: contexts.map((c) => c.userId).join(',') } }));
      const entries = answer.features.find((f: any) => f.name === 'crp-rollout').environments[ENV];
      return new Map<string, Decision>(entries.map((e: any) => [e.context.userId, { isEnabled: e.isEnabled, variant: e.variant.name }]));
    };
    const was = await advanced();
    await ok(app.put(`${fe('crp-rollout')}/strategies/${strategy}`, { parameters: { rollout: '50', stickiness: 'default', groupId: 'crp-rollout' } }));
    const is = await advanced();
    expect(feature.results.map((r: any) => decision(r.before))).toEqual(contexts.map((c) => was.get(c.userId)));
    expect(feature.results.map((r: any) => decision(r.after))).toEqual(contexts.map((c) => is.get(c.userId)));
    // The variants shown are the ones the playground gives, and some contexts get each.
    expect(new Set(feature.results.filter((r: any) => r.after.isEnabled).map((r: any) => r.after.variant.name))).toEqual(new Set(['blue', 'green']));
    // The same answers from the basic playground for a few contexts.
    const sample = [contexts[0], contexts[changed.length > 0 ? contexts.findIndex((c) => c.userId === changed[0]) : 1], contexts[999]];
    const basic = await playground(sample);
    expect(sample.map((c) => is.get(c.userId))).toEqual(basic.map((m) => m.get('crp-rollout')));
    await discard(request);
  });
});

describe('what the changes do', () => {
  const contexts = [...users(40), { appName: 'preview-test', sessionId: 's-1' }, { appName: 'preview-test', properties: { tenant: 'acme' } }];

  /**
   * Previews `changes`, makes them directly with `apply`, and checks the preview's before and after against the
   * playground before and after. Returns the preview.
   */
  async function check(changes: unknown[], apply: () => Promise<void>): Promise<any> {
    const request = await draft(changes);
    const untouched = await written();
    const res = await preview(request, contexts);
    expect(res.status).toBe(200);
    expect(await written()).toEqual(untouched);
    await discard(request);
    const was = await playground(contexts);
    await apply();
    const is = await playground(contexts);
    expectPlayground(res.body, was, is);
    expect(res.body.changedCount).toBe(res.body.features.reduce((n: number, f: any) => n + f.results.filter((r: any) => r.changed).length, 0));
    return res.body;
  }

  it('enabling a feature without strategies shows the default strategy (the project\'s stickiness, groupId = feature name)', async () => {
    await ok(app.post(`${P}/features`, { name: 'crp-bare' }), 201);
    const body = await check([{ action: 'updateEnabled', feature: 'crp-bare', payload: { enabled: true } }], async () => {
      await ok(app.post(`${fe('crp-bare')}/on`));
    });
    const [feature] = body.features;
    expect(feature.before).toEqual({ enabled: false, strategies: [], variants: [], dependencies: [] });
    expect(feature.after.enabled).toBe(true);
    expect(feature.after.strategies).toEqual([{
      id: expect.any(String), name: 'flexibleRollout', title: null, disabled: false, featureName: 'crp-bare', sortOrder: 0, segments: [], constraints: [], variants: [],
      parameters: { rollout: '100', stickiness: 'sessionId', groupId: 'crp-bare' },
    }]);
    // The strategy the direct change added is the same but for its id.
    const direct = await ok(app.get(fe('crp-bare')));
    expect(direct.strategies.map(({ id: _id, ...s }: any) => s)).toEqual(feature.after.strategies.map(({ id: _id, ...s }: any) => s));
    // A 100 % rollout sticky on sessionId: the context with a session id gets the feature.
    expect(feature.results.filter((r: any) => r.after.isEnabled).map((r: any) => r.context)).toEqual([{ appName: 'preview-test', sessionId: 's-1' }]);
  });

  it('deleting the last strategy switches the environment off', async () => {
    await ok(app.post(`${P}/features`, { name: 'crp-last' }), 201);
    const s = (await ok(app.post(`${fe('crp-last')}/strategies`, { name: 'default' }))).id;
    await ok(app.post(`${fe('crp-last')}/on`));
    const body = await check([{ action: 'deleteStrategy', feature: 'crp-last', payload: { id: s } }], async () => {
      await ok(app.del(`${fe('crp-last')}/strategies/${s}`));
    });
    const [feature] = body.features;
    expect([feature.before.enabled, feature.after.enabled, feature.after.strategies]).toEqual([true, false, []]);
    expect((await ok(app.get(fe('crp-last')))).enabled).toBe(false);
    expect(feature.results.every((r: any) => r.before.isEnabled && !r.after.isEnabled && r.changed)).toBe(true);
  });

  it('disabling the only active strategy through updateStrategy switches it off too; shouldActivateDisabledStrategies turns it back on', async () => {
    await ok(app.post(`${P}/features`, { name: 'crp-disable' }), 201);
    const s = (await ok(app.post(`${fe('crp-disable')}/strategies`, { name: 'default' }))).id;
    await ok(app.post(`${fe('crp-disable')}/on`));
    const off = await check([{ action: 'updateStrategy', feature: 'crp-disable', payload: { id: s, disabled: true } }], async () => {
      await ok(app.put(`${fe('crp-disable')}/strategies/${s}`, { disabled: true }));
    });
    expect([off.features[0].after.enabled, off.features[0].after.strategies[0].disabled]).toEqual([false, true]);
    const on = await check([{ action: 'updateEnabled', feature: 'crp-disable', payload: { enabled: true, shouldActivateDisabledStrategies: true } }], async () => {
      await ok(app.post(`${fe('crp-disable')}/on`, { shouldActivateDisabledStrategies: true }));
    });
    expect(on.features[0].after.strategies.map((x: any) => [x.id, x.disabled])).toEqual([[s, false]]);
    expect(on.features[0].after.enabled).toBe(true);
  });

  it('archiving shows after null; a feature depending on a disabled parent flips with it', async () => {
    await ok(app.post(`${P}/features`, { name: 'crp-parent' }), 201);
    await ok(app.post(`${P}/features`, { name: 'crp-child' }), 201);
    await ok(app.post(`${P}/features`, { name: 'crp-gone' }), 201);
    for (const f of ['crp-parent', 'crp-child', 'crp-gone']) {
      await ok(app.post(`${fe(f)}/strategies`, { name: 'default' }));
      await ok(app.post(`${fe(f)}/on`));
    }
    await ok(app.post(`${P}/features/crp-child/dependencies`, { feature: 'crp-parent' }));
    const body = await check([
      { action: 'archiveFeature', feature: 'crp-gone' },
      { action: 'updateEnabled', feature: 'crp-parent', payload: { enabled: false } },
    ], async () => {
      await ok(app.post(`${fe('crp-parent')}/off`));
      await ok(app.del(`${P}/features/crp-gone`), 202);
    });
    expect(body.features.map((f: any) => [f.name, f.reasons])).toEqual([['crp-gone', ['change']], ['crp-parent', ['change']], ['crp-child', ['parent']]]);
    const [gone, parent, child] = body.features;
    expect([gone.before?.enabled, gone.after]).toEqual([true, null]);
    expect(gone.results.every((r: any) => r.before.isEnabled && r.after === null && r.changed)).toBe(true);
    expect([parent.after.enabled, child.after.enabled, child.after.dependencies]).toEqual([false, true, [{ feature: 'crp-parent', enabled: true }]]);
    expect(child.results.every((r: any) => !r.before.hasUnsatisfiedDependency && r.after.hasUnsatisfiedDependency && !r.after.isEnabled && r.changed)).toBe(true);
  });

  it('a segment change shows every feature whose strategies use the segment, in any project', async () => {
    const segment = (await ok(app.post('/api/admin/segments', { name: 'crp-seg', constraints: [] }), 201)).id;
    await ok(app.post(`${P}/features`, { name: 'crp-seg-a' }), 201);
    await ok(app.post('/api/admin/projects/default/features', { name: 'crp-seg-b' }), 201);
    for (const [project, f] of [[PROJECT, 'crp-seg-a'], ['default', 'crp-seg-b']]) {
      const path = `/api/admin/projects/${project}/features/${f}/environments/${ENV}`;
      await ok(app.post(`${path}/strategies`, { name: 'default', segments: [segment] }));
      await ok(app.post(`${path}/on`));
    }
    const constraints = [{ contextName: 'userId', operator: 'IN', values: ['user-1', 'user-2', 'user-3'] }];
    const request = await draft([{ action: 'updateSegment', payload: { id: segment, name: 'crp-seg', constraints } }]);
    const res = await preview(request, contexts);
    expect(res.status).toBe(200);
    await discard(request);
    expect(res.body.features.map((f: any) => [f.name, f.project, f.reasons])).toEqual([['crp-seg-a', PROJECT, ['segment']], ['crp-seg-b', 'default', ['segment']]]);
    // The configuration is unchanged; the evaluation is not.
    for (const f of res.body.features) expect(f.after).toEqual(f.before);
    const enabledAfter = res.body.features[0].results.filter((r: any) => r.after.isEnabled).map((r: any) => r.context.userId);
    expect(enabledAfter).toEqual(['user-1', 'user-2', 'user-3']);
    expect(res.body.features[0].results[1].after.strategies.data[0].segments[0]).toMatchObject({ id: segment, name: 'crp-seg', result: true });
    // As the playground sees it once the segment is changed directly (crp-seg-b is in `default`: compare it there).
    await ok(app.put(`/api/admin/segments/${segment}`, { name: 'crp-seg', constraints }), 204);
    for (const [project, f] of [[PROJECT, 'crp-seg-a'], ['default', 'crp-seg-b']]) {
      const shown = res.body.features.find((x: any) => x.name === f);
      for (const [i, context] of contexts.entries()) {
        const answer = await ok(app.post('/api/admin/playground', { environment: ENV, projects: [project], context }));
        expect([f, i, decision(shown.results[i].after)]).toEqual([f, i, decision(answer.features.find((x: any) => x.name === f))]);
      }
    }
  });

  it('applies in phases: strategies first, then enabling, then archiving, each in change id order', async () => {
    await ok(app.post(`${P}/features`, { name: 'constructor' }), 201);
    const s = (await ok(app.post(`${fe('constructor')}/strategies`, { name: 'userWithId', parameters: { userIds: 'user-5' } }))).id;
    // Enabling comes first by id but runs after the strategy is deleted: the default strategy is added then.
    const body = await check([
      { action: 'updateEnabled', feature: 'constructor', payload: { enabled: true } },
      { action: 'deleteStrategy', feature: 'constructor', payload: { id: s } },
      { action: 'addStrategy', feature: 'constructor', payload: { name: 'userWithId', parameters: { userIds: 'user-6' }, disabled: true } },
    ], async () => {
      await ok(app.del(`${fe('constructor')}/strategies/${s}`));
      await ok(app.post(`${fe('constructor')}/strategies`, { name: 'userWithId', parameters: { userIds: 'user-6' }, disabled: true }));
      await ok(app.post(`${fe('constructor')}/on`));
    });
    const [feature] = body.features;
    expect(feature.name).toBe('constructor');
    expect(feature.after.strategies.map((x: any) => [x.name, x.sortOrder, x.disabled])).toEqual([['userWithId', 0, true], ['flexibleRollout', 1, false]]);
    expect(feature.results.filter((r: any) => r.after.isEnabled).map((r: any) => r.context.sessionId)).toEqual(['s-1']);
  });

  it('variants and reordering', async () => {
    await ok(app.post(`${P}/features`, { name: 'crp-variants' }), 201);
    const first = (await ok(app.post(`${fe('crp-variants')}/strategies`, { name: 'userWithId', parameters: { userIds: 'user-1' }, variants: [{ name: 'from-first', weightType: 'variable', stickiness: 'default' }] }))).id;
    const second = (await ok(app.post(`${fe('crp-variants')}/strategies`, { name: 'default', variants: [{ name: 'from-second', weightType: 'variable', stickiness: 'default' }] }))).id;
    await ok(app.post(`${fe('crp-variants')}/on`));
    const variants = [{ name: 'a', weightType: 'variable', stickiness: 'default' }, { name: 'b', weightType: 'fix', weight: 200, stickiness: 'default' }];
    const body = await check([
      { action: 'patchVariant', feature: 'crp-variants', payload: { variants } },
      { action: 'reorderStrategy', feature: 'crp-variants', payload: [{ id: second, sortOrder: 0 }, { id: first, sortOrder: 1 }] },
    ], async () => {
      await ok(app.put(`${fe('crp-variants')}/variants`, variants));
      await ok(app.post(`${fe('crp-variants')}/strategies/set-sort-order`, [{ id: second, sortOrder: 0 }, { id: first, sortOrder: 1 }]));
    });
    const [feature] = body.features;
    expect(feature.after.variants.map((v: any) => [v.name, v.weight])).toEqual([['a', 800], ['b', 200]]);
    expect(feature.after.strategies.map((x: any) => x.id)).toEqual([second, first]);
    const direct = await ok(app.get(fe('crp-variants')));
    expect({ enabled: direct.enabled, strategies: direct.strategies, variants: direct.variants }).toEqual({ enabled: feature.after.enabled, strategies: feature.after.strategies, variants: feature.after.variants });
    expect(feature.results[1].before.variant.name).toBe('from-first');
    expect(feature.results[1].after.variant.name).toBe('from-second');
  });

  it('a change the apply would refuse now is left out and reported', async () => {
    await ok(app.post(`${P}/features`, { name: 'crp-stale' }), 201);
    const s = (await ok(app.post(`${fe('crp-stale')}/strategies`, { name: 'default' }))).id;
    const request = await draft([
      { action: 'updateStrategy', feature: 'crp-stale', payload: { id: s, title: 'Renamed' } },
      { action: 'updateEnabled', feature: 'crp-stale', payload: { enabled: true } },
    ]);
    await ok(app.del(`${fe('crp-stale')}/strategies/${s}`));
    const res = await preview(request, users(2));
    await discard(request);
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([{ changeId: expect.any(Number), action: 'updateStrategy', feature: 'crp-stale', message: expect.stringContaining(`Could not find strategy with id ${s}`) }]);
    // The rest still applies: enabling adds the default strategy.
    expect(res.body.features[0].after.strategies.map((x: any) => x.name)).toEqual(['flexibleRollout']);
  });
});

describe('errors', () => {
  let request: number;
  beforeAll(async () => {
    await ok(app.post(`${P}/features`, { name: 'crp-errors' }), 201);
    request = await draft([{ action: 'updateEnabled', feature: 'crp-errors', payload: { enabled: true } }]);
  });
  afterAll(async () => { await discard(request); });

  it('404 NotFoundError for an unknown request, a malformed id, or a request of another project', async () => {
    for (const path of [`${P}/change-requests/999999/preview`, `${P}/change-requests/abc/preview`, `/api/admin/projects/default/change-requests/${request}/preview`]) {
      const res = await app.post(path, { contexts: users(1) });
      expect([path, res.status, res.body.name]).toEqual([path, 404, 'NotFoundError']);
    }
  });

  it('400 ValidationError naming the property for bad contexts', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'contexts'],
      [{ contexts: [] }, 'contexts'],
      [{ contexts: users(1001) }, 'contexts'],
      [{ contexts: [{ userId: 'x' }] }, 'contexts/0/appName'],
      [{ contexts: [{ appName: 'a' }, { appName: '' }] }, 'contexts/1/appName'],
      [{ contexts: [{ appName: 'a', currentTime: 'yesterday' }] }, 'contexts/0/currentTime'],
      [{ contexts: [{ appName: 'a', properties: { tenant: 7 } }] }, 'contexts/0/properties/tenant'],
      [{ contexts: 'all' }, 'contexts'],
      [{ contexts: [null] }, 'contexts/0'],
      [{ contexts: users(1), extra: true }, 'extra'],
      [[], ''],
    ];
    for (const [body, path] of cases) {
      const res = await app.post(`${P}/change-requests/${request}/preview`, body);
      expect([JSON.stringify(body).slice(0, 80), res.status, res.body.name, res.body.details?.[0]?.path]).toEqual([JSON.stringify(body).slice(0, 80), 400, 'ValidationError', path]);
    }
  });

  it('401 without a token; a Viewer may preview (reading needs no permission)', async () => {
    expect((await app.post(`${P}/change-requests/${request}/preview`, { contexts: users(1) }, { token: null })).status).toBe(401);
    await ok(app.post('/api/admin/user-admin', { username: 'crp-viewer', password: 'Preview-Pass-42', rootRole: 'Viewer' }), 201);
    const login = await app.post('/auth/simple/login', { username: 'crp-viewer', password: 'Preview-Pass-42' }, { token: null });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const res = await app.post(`${P}/change-requests/${request}/preview`, { contexts: users(1) }, { token: null, headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.body.features[0].name).toBe('crp-errors');
  });
});
