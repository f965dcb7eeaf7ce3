import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../src/domain/access/permissions';
import { NoAccessError } from '../../src/domain/errors';
import { createServices, type Services } from '../../src/domain/services';
import { startTestApp, type TestApp } from '../support/harness';

let app: TestApp;
let strategyId: string;
const P = '/api/admin/projects/default/features';

beforeAll(async () => {
  app = await startTestApp();
  for (const name of ['f1', 'f2', 'gone']) expect((await app.post(P, { name })).status).toBe(201);
  const strategy = await app.post(`${P}/f1/environments/production/strategies`, { name: 'default' });
  strategyId = strategy.body.id;
  expect((await app.del(`${P}/gone`)).status).toBe(202);
  expect((await app.post('/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `role-${rootRoleId}@example.com`, userId: 100 + rootRoleId, isAdmin: false, rootRoleId });
const as = (p: Principal) => createServices(app.orm.em.fork(), p);

/** Every state-changing method of the feature model, the permission Unleash requires (reference §4) and its environment. */
const MUTATIONS: Array<[string, string, string | undefined, (s: Services) => Promise<unknown>]> = [
  ['features.create', 'CREATE_FEATURE', undefined, (s) => s.features.create('default', { name: 'new-one' })],
  ['features.update', 'UPDATE_FEATURE', undefined, (s) => s.features.update('default', 'f1', { description: 'x' })],
  ['features.patch', 'UPDATE_FEATURE', undefined, (s) => s.features.patch('default', 'f1', [{ op: 'replace', path: '/description', value: 'x' }])],
  ['features.setStale', 'UPDATE_FEATURE', undefined, (s) => s.features.setStale('f1', true)],
  ['features.setStaleMany', 'UPDATE_FEATURE', undefined, (s) => s.features.setStaleMany('default', { features: ['f1'], stale: true })],
  ['features.archive', 'DELETE_FEATURE', undefined, (s) => s.features.archive('default', 'f1')],
  ['features.archiveMany', 'DELETE_FEATURE', undefined, (s) => s.features.archiveMany('default', { features: ['f1'] })],
  ['features.revive', 'UPDATE_FEATURE', undefined, (s) => s.features.revive('gone')],
  ['features.reviveMany', 'UPDATE_FEATURE', undefined, (s) => s.features.reviveMany('default', { features: ['gone'] })],
  ['features.deleteArchived', 'DELETE_FEATURE', undefined, (s) => s.features.deleteArchived('gone')],
  ['features.deleteMany', 'DELETE_FEATURE', undefined, (s) => s.features.deleteMany('default', { features: ['gone'] })],
  ['features.clone', 'CREATE_FEATURE', undefined, (s) => s.features.clone('default', 'f1', { name: 'f1-copy' })],
  ['features.addTag', 'UPDATE_FEATURE', undefined, (s) => s.features.addTag('f1', { value: 'tagged' })],
  ['features.removeTag', 'UPDATE_FEATURE', undefined, (s) => s.features.removeTag('f1', 'simple', 'tagged')],
  ['features.addDependency', 'UPDATE_FEATURE_DEPENDENCY', undefined, (s) => s.features.addDependency('default', 'f2', { feature: 'f1' })],
  ['features.removeDependency', 'UPDATE_FEATURE_DEPENDENCY', undefined, (s) => s.features.removeDependency('default', 'f2', 'f1')],
  ['features.removeDependencies', 'UPDATE_FEATURE_DEPENDENCY', undefined, (s) => s.features.removeDependencies('default', 'f2')],
  ['features.updateFeatureTypeLifetime', 'ADMIN', undefined, (s) => s.features.updateFeatureTypeLifetime('release', { lifetimeDays: 3 })],
  ['featureStrategies.add', 'CREATE_FEATURE_STRATEGY', 'production', (s) => s.featureStrategies.add('default', 'f1', 'production', { name: 'default' })],
  ['featureStrategies.update', 'UPDATE_FEATURE_STRATEGY', 'production', (s) => s.featureStrategies.update('default', 'f1', 'production', strategyId, { title: 't' })],
  ['featureStrategies.patch', 'UPDATE_FEATURE_STRATEGY', 'production', (s) => s.featureStrategies.patch('default', 'f1', 'production', strategyId, [{ op: 'replace', path: '/title', value: 't' }])],
  ['featureStrategies.remove', 'DELETE_FEATURE_STRATEGY', 'production', (s) => s.featureStrategies.remove('default', 'f1', 'production', strategyId)],
  ['featureStrategies.setSortOrder', 'UPDATE_FEATURE_STRATEGY', 'production', (s) => s.featureStrategies.setSortOrder('default', 'f1', 'production', [{ id: strategyId, sortOrder: 4 }])],
  ['featureStrategies.setEnabled', 'UPDATE_FEATURE_ENVIRONMENT', 'production', (s) => s.featureStrategies.setEnabled('default', 'f1', 'production', true)],
  ['featureStrategies.setEnvironmentVariants', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'production', (s) => s.featureStrategies.setEnvironmentVariants('default', 'f1', 'production', [{ name: 'a' }])],
  ['featureStrategies.patchEnvironmentVariants', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'production', (s) => s.featureStrategies.patchEnvironmentVariants('default', 'f1', 'production', [{ op: 'add', path: '/-', value: { name: 'a' } }])],
  ['featureStrategies.setVariantsInEnvironments', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'development', (s) => s.featureStrategies.setVariantsInEnvironments('default', 'f1', { variants: [{ name: 'a' }], environments: ['development'] })],
  ['featureStrategies.setFeatureVariants', 'UPDATE_FEATURE_VARIANTS', undefined, (s) => s.featureStrategies.setFeatureVariants('default', 'f1', [{ name: 'a' }])],
  ['projects.updateSettings', 'UPDATE_PROJECT', undefined, (s) => s.projects.updateSettings('default', { mode: 'protected' })],
  ['segments.create', 'CREATE_SEGMENT', undefined, (s) => s.segments.create({ name: 'seg', constraints: [] })],
  ['strategies.create', 'CREATE_STRATEGY', undefined, (s) => s.strategies.create({ name: 'custom' })],
];

describe('feature-model permission checks', () => {
  it.each(MUTATIONS)('%s needs %s: a Viewer gets NoAccessError naming it and the environment, and nothing changes', async (_name, permission, environment, call) => {
    const before = await app.events();
    const error = await call(as(user(ROLE_VIEWER))).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(NoAccessError);
    expect((error as NoAccessError).permission).toBe(permission);
    expect((error as NoAccessError).environment).toBe(environment);
    if (environment) expect((error as NoAccessError).message).toContain(`in the "${environment}" environment`);
    expect(await app.events()).toEqual(before);
  });

  it('cloning copies dependencies, so it needs UPDATE_FEATURE_DEPENDENCY too, which a v5.8 Editor lacks', async () => {
    expect((await app.post(`${P}/f2/dependencies`, { feature: 'f1' })).status).toBe(200);
    const editor = as(user(ROLE_EDITOR));
    await expect(editor.features.clone('default', 'f2', { name: 'f2-copy' })).rejects.toMatchObject({ name: 'NoAccessError', permission: 'UPDATE_FEATURE_DEPENDENCY' });
    await expect(editor.features.clone('default', 'f1', { name: 'f1-copy' })).resolves.toMatchObject({ name: 'f1-copy' });
    expect((await app.del(`${P}/f2/dependencies`)).status).toBe(200);
  });

  it('an Editor may change features of the default project but not of another project', async () => {
    const editor = as(user(ROLE_EDITOR));
    await expect(editor.features.create('default', { name: 'by-editor' })).resolves.toMatchObject({ name: 'by-editor', project: 'default' });
    await expect(editor.featureStrategies.add('default', 'by-editor', 'development', { name: 'default' })).resolves.toMatchObject({ name: 'default' });
    await expect(editor.features.create('other', { name: 'elsewhere' })).rejects.toMatchObject({ name: 'NoAccessError', permission: 'CREATE_FEATURE' });
    const [created] = await app.events('feature-created');
    expect(created).toMatchObject({ featureName: 'by-editor', createdBy: `role-${ROLE_EDITOR}@example.com`, createdByUserId: 100 + ROLE_EDITOR });
  });
});
