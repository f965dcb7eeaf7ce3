import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 13: the batch export, import validation and import (spec endpoint 15, reference endpoint 15). Data is made
 * through the API in a source project, exported, and imported into a target project.
 */
let app: TestApp;
let viewerToken: string;
/** A Member of the target project (set by the 403 test below). */
let memberToken: string;
let segment: number;

const PASSWORD = 'Import-Export-42';
const must = async (method: string, path: string, body?: unknown) => {
  const res = await app.request(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const sql = <T = Record<string, any>>(q: string, params: unknown[] = []) => app.orm.em.fork().execute<T[]>(q, params);

beforeAll(async () => {
  app = await startTestApp();
  await must('POST', '/api/admin/user-admin', { username: 'ie-viewer', password: PASSWORD, rootRole: 'Viewer' });
  const login = await app.post('/auth/simple/login', { username: 'ie-viewer', password: PASSWORD }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 'ie', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;

  await must('POST', '/api/admin/projects', { id: 'src', name: 'Source' });
  await must('POST', '/api/admin/projects', { id: 'dst', name: 'Target' });
  await must('POST', '/api/admin/context', { name: 'region', legalValues: [{ value: 'eu' }, { value: 'us', description: 'United States' }] });
  await must('POST', '/api/admin/tag-types', { name: 'team', description: 'Owning team', icon: 'T' });
  segment = (await must('POST', '/api/admin/segments', { name: 'beta', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] })).id;
  await must('POST', '/api/admin/segments', { name: 'src-only', project: 'src', constraints: [] });
  await must('POST', '/api/admin/strategies', { name: 'custom-rule', parameters: [] });

  const S = '/api/admin/projects/src/features';
  await must('POST', S, { name: 'ie-parent', description: 'Parent', type: 'release' });
  await must('POST', S, { name: 'ie-child', description: 'Child', type: 'experiment', impressionData: true });
  await must('POST', S, { name: 'ie-plain', type: 'operational' });
  await must('POST', `${S}/ie-child/environments/development/strategies`, {
    name: 'flexibleRollout', title: 'Half', parameters: { rollout: '50', stickiness: 'userId', groupId: 'ie-child' },
    constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'us'] }, { contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['a'], caseInsensitive: true }],
    variants: [{ name: 'red', weight: 500, weightType: 'variable', stickiness: 'default' }, { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } }],
    segments: [segment],
  });
  await must('POST', `${S}/ie-child/environments/development/strategies`, { name: 'custom-rule', parameters: {}, disabled: true });
  await must('POST', `${S}/ie-parent/environments/development/strategies`, { name: 'default' });
  await must('POST', `${S}/ie-parent/environments/development/on`);
  await must('POST', `${S}/ie-child/environments/development/on`);
  await must('PUT', `${S}/ie-child/environments/development/variants`, [{ name: 'v1', weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['u1'] }] }]);
  await must('POST', `/api/admin/features/ie-child/tags`, { type: 'team', value: 'growth' });
  await must('POST', `/api/admin/features/ie-child/tags`, { type: 'simple', value: 'web' });
  await must('POST', `${S}/ie-child/dependencies`, { feature: 'ie-parent', enabled: true, variants: [] });
  // A strategy in production that an export of development leaves out.
  await must('POST', `${S}/ie-plain/environments/production/strategies`, { name: 'default' });
}, 60_000);
afterAll(async () => { await app.close(); });

const exportSrc = async () => {
  const res = await app.post('/api/admin/features-batch/export', { project: 'src', environment: 'development' });
  expect(res.status).toBe(200);
  return res.body;
};
/** An export with what differs between two projects' copies taken out: strategy and segment ids, the project. */
const comparable = (data: any) => ({
  ...data,
  features: data.features.map(({ project: _p, ...f }: any) => f),
  featureStrategies: data.featureStrategies.map(({ id: _id, segments: _s, ...s }: any) => s),
  segments: data.segments.map(({ id: _id, ...s }: any) => s),
});

describe('POST /api/admin/features-batch/export', () => {
  it('exports the chosen features of one environment as an import payload, and writes features-exported', async () => {
    const data = await exportSrc();
    expect(Object.keys(data).sort()).toEqual(['contextFields', 'dependencies', 'featureEnvironments', 'featureStrategies', 'featureTags', 'features', 'segments', 'tagTypes']);
    expect(data.features).toEqual([
      { name: 'ie-child', type: 'experiment', description: 'Child', project: 'src', stale: false, impressionData: true, archived: false },
      { name: 'ie-parent', type: 'release', description: 'Parent', project: 'src', stale: false, impressionData: false, archived: false },
      { name: 'ie-plain', type: 'operational', description: null, project: 'src', stale: false, impressionData: false, archived: false },
    ]);
    expect(data.featureStrategies.map((s: any) => [s.featureName, s.name])).toEqual([['ie-child', 'flexibleRollout'], ['ie-child', 'custom-rule'], ['ie-parent', 'default']]);
    expect(data.featureStrategies[0]).toMatchObject({ title: 'Half', segments: [segment], parameters: { rollout: '50', stickiness: 'userId', groupId: 'ie-child' }, disabled: false, sortOrder: 0 });
    expect(data.featureEnvironments).toEqual(expect.arrayContaining([
      { name: 'ie-child', featureName: 'ie-child', environment: 'development', enabled: true, variants: [{ name: 'v1', weight: 1000, weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['u1'] }] }] },
      { name: 'ie-plain', featureName: 'ie-plain', environment: 'development', enabled: false, variants: [] },
    ]));
    expect(data.contextFields.map((f: any) => f.name)).toEqual(['region', 'userId']);
    expect(data.contextFields[0]).toEqual({ name: 'region', description: null, stickiness: false, sortOrder: 10, legalValues: [{ value: 'eu' }, { value: 'us', description: 'United States' }] });
    expect(data.featureTags).toEqual([{ featureName: 'ie-child', tagType: 'simple', tagValue: 'web' }, { featureName: 'ie-child', tagType: 'team', tagValue: 'growth' }]);
    expect(data.segments).toEqual([{ id: segment, name: 'beta' }]);
    expect(data.tagTypes.map((t: any) => t.name)).toEqual(['simple', 'team']);
    expect(data.dependencies).toEqual([{ feature: 'ie-child', dependencies: [{ feature: 'ie-parent', enabled: true }] }]);
    const [event] = await app.events('features-exported');
    expect(event).toMatchObject({ type: 'features-exported', environment: 'development', data: { features: data.features } });
  });

  it('selects by feature names or by tag; downloadFile names a file', async () => {
    const byName = await app.post('/api/admin/features-batch/export', { features: ['ie-plain', 'nope'], environment: 'development', downloadFile: true });
    expect(byName.status).toBe(200);
    expect(byName.body.features.map((f: any) => f.name)).toEqual(['ie-plain']);
    expect(byName.headers.get('content-disposition')).toMatch(/^attachment; filename="export-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.json"$/);
    const byTag = await app.post('/api/admin/features-batch/export', { tag: 'team:growth', environment: 'development' });
    expect(byTag.body.features.map((f: any) => f.name)).toEqual(['ie-child']);
    expect(byTag.headers.get('content-disposition')).toBeNull();
  });

  it.each([
    [{ environment: 'development' }, 400, 'ValidationError'],
    [{ features: ['a'], project: 'src', environment: 'development' }, 400, 'ValidationError'],
    [{ tag: 'no-colon', environment: 'development' }, 400, 'ValidationError'],
    [{ project: 'src' }, 400, 'ValidationError'],
    [{ project: 'src', environment: 'nowhere' }, 404, 'NotFoundError'],
    [{ project: 'nowhere', environment: 'development' }, 404, 'NotFoundError'],
  ])('refuses %j with %i %s', async (body, status, name) => {
    const res = await app.post('/api/admin/features-batch/export', body);
    expect(res.status).toBe(status);
    expect(res.body.name).toBe(name);
  });
});

describe('import into another project: the round trip', () => {
  // Feature names are unique on an instance (as in Unleash): the export is taken, then the source features are deleted,
  // as when moving them to another instance.
  let original: any;
  beforeAll(async () => {
    original = await exportSrc();
    await must('POST', '/api/admin/projects/src/archive', { features: ['ie-child', 'ie-parent', 'ie-plain'] });
    await must('POST', '/api/admin/projects/src/delete', { features: ['ie-child', 'ie-parent', 'ie-plain'] });
  });
  const exported = async () => structuredClone(original);
  it('validation first: overwrites nothing, lists every feature as created, and writes nothing', async () => {
    const data = await exported();
    const eventsBefore = (await app.events()).length;
    const res = await app.post('/api/admin/features-batch/validate', { project: 'dst', environment: 'development', data });
    expect(res.body.details).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.permissions).toEqual([]);
    expect(res.body.warnings).toEqual([{ message: 'The following strategy types will be used in import. Please make sure the strategy type parameters are configured as in source environment:', affectedItems: ['custom-rule'] }]);
    expect(res.body.changes.map((c: any) => [c.feature, c.action])).toEqual([['ie-child', 'create'], ['ie-parent', 'create'], ['ie-plain', 'create']]);
    const child = res.body.changes[0];
    expect(child.strategies.added).toHaveLength(2);
    expect(child.strategies.added[0].segments).toEqual([segment]);
    expect(child.enabled).toEqual({ before: false, after: true });
    expect(child.tags.added).toEqual([{ type: 'simple', value: 'web' }, { type: 'team', value: 'growth' }]);
    expect(child.dependencies.added).toEqual([{ feature: 'ie-parent', enabled: true }]);
    expect((await app.events()).length).toBe(eventsBefore);
    expect(await sql(`select name from features where project = 'dst'`)).toEqual([]);
  });

  it('imports, reproducing features, strategies (constraints, variants, segments), environment variants, tags and dependencies', async () => {
    const data = await exported();
    const res = await app.post('/api/admin/features-batch/import', { project: 'dst', environment: 'development', data });
    expect(res.status).toBe(200);
    expect(res.body.changes.map((c: any) => c.action)).toEqual(['create', 'create', 'create']);
    const copy = await app.post('/api/admin/features-batch/export', { project: 'dst', environment: 'development' });
    expect(comparable(copy.body)).toEqual(comparable(data));
    expect(copy.body.segments).toEqual([{ id: segment, name: 'beta' }]);
    expect(copy.body.features.every((f: any) => f.project === 'dst')).toBe(true);
    // The feature exists in every environment of the project, switched off outside the imported one.
    const prod = await app.get('/api/admin/projects/dst/features/ie-child/environments/production');
    expect(prod.body).toMatchObject({ enabled: false, strategies: [] });
  });

  it('writes each change\'s own events and features-imported', async () => {
    const types = (await app.events()).filter((e: any) => e.project === 'dst').map((e: any) => e.type);
    expect(types.filter((t: string) => t === 'feature-created')).toHaveLength(3);
    expect(types.filter((t: string) => t === 'feature-strategy-add')).toHaveLength(3);
    expect(types.filter((t: string) => t === 'feature-environment-enabled')).toHaveLength(2);
    expect(types.filter((t: string) => t === 'feature-environment-variants-updated')).toHaveLength(1);
    expect(types.filter((t: string) => t === 'feature-tagged')).toHaveLength(2);
    expect(types.filter((t: string) => t === 'feature-dependency-added')).toHaveLength(1);
    const [imported] = await app.events('features-imported');
    expect(imported).toMatchObject({ project: 'dst', environment: 'development', createdBy: 'admin' });
    expect(imported.data.features.map((f: any) => f.name)).toEqual(['ie-child', 'ie-parent', 'ie-plain']);
  });

  it('a second import of the same payload is idempotent: nothing changes, no per-feature event, strategy ids kept', async () => {
    const data = await exported();
    const before = await app.post('/api/admin/features-batch/export', { project: 'dst', environment: 'development' });
    const lastId = (await app.events())[0].id;
    const validation = await app.post('/api/admin/features-batch/validate', { project: 'dst', environment: 'development', data });
    expect(validation.body.changes.map((c: any) => c.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(validation.body.warnings[1]).toEqual({ message: 'The following features already exist in this project and will be overwritten:', affectedItems: ['ie-child', 'ie-parent', 'ie-plain'] });
    const res = await app.post('/api/admin/features-batch/import', { project: 'dst', environment: 'development', data });
    expect(res.status).toBe(200);
    const after = await app.post('/api/admin/features-batch/export', { project: 'dst', environment: 'development' });
    expect(after.body).toEqual(before.body);
    const newer = (await app.events()).filter((e: any) => e.id > lastId).map((e: any) => e.type);
    expect(newer).toEqual(['features-exported', 'features-imported']);
  });

  it('an update writes only what differs: metadata, one strategy, the switch, a tag', async () => {
    const data = await exported();
    data.features[2] = { ...data.features[2], description: 'Now described' };
    data.featureStrategies[2] = { ...data.featureStrategies[2], parameters: {}, constraints: [{ contextName: 'region', operator: 'IN', values: ['us'] }] };
    data.featureEnvironments = data.featureEnvironments.map((e: any) => (e.featureName === 'ie-parent' ? { ...e, enabled: false } : e));
    data.featureTags = data.featureTags.filter((t: any) => t.tagType !== 'simple');
    const validation = await app.post('/api/admin/features-batch/validate', { project: 'dst', environment: 'development', data });
    const [child, parent, plain] = validation.body.changes;
    expect(plain).toMatchObject({ action: 'update', fields: [{ field: 'description', before: null, after: 'Now described' }], enabled: null, variants: null });
    expect(parent.action).toBe('update');
    expect(parent.strategies.added).toHaveLength(1);
    expect(parent.strategies.removed).toHaveLength(1);
    expect(parent.enabled).toEqual({ before: true, after: false });
    expect(child).toMatchObject({ action: 'update', fields: [], tags: { added: [], removed: [{ type: 'simple', value: 'web' }] } });
    expect(child.strategies).toEqual({ added: [], removed: [] });
    const lastId = (await app.events())[0].id;
    expect((await app.post('/api/admin/features-batch/import', { project: 'dst', environment: 'development', data })).status).toBe(200);
    const newer = (await app.events()).filter((e: any) => e.id > lastId).map((e: any) => `${e.type}:${e.featureName ?? ''}`).sort();
    expect(newer).toEqual([
      'feature-environment-disabled:ie-parent', 'feature-metadata-updated:ie-plain', 'feature-strategy-add:ie-parent', 'feature-strategy-remove:ie-parent',
      'feature-untagged:ie-child', 'features-imported:',
    ]);
    expect((await app.get('/api/admin/projects/dst/features/ie-plain')).body.description).toBe('Now described');
  });
});

describe('validation messages (reference endpoint 15)', () => {
  const validate = async (data: Record<string, unknown>, project = 'dst', options: { token?: string } = {}) => {
    const res = await app.post('/api/admin/features-batch/validate', { project, environment: 'development', data: { featureStrategies: [], tagTypes: [], ...data } }, options);
    expect(res.status).toBe(200);
    return res.body;
  };
  const feature = (name: string, extra: Record<string, unknown> = {}) => ({ name, ...extra });

  it('an unknown custom strategy', async () => {
    const body = await validate({ features: [feature('v-a')], featureStrategies: [{ name: 'nope-strategy', featureName: 'v-a', parameters: {} }] });
    expect(body.errors[0]).toEqual({ message: 'We detected the following custom strategy that needs to be created first:', affectedItems: ['nope-strategy'] });
  });

  it('context fields whose legal values lack imported ones (a new field is fine)', async () => {
    const body = await validate({ features: [feature('v-a')], contextFields: [{ name: 'region', legalValues: [{ value: 'eu' }, { value: 'apac' }] }, { name: 'brand-new', legalValues: [{ value: 'x' }] }] });
    expect(body.errors).toEqual([{ message: 'We detected the following context fields that do not have matching legal values with the imported ones:', affectedItems: ['region'] }]);
    expect(body.permissions).toEqual([]);
  });

  it('features that exist in another project', async () => {
    const body = await validate({ features: [feature('ie-child'), feature('v-new')] }, 'default');
    expect(body.errors).toEqual([{ message: 'You cannot import a features that already exist in other projects. You already have the following features defined outside of project default:', affectedItems: ['ie-child (in project dst)'] }]);
  });

  it('duplicates in the import data', async () => {
    const body = await validate({ features: [feature('v-a'), feature('v-b'), feature('v-a')] });
    expect(body.errors).toEqual([{ message: 'We detected the following features are duplicate in your import data:', affectedItems: ['v-a'] }]);
  });

  it('names outside the project\'s naming pattern, sorted', async () => {
    await must('POST', '/api/admin/projects', { id: 'named', name: 'Named' });
    await must('PUT', '/api/admin/projects/named/settings', { featureNaming: { pattern: 'ok-.+', example: 'ok-one', description: 'Starts with ok-' } });
    const body = await validate({ features: [feature('zz'), feature('ok-1'), feature('aa')] }, 'named');
    expect(body.errors).toEqual([{
      message: 'Features imported into this project must match the project\'s feature naming pattern: "ok-.+". For example: "ok-one". The pattern is described as follows: "Starts with ok-" The following features do not match the pattern:',
      affectedItems: ['aa', 'zz'],
    }]);
  });

  it('the project\'s feature limit', async () => {
    await must('POST', '/api/admin/projects', { id: 'limited', name: 'Limited', featureLimit: 2 });
    await must('POST', '/api/admin/projects/limited/features', { name: 'lim-1' });
    const body = await validate({ features: [feature('lim-1'), feature('lim-2'), feature('lim-3')] }, 'limited');
    expect(body.errors).toEqual([{ message: 'We detected you want to create 2 new features to a project that already has 1 existing features, exceeding the maximum limit of 2.', affectedItems: [] }]);
  });

  it('segments that do not exist here (another project\'s segment does not count)', async () => {
    const body = await validate({ features: [feature('v-a')], segments: [{ id: 1, name: 'src-only' }, { id: 2, name: 'ghost' }, { id: 3, name: 'beta' }] }, 'default');
    expect(body.errors).toEqual([{ message: 'We detected the following segments that need to be created first:', affectedItems: ['ghost', 'src-only'] }]);
  });

  it('strategies refer to segments by the ids of the exporting instance: mapped by name to this one\'s', async () => {
    const body = await validate({
      features: [feature('v-a')], segments: [{ id: 9999, name: 'beta' }],
      featureStrategies: [{ name: 'default', featureName: 'v-a', segments: [9999] }, { name: 'default', featureName: 'v-a', segments: [4242] }],
    });
    expect(body.errors).toEqual([{ message: 'We detected strategies that use segments missing from the segments list of the import data; the missing segment ids are:', affectedItems: ['4242'] }]);
    expect(body.changes[0].strategies.added[0].segments).toEqual([segment]);
  });

  it('dependency parents neither imported nor existing', async () => {
    const body = await validate({ features: [feature('v-a'), feature('v-b')], dependencies: [{ feature: 'v-a', dependencies: [{ feature: 'v-b' }, { feature: 'v-missing' }] }] });
    expect(body.errors).toEqual([{ message: 'We detected the following dependencies that need to be created first:', affectedItems: ['v-missing'] }]);
  });

  it('warnings: archived features are left out, existing ones overwritten', async () => {
    await must('POST', '/api/admin/projects/dst/features', { name: 'v-archived' });
    await must('DELETE', '/api/admin/projects/dst/features/v-archived');
    const body = await validate({ features: [feature('v-archived'), feature('ie-plain'), feature('v-new')] });
    expect(body.errors).toEqual([]);
    expect(body.warnings).toEqual([
      { message: 'The following features will not be imported as they are currently archived. To import them, please unarchive them first:', affectedItems: ['v-archived'] },
      { message: 'The following features already exist in this project and will be overwritten:', affectedItems: ['ie-plain'] },
    ]);
    expect(body.changes.map((c: any) => c.feature)).toEqual(['ie-plain', 'v-new']);
  });

  it('the rules a direct edit applies: strategy parameters and constraints, variants, feature types, stray items', async () => {
    const body = await validate({
      features: [feature('v-a', { type: 'no-such-type' })],
      featureStrategies: [
        { name: 'flexibleRollout', featureName: 'v-a', parameters: { rollout: '150' }, constraints: [{ contextName: 'region', operator: 'IN', values: ['mars'] }] },
        { name: 'default', featureName: 'v-a', constraints: [{ contextName: 'undefined-field', operator: 'IN', values: ['x'] }] },
        { name: 'default', featureName: 'v-stray' },
      ],
    });
    expect(body.errors).toEqual([
      { message: 'We detected the following feature types that do not exist:', affectedItems: ['no-such-type'] },
      { message: 'The following features have strategies, environments, tags or dependencies in the import data but are not in its features list:', affectedItems: ['v-stray'] },
      { message: 'We detected the following context fields that are used in strategy constraints but neither exist nor are imported:', affectedItems: ['undefined-field'] },
      {
        message: 'We detected the following strategies that are not valid:',
        affectedItems: [
          'v-a (featureStrategies/0/parameters/rollout): The `rollout` parameter must be a number from 0 to 100. You sent "150".',
          'v-a (featureStrategies/0/constraints/0/values): input values are not specified as a legal value on this context field: "mars"',
        ],
      },
    ]);
  });

  it('permissions a Viewer lacks, by display name, in Unleash\'s order', async () => {
    const body = await validate({
      features: [feature('v-new'), feature('ie-parent')],
      featureStrategies: [{ name: 'default', featureName: 'v-new' }],
      featureEnvironments: [{ featureName: 'v-new', enabled: false, variants: [{ name: 'x', weightType: 'variable', stickiness: 'default' }] }],
      contextFields: [{ name: 'viewer-field' }],
      tagTypes: [{ name: 'viewer-type' }],
    }, 'dst', { token: viewerToken });
    expect(body.permissions).toEqual([{
      message: 'We detected you are missing the following permissions:',
      affectedItems: ['Create feature toggles', 'Update feature toggles', 'Create context fields', 'Create activation strategies', 'Delete activation strategies', 'Update variants', 'Create tag types'],
    }]);
  });
});

describe('import refusals and atomicity', () => {
  const payload = (data: Record<string, unknown>) => ({ project: 'dst', environment: 'development', data: { featureStrategies: [], tagTypes: [], ...data } });
  const snapshot = async () => ({
    features: await sql(`select name, description from features order by name`),
    strategies: await sql(`select id from feature_strategies order by id`),
    tags: await sql(`select * from feature_tags order by 1, 2, 3`),
    fields: await sql(`select name from context_fields order by name`),
    tagTypes: await sql(`select name from tag_types order by name`),
    events: (await sql(`select count(*)::int as n from events`))[0].n,
  });

  it('what validation reports as an error refuses the whole import: 400 ValidationError, nothing written', async () => {
    const before = await snapshot();
    const res = await app.post('/api/admin/features-batch/import', payload({
      features: [{ name: 'r-a' }, { name: 'r-b' }],
      featureStrategies: [{ name: 'default', featureName: 'r-a' }, { name: 'nope-strategy', featureName: 'r-b' }],
      tagTypes: [{ name: 'refused-type' }],
    }));
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details).toEqual([{ path: 'data', message: 'We detected the following custom strategy that needs to be created first: nope-strategy' }]);
    expect(await snapshot()).toEqual(before);
  });

  it('a strategy breaking a constraint rule on the last feature refuses the import; the earlier features are not left behind', async () => {
    const before = await snapshot();
    const features = Array.from({ length: 20 }, (_, i) => ({ name: `r-bulk-${String(i).padStart(2, '0')}` }));
    const featureStrategies = features.map((f, i) => ({
      name: 'default', featureName: f.name,
      constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: i === 19 ? 'not-a-number' : String(i) }],
    }));
    const res = await app.post('/api/admin/features-batch/import', payload({ features, featureStrategies, contextFields: [{ name: 'bulk-field' }], tagTypes: [{ name: 'bulk-type' }] }));
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details[0].message).toContain('r-bulk-19 (featureStrategies/19/constraints/0/value): "value" must be a number. You sent "not-a-number".');
    expect(await snapshot()).toEqual(before);
  });

  it('a fault while writing (the database refuses the last statement) rolls back everything written before it', async () => {
    const before = await snapshot();
    // Fault injection at the database: a trigger refuses the tags, which are written after the tag types, context
    // fields, features, strategies and environments of the import.
    await sql(`create function refuse_tag() returns trigger language plpgsql as $$ begin raise exception 'injected fault'; end $$`);
    await sql(`create trigger refuse_tag before insert on feature_tags for each row when (new.tag_value = 'w-doomed') execute function refuse_tag()`);
    try {
      const res = await app.post('/api/admin/features-batch/import', payload({
        features: [{ name: 'w-a' }, { name: 'w-b' }],
        featureStrategies: [{ name: 'default', featureName: 'w-a' }],
        featureEnvironments: [{ featureName: 'w-a', enabled: true, variants: [{ name: 'x', weightType: 'variable', stickiness: 'default' }] }],
        tagTypes: [{ name: 'w-type' }],
        featureTags: [{ featureName: 'w-b', tagType: 'w-type', tagValue: 'w-doomed' }],
        contextFields: [{ name: 'w-field' }],
      }));
      expect(res.status).toBe(500);
      expect(res.body.message).not.toContain('injected');
    } finally {
      await sql(`drop trigger refuse_tag on feature_tags`);
      await sql(`drop function refuse_tag()`);
    }
    expect(await snapshot()).toEqual(before);
    expect(await sql(`select 1 from tags where value = 'w-doomed'`)).toEqual([]);
  });

  it('statuses: 401 without a token, 403 for a Viewer (naming the permissions), 404 for an unknown project, 415 for a non-JSON body', async () => {
    const body = payload({ features: [{ name: 's-a' }] });
    const anonymous = await app.post('/api/admin/features-batch/import', body, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.name).toBe('AuthenticationRequired');
    const viewer = await app.post('/api/admin/features-batch/import', body, { token: viewerToken });
    expect(viewer.status).toBe(403);
    expect(viewer.body.name).toBe('NoAccessError');
    expect(viewer.body.permissions).toEqual(['UPDATE_FEATURE']);
    const missing = await app.post('/api/admin/features-batch/import', { ...body, project: 'nowhere' });
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    const text = await app.request('POST', '/api/admin/features-batch/validate', undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.name).toBe('ContentTypeerror');
    const noTagTypes = await app.post('/api/admin/features-batch/validate', { project: 'dst', environment: 'development', data: { features: [], featureStrategies: [] } });
    expect(noTagTypes.status).toBe(400);
    expect(noTagTypes.body.details[0].path).toBe('data/tagTypes');
  });

  it('403 for a user who may update features but lacks what this import needs: every missing permission is named', async () => {
    const { id } = await must('POST', '/api/admin/user-admin', { username: 'ie-editor', password: PASSWORD, rootRole: 'Viewer' });
    await must('POST', '/api/admin/projects/dst/access', { roles: [5], users: [id] }); // Member of dst
    const login = await app.post('/auth/simple/login', { username: 'ie-editor', password: PASSWORD }, { token: null });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const editor = (await app.post('/api/admin/user/tokens', { description: 'ie', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
    memberToken = editor;
    const before = await snapshot();
    // Members of a project hold its feature permissions, but neither context-field nor tag-type creation (root permissions).
    const res = await app.post('/api/admin/features-batch/import', {
      project: 'dst', environment: 'development',
      data: { features: [{ name: 'e-a' }], featureStrategies: [], contextFields: [{ name: 'editor-field' }], tagTypes: [{ name: 'editor-type' }] },
    }, { token: editor });
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
    expect(res.body.permissions).toEqual(['CREATE_CONTEXT_FIELD', 'CREATE_TAG_TYPE']);
    expect(await snapshot()).toEqual(before);
  });
});

describe('concurrency', () => {
  it('the same import sent five times at once: each feature and strategy is created once, with one event each', async () => {
    const data = {
      features: [{ name: 'cc-a' }, { name: 'cc-b' }], tagTypes: [],
      featureStrategies: [{ name: 'default', featureName: 'cc-a' }, { name: 'default', featureName: 'cc-b' }],
      featureTags: [{ featureName: 'cc-a', tagType: 'simple', tagValue: 'cc-tag' }],
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => app.post('/api/admin/features-batch/import', { project: 'dst', environment: 'development', data })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.body.changes[0].action).sort()).toEqual(['create', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(await sql(`select feature_name, count(*)::int as n from feature_strategies where feature_name in ('cc-a', 'cc-b') group by 1 order by 1`)).toEqual([{ feature_name: 'cc-a', n: 1 }, { feature_name: 'cc-b', n: 1 }]);
    const events = (await app.events()).filter((e: any) => e.featureName === 'cc-a' || e.featureName === 'cc-b').map((e: any) => e.type).sort();
    expect(events).toEqual(['feature-created', 'feature-created', 'feature-strategy-add', 'feature-strategy-add', 'feature-tagged']);
    expect((await app.events('features-imported')).length).toBeGreaterThanOrEqual(5);
  });
});

describe('change requests (issue 12)', () => {
  it('an import that changes an environment with change requests enabled is refused unless the caller may skip them', async () => {
    await must('PUT', '/api/admin/projects/dst/environments/production/change-requests/config', { changeRequestsEnabled: true, requiredApprovals: 1 });
    const strategies = { project: 'dst', environment: 'production', data: { features: [{ name: 'cr-a' }], featureStrategies: [{ name: 'default', featureName: 'cr-a' }], tagTypes: [] } };
    const refused = await app.post('/api/admin/features-batch/import', strategies, { token: memberToken });
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe('NoAccessError');
    expect(refused.body.permissions).toEqual(['SKIP_CHANGE_REQUEST']);
    expect(await sql(`select name from features where name = 'cr-a'`)).toEqual([]);
    // Metadata is not guarded by change requests: a feature created without configuration in the environment is fine.
    const metadata = await app.post('/api/admin/features-batch/import', { ...strategies, data: { ...strategies.data, featureStrategies: [] } }, { token: memberToken });
    expect(metadata.status).toBe(200);
    // An admin holds SKIP_CHANGE_REQUEST.
    expect((await app.post('/api/admin/features-batch/import', strategies)).status).toBe(200);
  });
});

describe('every path: 401 without a token, 415 for another content type, 400 for a malformed body', () => {
  it.each(['validate', 'import', 'export'])('/api/admin/features-batch/%s', async (path) => {
    const url = `/api/admin/features-batch/${path}`;
    const anonymous = await app.post(url, { project: 'dst', environment: 'development' }, { token: null });
    expect([anonymous.status, anonymous.body.name]).toEqual([401, 'AuthenticationRequired']);
    const text = await app.request('POST', url, undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body.name]).toEqual([415, 'ContentTypeerror']);
    const malformed = await app.request('POST', url, undefined, { raw: '{"project":', headers: { 'content-type': 'application/json' } });
    expect([malformed.status, malformed.body.name]).toEqual([400, 'ValidationError']);
    const wrongShape = await app.post(url, { project: 'dst', environment: 'development', unexpected: true });
    expect([wrongShape.status, wrongShape.body.name]).toEqual([400, 'ValidationError']);
  });
});

describe('body limit', () => {
  it('accepts up to 500 kB on the batch paths (413 ContentTooLarge above), 100 kB elsewhere', async () => {
    const filler = 'x'.repeat(900);
    const features = Array.from({ length: 300 }, (_, i) => ({ name: `big-${i}`, description: filler }));
    const body = { project: 'dst', environment: 'development', data: { features, featureStrategies: [], tagTypes: [] } };
    expect(JSON.stringify(body).length).toBeGreaterThan(250_000);
    const ok = await app.post('/api/admin/features-batch/validate', body);
    expect(ok.status).toBe(200);
    expect(ok.body.changes).toHaveLength(300);
    const elsewhere = await app.post('/api/admin/projects/dst/features', { name: 'big', description: 'x'.repeat(150_000) });
    expect(elsewhere.status).toBe(413);
    const tooBig = { ...body, data: { ...body.data, features: Array.from({ length: 600 }, (_, i) => ({ name: `big-${i}`, description: filler })) } };
    const res = await app.post('/api/admin/features-batch/validate', tooBig);
    expect(res.status).toBe(413);
    expect(res.body.name).toBe('ContentTooLarge');
    expect(res.body.message).toContain('500 kB');
    const importTooBig = await app.post('/api/admin/features-batch/import', tooBig);
    expect([importTooBig.status, importTooBig.body.name]).toEqual([413, 'ContentTooLarge']);
  });

  it('IMPORT_BODY_LIMIT configures it (the last test: the app is started again with it)', async () => {
    // The embedded database takes one connection: the app is replaced, not doubled.
    await app.close();
    app = await startTestApp({ importBodyLimit: '2kb', reset: false });
    const body = (size: number) => ({ project: 'dst', environment: 'development', data: { features: [{ name: 'limit-a', description: 'x'.repeat(size) }], featureStrategies: [], tagTypes: [] } });
    const res = await app.post('/api/admin/features-batch/validate', body(3000));
    expect([res.status, res.body.name]).toEqual([413, 'ContentTooLarge']);
    expect(res.body.message).toContain('2 kB');
    expect((await app.post('/api/admin/features-batch/validate', body(1000))).status).toBe(200);
  });
});
