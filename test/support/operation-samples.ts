import type { TestApp } from './harness';
import { createIdp } from './saml-idp';

/**
 * A world to run every state-changing operation in, and one valid request per operation (REST route and GraphQL
 * mutation), each of which succeeds for an admin against that world. The world holds the same things in two projects
 * (`default` and `mx`), with names prefixed by the project, so a project-scoped operation can be tried in a project
 * where a role applies and one where it does not; environment-scoped operations take the environment as a parameter.
 */
export const PROJECTS = ['default', 'mx'] as const;
export const ENVIRONMENTS = ['development', 'production'] as const;

/**
 * A project can only be deleted while it has no features (and `default` never): deleting one is tried on this empty
 * project, wherever the other operations are tried. Its roles are those of `mx`.
 */
export const EMPTY_PROJECT = 'mx-empty';
/** Operations whose sample addresses another project than the place it is tried in. */
export const SAMPLE_PROJECT: ReadonlyMap<string, string> = new Map([['DELETE /api/admin/projects/:id', EMPTY_PROJECT], ['deleteProject', EMPTY_PROJECT]]);

export interface WorldIds {
  segment: number;
  /** Strategy ids by `project/environment`. */
  strategies: Map<string, string>;
  /** A Viewer user the user and project-access operations act on, a group, and a client token's id. */
  person: number;
  group: number;
  clientToken: number;
  /** A custom project role nobody holds (the role operations change and delete it). */
  role: number;
  /** The secret of a public signup token. */
  signupToken: string;
  /** A webhook addon. */
  addon: number;
  /** A delivery of that addon (of its own addon-config-created event). */
  addonDelivery: string;
  /** A Draft change request in each project (development), by the admin token. */
  changeRequests: Map<string, number>;
  /** In each project, the event of a description change of `<project>-hist` (a revert of it, or to its version 1, brings the description back). */
  histEvents: Map<string, number>;
  /** An identity provider's certificate for the SAML settings. */
  samlCertificate: string;
}

export async function buildWorld(app: TestApp): Promise<WorldIds> {
  const must = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(method, path, body);
    if (res.status >= 300) throw new Error(`world ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await must('POST', '/api/admin/projects', { id: 'mx', name: 'MX' });
  await must('POST', '/api/admin/projects', { id: EMPTY_PROJECT, name: 'Empty' });
  await must('POST', '/api/admin/environments', { name: 'mx-spare', type: 'test' });
  await must('POST', '/api/admin/environments', { name: 'mx-toggle', type: 'test' });
  await must('POST', '/api/admin/context', { name: 'mx-region', legalValues: [{ value: 'eu' }] });
  await must('POST', '/api/admin/tag-types', { name: 'mx-team', description: 'Team' });
  await must('POST', '/api/admin/tags', { type: 'simple', value: 'mx-tag' });
  const segment = Number((await must('POST', '/api/admin/segments', { name: 'mx-seg', constraints: [] })).id);
  await must('POST', '/api/admin/strategies', { name: 'mx-custom', parameters: [] });
  const strategies = new Map<string, string>();
  for (const p of PROJECTS) {
    for (const f of ['f', 'parent', 'child', 'arch', 'archived', 'archived2', 'archived3']) await must('POST', `/api/admin/projects/${p}/features`, { name: `${p}-${f}` });
    await must('POST', `/api/admin/projects/${p}/archive`, { features: [`${p}-archived`, `${p}-archived2`, `${p}-archived3`] });
    for (const e of ENVIRONMENTS) {
      strategies.set(`${p}/${e}`, (await must('POST', `/api/admin/projects/${p}/features/${p}-f/environments/${e}/strategies`, { name: 'default' })).id);
      await must('PUT', `/api/admin/projects/${p}/features/${p}-f/environments/${e}/variants`, [{ name: 'blue', weightType: 'variable', stickiness: 'default' }]);
    }
    await must('PUT', `/api/admin/projects/${p}/features/${p}-f/variants`, [{ name: 'a', stickiness: 'default' }]);
    await must('POST', `/api/admin/projects/${p}/features/${p}-child/dependencies`, { feature: `${p}-parent` });
    await must('POST', `/api/admin/features/${p}-f/tags`, { type: 'simple', value: 'mx-tag' });
  }
  const changeRequests = new Map<string, number>();
  for (const p of PROJECTS) {
    changeRequests.set(p, Number((await must('POST', `/api/admin/projects/${p}/environments/development/change-requests`, { action: 'updateEnabled', feature: `${p}-f`, payload: { enabled: true } })).id));
  }
  const histEvents = new Map<string, number>();
  for (const p of PROJECTS) {
    await must('POST', `/api/admin/projects/${p}/features`, { name: `${p}-hist`, description: 'first' });
    await must('PUT', `/api/admin/projects/${p}/features/${p}-hist`, { description: 'second' });
    const [{ id }] = await app.orm.em.fork().execute<Array<{ id: string }>>(
      `select id from events where type = 'feature-metadata-updated' and feature_name = ? order by id desc limit 1`, [`${p}-hist`]);
    histEvents.set(p, Number(id));
  }
  const person = Number((await must('POST', '/api/admin/user-admin', { username: 'mx-person', rootRole: 'Viewer' })).id);
  const [{ id: group }] = await app.orm.em.fork().execute<Array<{ id: number }>>(`insert into groups (name) values ('mx-group') returning id`);
  const clientToken = Number((await must('POST', '/api/admin/api-tokens', { tokenName: 'mx-client', type: 'client' })).id);
  const role = Number((await must('POST', '/api/admin/roles', { name: 'mx-role', type: 'custom', permissions: [{ name: 'CREATE_FEATURE' }] })).roles.id);
  const signupToken = String((await must('POST', '/api/admin/invite-link/tokens', { name: 'mx-link', expiresAt: new Date(Date.now() + 86_400_000).toISOString() })).secret);
  const { certificate: samlCertificate } = await createIdp();
  const addon = Number((await must('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: 'https://hooks.mx.example/in' }, events: ['feature-created', 'addon-config-created'] })).id);
  const addonDelivery = String((await must('GET', `/api/admin/addons/${addon}/deliveries`)).deliveries[0].id);
  await must('POST', '/api/client/register', { appName: 'mx-app', instanceId: 'mx-1', strategies: ['default'], started: new Date().toISOString(), interval: 10_000 });
  return { segment, strategies, person, group, clientToken, role, signupToken, samlCertificate, addon, addonDelivery, changeRequests, histEvents };
}

export interface Where {
  project: string;
  environment: string;
}

export interface RestSample {
  params: Record<string, string>;
  body?: unknown;
}

const constraint = { contextName: 'userId', operator: 'IN', values: ['a', 'b'] };

/**
 * An import that changes the parent feature's description only (it has no strategies, and the payload leaves its
 * environments, tags and dependencies alone): it needs UPDATE_FEATURE and nothing else.
 */
const importSample = (p: string, e: string) => ({
  project: p, environment: e, data: { features: [{ name: `${p}-parent`, description: 'Imported' }], featureStrategies: [], tagTypes: [] },
});

/**
 * Where a move takes the feature: a project where everyone holding MOVE_FEATURE_TOGGLE in the source holds it too
 * (the matrix judges by the source's grants). In `mx` that is the empty project, whose roles are those of `mx`; in
 * `default`, whose MOVE_FEATURE_TOGGLE an Editor holds through its root role alone, only `default` itself (a no-op).
 * test/e2e/rest/feature-project-move.test.ts checks the permission in the target.
 */
const moveTarget = (p: string) => (p === 'mx' ? EMPTY_PROJECT : p);

/** One valid request per state-changing route, keyed by `METHOD path` as Express declares it. */
export function restSamples(ids: WorldIds, { project: p, environment: e }: Where): Record<string, RestSample> {
  const f = `${p}-f`;
  const feature = { projectId: p, featureName: f };
  const env = { ...feature, environment: e };
  const strategy = { ...env, strategyId: ids.strategies.get(`${p}/${e}`)! };
  return {
    'POST /api/admin/environments': { params: {}, body: { name: 'mx-env', type: 'test' } },
    'PUT /api/admin/environments/:name': { params: { name: 'mx-spare' }, body: { type: 'quality', sortOrder: 4 } },
    'DELETE /api/admin/environments/:name': { params: { name: 'mx-spare' } },
    'POST /api/admin/environments/:name/on': { params: { name: 'mx-toggle' } },
    'POST /api/admin/environments/:name/off': { params: { name: 'mx-toggle' } },
    'POST /api/admin/projects': { params: {}, body: { id: 'mx-new', name: 'New' } },
    'PUT /api/admin/projects/:id': { params: { id: p }, body: { name: 'Renamed' } },
    'DELETE /api/admin/projects/:id': { params: { id: EMPTY_PROJECT } },
    'POST /api/admin/projects/:id/environments': { params: { id: p }, body: { environment: 'mx-spare' } },
    'DELETE /api/admin/projects/:id/environments/:environment': { params: { id: p, environment: e } },
    'PUT /api/admin/projects/:projectId/settings': { params: { projectId: p }, body: { mode: 'open' } },
    'POST /api/admin/context/validate': { params: {}, body: { name: 'mx-free' } },
    'POST /api/admin/context': { params: {}, body: { name: 'mx-ctx' } },
    'PUT /api/admin/context/:name': { params: { name: 'mx-region' }, body: { description: 'Region' } },
    'DELETE /api/admin/context/:name': { params: { name: 'mx-region' } },
    'POST /api/admin/context/:name/legal-values': { params: { name: 'mx-region' }, body: { value: 'us' } },
    'DELETE /api/admin/context/:name/legal-values/:value': { params: { name: 'mx-region', value: 'eu' } },
    'POST /api/admin/tag-types/validate': { params: {}, body: { name: 'mx-free' } },
    'POST /api/admin/tag-types': { params: {}, body: { name: 'mx-tt' } },
    'PUT /api/admin/tag-types/:name': { params: { name: 'mx-team' }, body: { description: 'Teams' } },
    'DELETE /api/admin/tag-types/:name': { params: { name: 'mx-team' } },
    'POST /api/admin/tags': { params: {}, body: { type: 'simple', value: 'mx-tag2' } },
    'DELETE /api/admin/tags/:type/:value': { params: { type: 'simple', value: 'mx-tag' } },
    'POST /api/admin/segments/validate': { params: {}, body: { name: 'mx-free' } },
    'POST /api/admin/segments': { params: {}, body: { name: 'mx-seg2', constraints: [constraint] } },
    'PUT /api/admin/segments/:id': { params: { id: String(ids.segment) }, body: { name: 'mx-seg', constraints: [constraint] } },
    'DELETE /api/admin/segments/:id': { params: { id: String(ids.segment) } },
    'POST /api/admin/strategies': { params: {}, body: { name: 'mx-strat', parameters: [] } },
    'PUT /api/admin/strategies/:name': { params: { name: 'mx-custom' }, body: { description: 'Custom', parameters: [] } },
    'POST /api/admin/strategies/:name/deprecate': { params: { name: 'mx-custom' } },
    'POST /api/admin/strategies/:name/reactivate': { params: { name: 'mx-custom' } },
    'DELETE /api/admin/strategies/:name': { params: { name: 'mx-custom' } },
    'POST /api/admin/projects/:projectId/features': { params: { projectId: p }, body: { name: `${p}-new` } },
    'PUT /api/admin/projects/:projectId/features/:featureName': { params: feature, body: { description: 'Updated' } },
    'PATCH /api/admin/projects/:projectId/features/:featureName': { params: feature, body: [{ op: 'replace', path: '/description', value: 'Patched' }] },
    'DELETE /api/admin/projects/:projectId/features/:featureName': { params: feature },
    'POST /api/admin/projects/:projectId/features/:featureName/clone': { params: feature, body: { name: `${p}-clone` } },
    'POST /api/admin/projects/:projectId/features/:featureName/changeProject': { params: feature, body: { newProjectId: moveTarget(p) } },
    'POST /api/admin/projects/:projectId/stale': { params: { projectId: p }, body: { features: [f], stale: true } },
    'POST /api/admin/projects/:projectId/features/:featureName/revert': { params: { projectId: p, featureName: `${p}-hist` }, body: { version: 1 } },
    'POST /api/admin/events/:id/revert': { params: { id: String(ids.histEvents.get(p)) } },
    'POST /api/admin/projects/:projectId/features/:featureName/lifecycle/complete': { params: feature, body: { status: 'discarded' } },
    'POST /api/admin/projects/:projectId/features/:featureName/lifecycle/uncomplete': { params: feature },
    'POST /api/admin/projects/:projectId/archive': { params: { projectId: p }, body: { features: [`${p}-arch`] } },
    'POST /api/admin/projects/:projectId/revive': { params: { projectId: p }, body: { features: [`${p}-archived`] } },
    'POST /api/admin/projects/:projectId/delete': { params: { projectId: p }, body: { features: [`${p}-archived2`] } },
    'POST /api/admin/features/validate': { params: {}, body: { name: 'mx-free-f', projectId: p } },
    'POST /api/admin/features-batch/validate': { params: {}, body: importSample(p, e) },
    'POST /api/admin/features-batch/export': { params: {}, body: { features: [f], environment: e } },
    'POST /api/admin/features-batch/import': { params: {}, body: importSample(p, e) },
    'POST /api/admin/features/:featureName/stale/on': { params: { featureName: f } },
    'POST /api/admin/features/:featureName/stale/off': { params: { featureName: f } },
    'PUT /api/admin/feature-types/:id/lifetimes': { params: { id: 'release' }, body: { lifetimeDays: 41 } },
    'POST /api/admin/features/:featureName/tags': { params: { featureName: f }, body: { type: 'simple', value: 'mx-ftag' } },
    'DELETE /api/admin/features/:featureName/tags/:type/:value': { params: { featureName: f, type: 'simple', value: 'mx-tag' } },
    'POST /api/admin/archive/revive/:featureName': { params: { featureName: `${p}-archived3` } },
    'DELETE /api/admin/archive/:featureName': { params: { featureName: `${p}-archived3` } },
    'POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/on': { params: env, body: {} },
    'POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/off': { params: env, body: {} },
    'POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies': { params: env, body: { name: 'default', constraints: [constraint] } },
    'POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/set-sort-order': { params: env, body: [{ id: strategy.strategyId, sortOrder: 1 }] },
    'PUT /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId': { params: strategy, body: { name: 'default', title: 'T' } },
    'PATCH /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId': { params: strategy, body: [{ op: 'replace', path: '/title', value: 'P' }] },
    'DELETE /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId': { params: strategy },
    'PUT /api/admin/projects/:projectId/features/:featureName/environments/:environment/variants': { params: env, body: [{ name: 'green', weightType: 'variable', stickiness: 'default' }] },
    'PATCH /api/admin/projects/:projectId/features/:featureName/environments/:environment/variants': { params: env, body: [{ op: 'replace', path: '/0/name', value: 'red' }] },
    'PUT /api/admin/projects/:projectId/features/:featureName/variants-batch': { params: feature, body: { variants: [{ name: 'red', stickiness: 'default' }], environments: [e] } },
    'PUT /api/admin/projects/:projectId/features/:featureName/variants': { params: feature, body: [{ name: 'b', stickiness: 'default' }] },
    'PATCH /api/admin/projects/:projectId/features/:featureName/variants': { params: feature, body: [{ op: 'replace', path: '/0/name', value: 'c' }] },
    'POST /api/admin/projects/:projectId/features/:featureName/dependencies': { params: { projectId: p, featureName: f }, body: { feature: `${p}-parent` } },
    'DELETE /api/admin/projects/:projectId/features/:featureName/dependencies/:parent': { params: { projectId: p, featureName: `${p}-child`, parent: `${p}-parent` } },
    'DELETE /api/admin/projects/:projectId/features/:featureName/dependencies': { params: { projectId: p, featureName: `${p}-child` } },
    'POST /api/admin/user-admin': { params: {}, body: { username: 'mx-new-user', rootRole: 'Viewer' } },
    'PUT /api/admin/user-admin/:id': { params: { id: String(ids.person) }, body: { name: 'Renamed' } },
    'DELETE /api/admin/user-admin/:id': { params: { id: String(ids.person) } },
    'POST /api/admin/user-admin/:id/change-password': { params: { id: String(ids.person) }, body: { password: 'Another-Pass-77' } },
    'POST /api/admin/user-admin/reset-password': { params: {}, body: { id: 'mx-person' } },
    'POST /api/admin/api-tokens': { params: {}, body: { tokenName: 'mx-new-client', type: 'client', environment: e, projects: [p] } },
    'PUT /api/admin/api-tokens/:token': { params: { token: String(ids.clientToken) }, body: { expiresAt: '2100-01-01T00:00:00.000Z' } },
    'DELETE /api/admin/api-tokens/:token': { params: { token: String(ids.clientToken) } },
    'POST /api/admin/projects/:projectId/access': { params: { projectId: p }, body: { roles: [5], users: [ids.person], groups: [ids.group] } },
    'PUT /api/admin/projects/:projectId/users/:userId/roles': { params: { projectId: p, userId: String(ids.person) }, body: { roles: [5] } },
    'DELETE /api/admin/projects/:projectId/users/:userId/roles': { params: { projectId: p, userId: String(ids.person) } },
    'PUT /api/admin/projects/:projectId/groups/:groupId/roles': { params: { projectId: p, groupId: String(ids.group) }, body: { roles: [5] } },
    'DELETE /api/admin/projects/:projectId/groups/:groupId/roles': { params: { projectId: p, groupId: String(ids.group) } },
    'POST /api/admin/roles': { params: {}, body: { name: 'mx-role2', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: e }] } },
    'PUT /api/admin/roles/:id': { params: { id: String(ids.role) }, body: { name: 'mx-role', description: 'Changed', permissions: [{ id: 7 }] } },
    'DELETE /api/admin/roles/:id': { params: { id: String(ids.role) } },
    'POST /api/admin/groups': { params: {}, body: { name: 'mx-new-group', rootRole: 2, users: [{ user: { id: ids.person } }] } },
    'PUT /api/admin/groups/:id': { params: { id: String(ids.group) }, body: { name: 'mx-group', description: 'Renamed', users: [{ user: { id: ids.person } }] } },
    'DELETE /api/admin/groups/:id': { params: { id: String(ids.group) } },
    'POST /api/admin/invite-link/tokens': { params: {}, body: { name: 'mx-link2', expiresAt: '2099-01-01T00:00:00Z' } },
    'POST /api/admin/addons': { params: {}, body: { provider: 'webhook', parameters: { url: 'https://hooks.mx.example/new' }, events: ['feature-created'] } },
    'PUT /api/admin/addons/:id': { params: { id: String(ids.addon) }, body: { description: 'Changed' } },
    'DELETE /api/admin/addons/:id': { params: { id: String(ids.addon) } },
    'POST /api/admin/projects/:projectId/environments/:environment/change-requests': { params: { projectId: p, environment: e }, body: { action: 'updateEnabled', feature: f, payload: { enabled: true } } },
    'POST /api/admin/projects/:projectId/change-requests/:id/comments': { params: { projectId: p, id: String(ids.changeRequests.get(p)) }, body: { text: 'Looks right' } },
    'POST /api/admin/projects/:projectId/change-requests/:id/preview': { params: { projectId: p, id: String(ids.changeRequests.get(p)) }, body: { contexts: [{ appName: 'app', userId: 'u1' }] } },
    'PUT /api/admin/projects/:projectId/environments/:environment/change-requests/config': { params: { projectId: p, environment: e }, body: { changeRequestsEnabled: false, requiredApprovals: 2 } },
    'POST /api/admin/addons/:id/deliveries/:deliveryId/redeliver': { params: { id: String(ids.addon), deliveryId: ids.addonDelivery } },
    'PUT /api/admin/invite-link/tokens/:token': { params: { token: ids.signupToken }, body: { enabled: false } },
    'POST /api/admin/playground': { params: {}, body: { environment: e, projects: [p], context: { appName: 'app' } } },
    'POST /api/admin/playground/advanced': { params: {}, body: { environments: [e], projects: [p], context: { appName: 'app' } } },
    'POST /api/admin/history/frontend': { params: {}, body: { environment: e, projects: [p], at: '2099-01-01T00:00:00Z', context: { userId: 'u1' } } },
    'POST /api/admin/auth/saml/settings': { params: {}, body: { entityId: 'https://idp.mx.test/saml', signOnUrl: 'https://idp.mx.test/sso', certificate: ids.samlCertificate } },
    'POST /api/admin/metrics/applications/:appName': { params: { appName: 'mx-app' }, body: { description: 'Changed' } },
    'DELETE /api/admin/metrics/applications/:appName': { params: { appName: 'mx-app' } },
  };
}

/** One valid `input` per mutation. */
export function mutationSamples(ids: WorldIds, { project: p, environment: e }: Where): Record<string, Record<string, unknown>> {
  const f = `${p}-f`;
  const fe = { project: p, feature: f, environment: e };
  const strategyId = ids.strategies.get(`${p}/${e}`)!;
  return {
    createEnvironment: { name: 'mx-env', type: 'test' },
    importFeatures: importSample(p, e),
    updateEnvironment: { name: 'mx-spare', type: 'quality' },
    deleteEnvironment: { name: 'mx-spare' },
    enableEnvironment: { name: 'mx-toggle' },
    disableEnvironment: { name: 'mx-toggle' },
    createProject: { id: 'mx-new', name: 'New' },
    updateProject: { id: p, name: 'Renamed' },
    deleteProject: { id: EMPTY_PROJECT },
    addEnvironmentToProject: { project: p, environment: 'mx-spare' },
    removeEnvironmentFromProject: { project: p, environment: e },
    updateProjectSettings: { project: p, mode: 'open' },
    createContextField: { name: 'mx-ctx' },
    updateContextField: { name: 'mx-region', description: 'Region' },
    deleteContextField: { name: 'mx-region' },
    addLegalValue: { contextField: 'mx-region', value: 'us' },
    removeLegalValue: { contextField: 'mx-region', value: 'eu' },
    createTagType: { name: 'mx-tt' },
    updateTagType: { name: 'mx-team', description: 'Teams' },
    deleteTagType: { name: 'mx-team' },
    createTag: { type: 'simple', value: 'mx-tag2' },
    deleteTag: { type: 'simple', value: 'mx-tag' },
    createSegment: { name: 'mx-seg2', constraints: [constraint] },
    updateSegment: { id: ids.segment, name: 'mx-seg', constraints: [constraint] },
    deleteSegment: { id: ids.segment },
    createStrategy: { name: 'mx-strat', parameters: [] },
    updateStrategy: { name: 'mx-custom', description: 'Custom', parameters: [] },
    deprecateStrategy: { name: 'mx-custom' },
    reactivateStrategy: { name: 'mx-custom' },
    deleteStrategy: { name: 'mx-custom' },
    createFeature: { project: p, name: `${p}-new` },
    updateFeature: { project: p, feature: f, description: 'Updated' },
    archiveFeatures: { project: p, features: [`${p}-arch`] },
    cloneFeature: { project: p, feature: f, name: `${p}-clone` },
    moveFeatureToProject: { project: p, feature: f, newProject: moveTarget(p) },
    setFeaturesStale: { project: p, features: [f], stale: true },
    revertFeature: { project: p, feature: `${p}-hist`, version: 1 },
    revertEvent: { id: ids.histEvents.get(p) },
    completeFeature: { project: p, feature: f, status: 'kept' },
    uncompleteFeature: { project: p, feature: f },
    reviveFeatures: { project: p, features: [`${p}-archived`] },
    deleteFeatures: { project: p, features: [`${p}-archived2`] },
    updateFeatureType: { id: 'release', lifetimeDays: 41 },
    tagFeature: { feature: f, type: 'simple', value: 'mx-ftag' },
    untagFeature: { feature: f, type: 'simple', value: 'mx-tag' },
    setFeatureEnvironmentEnabled: { ...fe, enabled: true },
    addFeatureStrategy: { ...fe, name: 'default', constraints: [constraint] },
    setStrategySortOrder: { ...fe, order: [{ id: strategyId, sortOrder: 1 }] },
    updateFeatureStrategy: { ...fe, id: strategyId, title: 'T' },
    deleteFeatureStrategy: { ...fe, id: strategyId },
    setFeatureVariants: { project: p, feature: f, environments: [e], variants: [{ name: 'red', stickiness: 'default' }] },
    setFeatureVariantsInAllEnvironments: { project: p, feature: f, variants: [{ name: 'b', stickiness: 'default' }] },
    addFeatureDependency: { project: p, feature: f, parent: `${p}-parent` },
    removeFeatureDependency: { project: p, feature: `${p}-child`, parent: `${p}-parent` },
    removeFeatureDependencies: { project: p, feature: `${p}-child` },
    createUser: { username: 'mx-new-user', rootRole: 'Viewer' },
    updateUser: { id: ids.person, name: 'Renamed' },
    deleteUser: { id: ids.person },
    setUserPassword: { id: ids.person, password: 'Another-Pass-77' },
    createPasswordResetLink: { id: 'mx-person' },
    createApiToken: { tokenName: 'mx-new-client', type: 'client', environment: e, projects: [p] },
    updateApiToken: { token: String(ids.clientToken), expiresAt: '2100-01-01T00:00:00.000Z' },
    deleteApiToken: { token: String(ids.clientToken) },
    addProjectAccess: { project: p, roles: [5], users: [ids.person], groups: [ids.group] },
    setProjectUserRoles: { project: p, id: ids.person, roles: [5] },
    removeProjectUserRoles: { project: p, id: ids.person },
    setProjectGroupRoles: { project: p, id: ids.group, roles: [5] },
    removeProjectGroupRoles: { project: p, id: ids.group },
    createRole: { name: 'mx-role2', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: e }] },
    updateRole: { id: ids.role, name: 'mx-role', description: 'Changed', permissions: [{ id: 7 }] },
    deleteRole: { id: ids.role },
    createGroup: { name: 'mx-new-group', rootRole: 2, users: [ids.person] },
    updateGroup: { id: ids.group, name: 'mx-group', description: 'Renamed', users: [ids.person] },
    deleteGroup: { id: ids.group },
    createPublicSignupToken: { name: 'mx-link2', expiresAt: '2099-01-01T00:00:00Z' },
    createAddon: { provider: 'webhook', parameters: { url: 'https://hooks.mx.example/new' }, events: ['feature-created'] },
    updateAddon: { id: ids.addon, description: 'Changed' },
    deleteAddon: { id: ids.addon },
    addChangeRequestChanges: { project: p, environment: e, changes: { action: 'updateEnabled', feature: `${p}-f`, payload: { enabled: true } } },
    addChangeRequestComment: { project: p, id: ids.changeRequests.get(p), text: 'Looks right' },
    updateChangeRequestConfig: { project: p, environment: e, changeRequestsEnabled: false, requiredApprovals: 2 },
    redeliverAddonDelivery: { addonId: ids.addon, deliveryId: ids.addonDelivery },
    updatePublicSignupToken: { secret: ids.signupToken, enabled: false },
    updateSamlSettings: { entityId: 'https://idp.mx.test/saml', signOnUrl: 'https://idp.mx.test/sso', certificate: ids.samlCertificate },
    updateApplication: { appName: 'mx-app', description: 'Changed' },
    deleteApplication: { appName: 'mx-app' },
  };
}
