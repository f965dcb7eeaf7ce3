import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROLE_OWNER } from '../../../src/domain/access/permissions';
import { graphql } from '../../gql';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Moving a feature to another project (`POST …/features/:f/changeProject`, GraphQL `moveFeatureToProject`): the moved
 * feature answers under its new project only, SDK tokens of the old project stop seeing it, one feature-project-change
 * event is written; every refusal changes nothing and writes no event. On PostgreSQL the concurrent moves really
 * overlap (a pool of 20 connections); on the embedded database they queue, and every expectation holds just the same.
 */
if (Number(process.env.TEST_DB_POOL_MAX ?? 1) > 1) process.env.TEST_DB_POOL_MAX = '20';

let app: TestApp;
const P = '/api/admin/projects';
const features = (project: string) => `${P}/${project}/features`;
const feature = (project: string, name: string) => `${features(project)}/${name}`;
const move = (project: string, name: string, body: unknown, token?: string) => app.post(`${feature(project, name)}/changeProject`, body, token ? { token } : {});
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const SPEC = { 'unleash-client-spec': '5.2.0' };
const clientNames = async (token: string): Promise<string[]> => {
  const res = await app.get('/api/client/features', { token, headers: SPEC });
  expect(res.status).toBe(200);
  return res.body.features.map((f: any) => f.name);
};

const must = async (reply: Promise<Reply>, status = 200): Promise<any> => {
  const res = await reply;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const expectError = (res: Reply, status: number, name: string) => {
  expect({ status: res.status, name: res.body?.name }).toEqual({ status, name });
  expect(typeof res.body.id).toBe('string');
  expect(typeof res.body.message).toBe('string');
};

async function lastEventId(): Promise<number> {
  const [row] = await sql('select max(id) as id from events');
  return Number(row.id ?? 0);
}
async function eventsSince(id: number): Promise<any[]> {
  return sql('select id, type, project, environment, feature_name, created_by, data, pre_data, tags from events where id > ? order by id', [id]);
}

/** Every row a move could touch, and the event count: equal before and after a refusal. */
async function snapshot(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const t of ['features', 'feature_environments', 'feature_strategies', 'feature_strategy_segments', 'feature_tags', 'feature_dependencies', 'context_field_usage']) {
    out[t] = (await sql(`select to_jsonb(t)::text as row from ${t} t order by 1`)).map((r) => r.row);
  }
  out.events = await lastEventId();
  return out;
}
async function changesNothing(failing: () => Promise<Reply>): Promise<Reply> {
  const before = await snapshot();
  const res = await failing();
  expect(await snapshot()).toEqual(before);
  return res;
}

/** A user with the given root role and a personal access token. */
async function user(username: string, rootRole: string): Promise<{ id: number; token: string }> {
  const id = Number((await must(app.post('/api/admin/user-admin', { username, rootRole, password: 'Move-Pass-4242' }), 201)).id);
  const login = await app.post('/auth/simple/login', { username, password: 'Move-Pass-4242' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const pat = await must(app.post('/api/admin/user/tokens', { description: 'move', expiresAt: '2100-01-01T00:00:00.000Z' }, { token: null, headers: { cookie } }), 201);
  return { id, token: pat.secret };
}

let editor: { id: number; token: string };
let viewer: { id: number; token: string };
let globalSegment: number;
let defaultSegment: number;
const clientTokens: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp();
  // An environment created before `mv-wide`, so only that project (created after it) has it.
  await must(app.post('/api/admin/environments', { name: 'mv-qa', type: 'test' }), 201);
  for (const id of ['mv-target', 'mv-wide', 'mv-patterned', 'mv-limited', 'mv-devonly', 'mv-guarded', 'mv-guarded-src']) await must(app.post(P, { id, name: id }), 201);
  await must(app.del(`${P}/mv-target/environments/mv-qa`));
  for (const id of ['mv-patterned', 'mv-limited', 'mv-devonly', 'mv-guarded', 'mv-guarded-src']) await must(app.del(`${P}/${id}/environments/mv-qa`));
  await must(app.put(`${P}/mv-patterned/settings`, { featureNaming: { pattern: 'pt-.+', example: 'pt-x' } }));
  await must(app.put(`${P}/mv-limited`, { name: 'mv-limited', featureLimit: 1 }));
  await must(app.post(features('mv-limited'), { name: 'mv-occupant' }), 201);
  await must(app.del(`${P}/mv-devonly/environments/production`));
  await must(app.post(features('mv-guarded-src'), { name: 'mv-guarded-flag' }), 201);
  for (const p of ['mv-guarded', 'mv-guarded-src']) {
    await must(app.put(`${P}/${p}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 }), 204);
  }
  globalSegment = (await must(app.post('/api/admin/segments', { name: 'mv-global', constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] }), 201)).id;
  defaultSegment = (await must(app.post('/api/admin/segments', { name: 'mv-default-only', project: 'default', constraints: [] }), 201)).id;

  editor = await user('mv-editor', 'Editor'); // MOVE_FEATURE_TOGGLE in `default` only (its root role)
  viewer = await user('mv-viewer', 'Viewer');
  await must(app.post(`${P}/mv-wide/access`, { roles: [ROLE_OWNER], users: [editor.id] }));

  for (const [name, projects] of [['old', ['default']], ['new', ['mv-target']]] as const) {
    clientTokens[name] = (await must(app.post('/api/admin/api-tokens', { tokenName: `mv-client-${name}`, type: 'client', environment: 'development', projects }), 201)).secret;
  }
});
afterAll(async () => { await app.close(); });

/** A feature in `project`: a strategy (constraint, global segment) switched on in development, variants in production, a tag. */
async function richFeature(name: string, project = 'default'): Promise<any> {
  await must(app.post(features(project), { name, description: `${name} moves` }), 201);
  await must(app.post(`${feature(project, name)}/environments/development/strategies`, {
    name: 'flexibleRollout', parameters: { rollout: '40', stickiness: 'default', groupId: name }, segments: [globalSegment],
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }],
  }));
  await must(app.post(`${feature(project, name)}/environments/development/on`));
  await must(app.put(`${feature(project, name)}/environments/production/variants`, [{ name: 'blue', weightType: 'variable', stickiness: 'default' }]));
  await must(app.post(`/api/admin/features/${name}/tags`, { type: 'simple', value: 'movable' }), 201);
  return must(app.get(feature(project, name)));
}

const listed = async (project: string): Promise<string[]> => (await must(app.get(features(project)))).features.map((f: any) => f.name);

describe('moving a feature', () => {
  it('moves it with everything it has: listed, read and served under the new project only; one event', async () => {
    const before = await richFeature('mv-a');
    expect(await clientNames(clientTokens.old)).toContain('mv-a');
    expect(await clientNames(clientTokens.new)).not.toContain('mv-a');
    // Both lists read (and so cached) before the move: what they answer after it shows the caches follow.
    expect(await listed('default')).toContain('mv-a');
    expect(await listed('mv-target')).not.toContain('mv-a');
    const since = await lastEventId();

    const res = await move('default', 'mv-a', { newProjectId: 'mv-target' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');

    const after = await must(app.get(feature('mv-target', 'mv-a')));
    expect(after).toEqual({ ...before, project: 'mv-target' });
    expectError(await app.get(feature('default', 'mv-a')), 404, 'NotFoundError');
    expect(await listed('mv-target')).toContain('mv-a');
    expect(await listed('default')).not.toContain('mv-a');
    expect(await sql('select distinct project from feature_strategies where feature_name = ?', ['mv-a'])).toEqual([{ project: 'mv-target' }]);
    expect(await sql('select project from context_field_usage where feature_name = ?', ['mv-a'])).toEqual([{ project: 'mv-target' }]);

    const events = await eventsSince(since);
    expect(events).toEqual([expect.objectContaining({
      type: 'feature-project-change', project: 'mv-target', environment: null, feature_name: 'mv-a', created_by: 'admin',
      data: { oldProject: 'default', newProject: 'mv-target' }, pre_data: null, tags: [{ type: 'simple', value: 'movable' }],
    })]);
    const [rest] = (await must(app.get('/api/admin/events/mv-a'))).events;
    expect(rest).toMatchObject({ type: 'feature-project-change', project: 'mv-target', featureName: 'mv-a', data: { oldProject: 'default', newProject: 'mv-target' } });

    // SDKs: a token of the old project no longer gets it, one of the new project does.
    expect(await clientNames(clientTokens.old)).not.toContain('mv-a');
    expect(await clientNames(clientTokens.new)).toContain('mv-a');
    // Project feature counts follow.
    const counts = new Map((await must(app.get(P))).projects.map((p: any) => [p.id, p.featureCount]));
    expect(counts.get('mv-target')).toBe(1);
  });

  it('GraphQL moveFeatureToProject does the same and answers the moved feature as REST reads it', async () => {
    await richFeature('mv-g');
    const since = await lastEventId();
    const res = await app.gql(GqlMoveFeature, { input: { project: 'default', feature: 'mv-g', newProject: 'mv-target' } });
    expect(res.body.errors).toBeUndefined();
    const moved = res.body.data!.moveFeatureToProject;
    const rest = await must(app.get(feature('mv-target', 'mv-g')));
    expect(moved).toEqual({
      name: 'mv-g', project: 'mv-target', description: rest.description,
      environments: rest.environments.map((e: any) => ({ name: e.name, enabled: e.enabled, strategies: e.strategies.map((s: any) => ({ id: s.id })) })),
    });
    expectError(await app.get(feature('default', 'mv-g')), 404, 'NotFoundError');
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.project, e.feature_name, e.data])).toEqual([['feature-project-change', 'mv-target', 'mv-g', { oldProject: 'default', newProject: 'mv-target' }]]);

    // A refusal has the same name on both doors.
    const refused = await app.gql(GqlMoveFeature, { input: { project: 'mv-target', feature: 'mv-g', newProject: 'mv-nowhere' } });
    expect(refused.body.errors?.[0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
    const denied = await app.gql(GqlMoveFeature, { input: { project: 'mv-target', feature: 'mv-g', newProject: 'default' } }, { token: editor.token });
    expect(denied.body.errors?.[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });
  });

  it('takes the environments of the new project: missing ones added switched off, unconfigured extra ones dropped', async () => {
    await must(app.post(features('default'), { name: 'mv-envs' }), 201);
    await must(app.post(`${feature('default', 'mv-envs')}/environments/development/strategies`, { name: 'default' }));
    await must(move('default', 'mv-envs', { newProjectId: 'mv-wide' }));
    const wide = await must(app.get(feature('mv-wide', 'mv-envs')));
    expect(wide.environments.map((e: any) => [e.name, e.enabled, e.strategies.length]).sort()).toEqual([['development', false, 1], ['mv-qa', false, 0], ['production', false, 0]]);
    // Back to default (no mv-qa there; it is unconfigured, so it goes), then on to a development-only project.
    await must(move('mv-wide', 'mv-envs', { newProjectId: 'default' }, editor.token));
    await must(move('default', 'mv-envs', { newProjectId: 'mv-devonly' }));
    expect(await sql('select environment from feature_environments where feature_name = ? order by environment', ['mv-envs'])).toEqual([{ environment: 'development' }]);
  });

  it('a non-admin holding MOVE_FEATURE_TOGGLE in both projects may move', async () => {
    await must(app.post(features('default'), { name: 'mv-by-editor' }), 201);
    const res = await move('default', 'mv-by-editor', { newProjectId: 'mv-wide' }, editor.token);
    expect(res.status).toBe(200);
    const [event] = await sql(`select created_by from events where type = 'feature-project-change' and feature_name = ?`, ['mv-by-editor']);
    expect(event.created_by).toBe('mv-editor');
  });

  it('to the project it is already in: 200, nothing changes, no event', async () => {
    await must(app.post(features('default'), { name: 'mv-stay' }), 201);
    const res = await changesNothing(() => move('default', 'mv-stay', { newProjectId: 'default' }));
    expect(res.status).toBe(200);
  });
});

describe('refusals change nothing and write no event', () => {
  beforeAll(async () => {
    await richFeature('mv-r');
    await must(app.post(features('default'), { name: 'mv-parent' }), 201);
    await must(app.post(features('default'), { name: 'mv-child' }), 201);
    await must(app.post(`${feature('default', 'mv-child')}/dependencies`, { feature: 'mv-parent' }));
    await must(app.post(features('default'), { name: 'mv-archived' }), 201);
    await must(app.del(feature('default', 'mv-archived')), 202);
    await must(app.post(features('default'), { name: 'mv-project-seg' }), 201);
    await must(app.post(`${feature('default', 'mv-project-seg')}/environments/development/strategies`, { name: 'default', segments: [defaultSegment] }));
    await must(app.post(features('default'), { name: 'pt-named' }), 201);
  });

  const refused = async (status: number, name: string, send: () => Promise<Reply>): Promise<Reply> => {
    const res = await changesNothing(send);
    expectError(res, status, name);
    return res;
  };

  it('403 NoAccessError without MOVE_FEATURE_TOGGLE in the feature\'s project', async () => {
    const res = await refused(403, 'NoAccessError', () => move('default', 'mv-r', { newProjectId: 'mv-target' }, viewer.token));
    expect(res.body.message).toContain('"MOVE_FEATURE_TOGGLE" permission');
    expect(res.body.permissions).toEqual(['MOVE_FEATURE_TOGGLE']);
  });

  it('403 NoAccessError without MOVE_FEATURE_TOGGLE in the target project', async () => {
    const res = await refused(403, 'NoAccessError', () => move('default', 'mv-r', { newProjectId: 'mv-target' }, editor.token));
    expect(res.body.message).toContain('"MOVE_FEATURE_TOGGLE" permission');
    expect(res.body.message).toContain('"mv-target"');
    expect(res.body.permissions).toEqual(['MOVE_FEATURE_TOGGLE']);
  });

  it('404 NotFoundError for a feature not in the path\'s project, an unknown feature, an archived one and an unknown target', async () => {
    await refused(404, 'NotFoundError', () => move('mv-target', 'mv-r', { newProjectId: 'mv-wide' }));
    await refused(404, 'NotFoundError', () => move('default', 'mv-nobody', { newProjectId: 'mv-target' }));
    await refused(404, 'NotFoundError', () => move('default', 'mv-archived', { newProjectId: 'mv-target' }));
    const res = await refused(404, 'NotFoundError', () => move('default', 'mv-r', { newProjectId: 'mv-nowhere' }));
    expect(res.body.message).toContain('mv-nowhere');
  });

  it('403 NoAccessError while change requests are enabled in the target or in the source project, admins included', async () => {
    const into = await refused(403, 'NoAccessError', () => move('default', 'mv-r', { newProjectId: 'mv-guarded' }));
    expect(into.body.message).toContain('mv-guarded');
    expect(into.body.permissions).toEqual(['SKIP_CHANGE_REQUEST']);
    const out = await refused(403, 'NoAccessError', () => move('mv-guarded-src', 'mv-guarded-flag', { newProjectId: 'mv-target' }));
    expect(out.body.message).toContain('mv-guarded-src');
  });

  it('403 ForbiddenError for a feature with dependencies, as child or as parent', async () => {
    const child = await refused(403, 'ForbiddenError', () => move('default', 'mv-child', { newProjectId: 'mv-target' }));
    expect(child.body.message).toContain('mv-parent');
    const parent = await refused(403, 'ForbiddenError', () => move('default', 'mv-parent', { newProjectId: 'mv-target' }));
    expect(parent.body.message).toContain('mv-child');
  });

  it('400 PatternError when the name does not fit the target\'s naming pattern (a fitting one moves)', async () => {
    const res = await refused(400, 'PatternError', () => move('default', 'mv-r', { newProjectId: 'mv-patterned' }));
    expect(res.body.message).toContain('pt-.+');
    await must(move('default', 'pt-named', { newProjectId: 'mv-patterned' }));
  });

  it('403 InvalidOperationError when the target is at its feature limit', async () => {
    const res = await refused(403, 'InvalidOperationError', () => move('default', 'mv-r', { newProjectId: 'mv-limited' }));
    expect(res.body.message).toContain('mv-limited');
  });

  it('409 ConflictError for a strategy using a segment of the source project', async () => {
    const res = await refused(409, 'ConflictError', () => move('default', 'mv-project-seg', { newProjectId: 'mv-target' }));
    expect(res.body.message).toContain(String(defaultSegment));
  });

  it('409 ConflictError for configuration in an environment the target has not added', async () => {
    // mv-r has variants in production (and a strategy, switched on, in development).
    const res = await refused(409, 'ConflictError', () => move('default', 'mv-r', { newProjectId: 'mv-devonly' }));
    expect(res.body.message).toContain('"production"');
  });

  it('400 ValidationError for a bad body', async () => {
    const bodies: unknown[] = [{}, { newProjectId: '' }, { newProjectId: 42 }, { newProjectId: null }, { newProjectId: ['mv-target'] },
      { newProjectId: 'mv-target', project: 'mv-target' }, [], 'mv-target', { newProjectId: 'x'.repeat(101) }];
    for (const body of bodies) {
      const res = await refused(400, 'ValidationError', () => move('default', 'mv-r', body));
      expect(Array.isArray(res.body.details)).toBe(true);
    }
    const missing = await refused(400, 'ValidationError', () => move('default', 'mv-r', undefined));
    expect(missing.body.details.length).toBeGreaterThan(0);
    const invalid = await refused(400, 'ValidationError', () => app.post(`${feature('default', 'mv-r')}/changeProject`, undefined, { raw: '{"newProjectId":' }));
    expect(invalid.body.name).toBe('ValidationError');
    const named = await refused(400, 'ValidationError', () => move('default', 'mv-r', { newProjectId: '' }));
    expect(named.body.details[0].path).toBe('newProjectId');
  });
});

describe('concurrent moves', () => {
  it('two moves of the same feature at once: one succeeds, the other finds it gone; one event; consistent rows', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `mv-race-${round}`;
      await must(app.post(features('default'), { name }), 201);
      await must(app.post(`${feature('default', name)}/environments/development/strategies`, { name: 'default' }));
      const since = await lastEventId();
      const targets = round % 2 === 0 ? ['mv-target', 'mv-wide'] : ['mv-target', 'mv-target'];
      const replies = await Promise.all(targets.map((t) => move('default', name, { newProjectId: t })));
      const winners = replies.map((r, i) => (r.status === 200 ? targets[i] : null)).filter((t): t is string => t !== null);
      expect(winners).toHaveLength(1);
      for (const r of replies.filter((x) => x.status !== 200)) expectError(r, 404, 'NotFoundError');
      const events = (await eventsSince(since)).filter((e) => e.feature_name === name);
      expect(events.map((e) => [e.type, e.project, e.data])).toEqual([['feature-project-change', winners[0], { oldProject: 'default', newProject: winners[0] }]]);
      await expectConsistent(name, winners[0]);
    }
  });

  it('moves there and back at once: as many events as successful moves, in the order the state shows', async () => {
    await must(app.post(features('default'), { name: 'mv-pingpong' }), 201);
    const since = await lastEventId();
    const replies = await Promise.all([
      move('default', 'mv-pingpong', { newProjectId: 'mv-target' }),
      move('mv-target', 'mv-pingpong', { newProjectId: 'default' }),
      move('default', 'mv-pingpong', { newProjectId: 'mv-wide' }),
      move('mv-wide', 'mv-pingpong', { newProjectId: 'default' }),
    ]);
    for (const r of replies) if (r.status !== 200) expectError(r, 404, 'NotFoundError');
    const events = (await eventsSince(since)).filter((e) => e.feature_name === 'mv-pingpong');
    expect(events).toHaveLength(replies.filter((r) => r.status === 200).length);
    expect(events.length).toBeGreaterThan(0);
    // Each event starts where the previous one ended, from default: a chain the state agrees with.
    let at = 'default';
    for (const e of events) {
      expect(e.data.oldProject).toBe(at);
      at = e.data.newProject;
    }
    await expectConsistent('mv-pingpong', at);
  });

  it('a move into a limited project and a create there at once: the limit holds', async () => {
    await must(app.put(`${P}/mv-limited`, { name: 'mv-limited', featureLimit: 2 }));
    await must(app.post(features('default'), { name: 'mv-limit-mover' }), 201);
    const [moved, created] = await Promise.all([
      move('default', 'mv-limit-mover', { newProjectId: 'mv-limited' }),
      app.post(features('mv-limited'), { name: 'mv-limit-new' }),
    ]);
    expect([moved.status, created.status].filter((s) => s === 200 || s === 201)).toHaveLength(1);
    const [{ count }] = await sql('select count(*)::int as count from features where project = ? and archived_at is null', ['mv-limited']);
    expect(count).toBe(2);
  });
});

/** The feature, its strategies and its environments agree on `project`, and only that project lists and serves it. */
async function expectConsistent(name: string, project: string): Promise<void> {
  expect(await sql('select project from features where name = ?', [name])).toEqual([{ project }]);
  const strategyProjects = await sql('select distinct project from feature_strategies where feature_name = ?', [name]);
  expect(strategyProjects.every((r) => r.project === project)).toBe(true);
  const envs = (await sql('select environment from feature_environments where feature_name = ? order by environment', [name])).map((r) => r.environment);
  const linked = (await sql('select environment_name from project_environments where project_id = ? order by environment_name', [project])).map((r) => r.environment_name);
  expect(envs).toEqual(linked);
  expect((await must(app.get(feature(project, name)))).project).toBe(project);
  for (const other of ['default', 'mv-target', 'mv-wide'].filter((p) => p !== project)) expectError(await app.get(feature(other, name)), 404, 'NotFoundError');
}

const GqlMoveFeature = graphql(`
  mutation GqlMoveFeature($input: MoveFeatureToProjectInput!) {
    moveFeatureToProject(input: $input) { name project description environments { name enabled strategies { id } } }
  }
`);
