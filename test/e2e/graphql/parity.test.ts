import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * REST/GraphQL parity: data is written through both doors, then every GraphQL list must equal the REST list,
 * item by item, in the same order. GraphQL has no `favorite` (REST's constant false on projects); an absent
 * legal-value description in REST is `null` in GraphQL (a nullable field): those two are the only mappings.
 */

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

/** There is no feature API yet: features and their strategies are written directly. */
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

const GqlParityTagTypes = graphql(`query GqlParityTagTypes { tagTypes { name description icon } }`);
const GqlParityTags = graphql(`query GqlParityTags($type: String) { tags(type: $type) { type value } }`);
const GqlParityTag = graphql(`query GqlParityTag($type: String!, $value: String!) { tag(type: $type, value: $value) { type value } }`);
const GqlParityContextFieldParts = graphql(`
  fragment GqlParityContextFieldParts on ContextField {
    name description stickiness sortOrder createdAt usedInFeatures usedInProjects legalValues { value description }
  }
`);
const GqlParityContextFields = graphql(`query GqlParityContextFields { contextFields { ...GqlParityContextFieldParts } }`);
const GqlParityContextField = graphql(`query GqlParityContextField($name: String!) { contextField(name: $name) { ...GqlParityContextFieldParts } }`);
const GqlParityEnvironments = graphql(`query GqlParityEnvironments { environments { name type enabled protected sortOrder } }`);
const GqlParityProjects = graphql(`
  query GqlParityProjects {
    projects {
      id name description mode defaultStickiness featureLimit health createdAt updatedAt featureCount
      featureNaming { pattern example description }
    }
  }
`);
const GqlParityProject = graphql(`
  query GqlParityProject($id: String!) {
    project(id: $id) {
      id name description mode defaultStickiness featureLimit health createdAt updatedAt featureCount
      featureNaming { pattern example description }
      environments { environment defaultStrategy }
    }
  }
`);
const GqlParityEvents = graphql(`
  query GqlParityEvents($first: Int) {
    events(first: $first) {
      totalCount
      nodes { id type createdAt createdBy createdByUserId project environment featureName data preData tags { type value } }
    }
  }
`);

const GqlParityCreateTagType = graphql(`mutation GqlParityCreateTagType($input: CreateTagTypeInput!) { createTagType(input: $input) { name } }`);
const GqlParityCreateTag = graphql(`mutation GqlParityCreateTag($input: CreateTagInput!) { createTag(input: $input) { type value } }`);
const GqlParityCreateContextField = graphql(`mutation GqlParityCreateContextField($input: CreateContextFieldInput!) { createContextField(input: $input) { name } }`);
const GqlParityAddLegalValue = graphql(`mutation GqlParityAddLegalValue($input: AddLegalValueInput!) { addLegalValue(input: $input) { name } }`);
const GqlParityCreateEnvironment = graphql(`mutation GqlParityCreateEnvironment($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { name } }`);
const GqlParityDisableEnvironment = graphql(`mutation GqlParityDisableEnvironment($input: EnvironmentNameInput!) { disableEnvironment(input: $input) { enabled } }`);
const GqlParityCreateProject = graphql(`mutation GqlParityCreateProject($input: CreateProjectInput!) { createProject(input: $input) { id } }`);
const GqlParityUpdateProject = graphql(`mutation GqlParityUpdateProject($input: UpdateProjectInput!) { updateProject(input: $input) { id } }`);
const GqlParityAddEnvironment = graphql(`mutation GqlParityAddEnvironment($input: ProjectEnvironmentInput!) { addEnvironmentToProject(input: $input) { id } }`);

/** Runs a GraphQL operation that must succeed and returns its data. */
async function gqlData<R, V>(doc: TypedDocumentNode<R, V>, variables?: V): Promise<R> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data as R;
}

/** A REST call that must answer with `status`; returns the body. */
async function rest(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, status = 200): Promise<any> {
  const res = await app.request(method, path, body);
  expect({ path, status: res.status }).toEqual({ path, status });
  return res.body;
}

const withNullDescriptions = (values: Array<{ value: string; description?: string }>) =>
  values.map((v) => ({ value: v.value, description: v.description ?? null }));

/** REST context field → the GraphQL shape (legal values with an explicit null description). */
const restFieldAsGql = (f: any) => ({ ...f, legalValues: withNullDescriptions(f.legalValues) });

describe('data written through both doors', () => {
  it('writes tag types and tags via REST and GraphQL', async () => {
    await rest('POST', '/api/admin/tag-types', { name: 'team', description: 'Owning team', icon: 'T' }, 201);
    await gqlData(GqlParityCreateTagType, { input: { name: 'area', description: 'Product area' } });
    await rest('POST', '/api/admin/tags', { value: 'frontend' }, 201);
    await gqlData(GqlParityCreateTag, { input: { value: 'backend' } });
    await gqlData(GqlParityCreateTag, { input: { type: 'team', value: 'payments' } });
    await rest('POST', '/api/admin/tags', { type: 'area', value: 'checkout' }, 201);
    await rest('POST', '/api/admin/tags', { type: 'team', value: 'growth' }, 201);
  });

  it('writes context fields via REST and GraphQL', async () => {
    await rest('POST', '/api/admin/context', {
      name: 'region', description: 'Cloud region', stickiness: true, sortOrder: 1,
      legalValues: [{ value: 'eu-west', description: 'Ireland' }, { value: 'us-east' }],
    }, 201);
    await gqlData(GqlParityCreateContextField, { input: { name: 'tenant', legalValues: [{ value: 'acme' }, { value: 'globex', description: 'Globex Corp' }] } });
    await gqlData(GqlParityAddLegalValue, { input: { contextField: 'region', value: 'ap-south' } });
    await rest('POST', '/api/admin/context/tenant/legal-values', { value: 'initech', description: 'Initech' });
    await rest('PUT', '/api/admin/context/region', { description: 'Cloud region of the caller' });
  });

  it('writes environments via REST and GraphQL, one of them switched off', async () => {
    await rest('POST', '/api/admin/environments', { name: 'staging', type: 'staging', sortOrder: 1 }, 201);
    await gqlData(GqlParityCreateEnvironment, { input: { name: 'qa', type: 'test', sortOrder: 1 } });
    await gqlData(GqlParityCreateEnvironment, { input: { name: 'legacy', type: 'production', sortOrder: 5 } });
    await rest('POST', '/api/admin/environments', { name: 'canary', type: 'production', sortOrder: 4 }, 201);
    await gqlData(GqlParityDisableEnvironment, { input: { name: 'legacy' } });
  });

  it('writes projects via REST and GraphQL, with environment links and features', async () => {
    await rest('POST', '/api/admin/projects', { id: 'web', name: 'Web shop', description: 'The storefront' }, 201);
    await gqlData(GqlParityCreateProject, { input: { id: 'api', name: 'Public API', mode: 'protected', featureLimit: 20, defaultStickiness: 'userId' } });
    await gqlData(GqlParityUpdateProject, { input: { id: 'web', name: 'Web shop', description: 'Storefront and checkout' } });
    await rest('POST', '/api/admin/projects', { id: 'zeta', name: 'Another' }, 201);
    // 'legacy' is switched off: neither door shows it on projects, even where it is linked.
    await sql(`insert into project_environments (project_id, environment_name) values ('web', 'legacy')`);
    await rest('DELETE', '/api/admin/projects/web/environments/development');
    await gqlData(GqlParityAddEnvironment, { input: { project: 'default', environment: 'qa' } });
    await sql(`update project_environments set default_strategy = ?::jsonb where project_id = 'api' and environment_name = 'production'`,
      [JSON.stringify({ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: '' }, constraints: [] })]);

    // Features: two active in web, one active and one archived in api; strategies constrain on region and userId.
    await sql(`insert into features (name, project) values ('f-web-1', 'web'), ('f-web-2', 'web'), ('f-api-1', 'api')`);
    await sql(`insert into features (name, project, archived_at) values ('f-api-old', 'api', now())`);
    const strategy = (feature: string, project: string, environment: string, constraints: unknown[]) =>
      sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name, constraints) values (?, ?, ?, ?, 'default', ?::jsonb)`,
        [randomUUID(), feature, project, environment, JSON.stringify(constraints)]);
    await strategy('f-web-1', 'web', 'production', [{ contextName: 'region', operator: 'IN', values: ['eu-west'] }]);
    await strategy('f-web-2', 'web', 'production', [{ contextName: 'region', operator: 'IN', values: ['us-east'] }, { contextName: 'userId', operator: 'IN', values: ['1'] }]);
    await strategy('f-api-old', 'api', 'development', [{ contextName: 'region', operator: 'NOT_IN', values: ['ap-south'] }]);
  });
});

describe('GraphQL queries equal the REST responses', () => {
  it('tag types', async () => {
    const restBody = await rest('GET', '/api/admin/tag-types');
    const data = await gqlData(GqlParityTagTypes);
    expect(restBody.tagTypes.map((t: any) => t.name)).toEqual(['area', 'simple', 'team']);
    expect(data.tagTypes).toEqual(restBody.tagTypes);
  });

  it('tags, all and by type, and one tag', async () => {
    const all = await rest('GET', '/api/admin/tags');
    expect(all.tags).toEqual([
      { type: 'area', value: 'checkout' }, { type: 'simple', value: 'backend' }, { type: 'simple', value: 'frontend' },
      { type: 'team', value: 'growth' }, { type: 'team', value: 'payments' },
    ]);
    expect((await gqlData(GqlParityTags, {})).tags).toEqual(all.tags);
    const team = await rest('GET', '/api/admin/tags/team');
    expect(team.tags).toHaveLength(2);
    expect((await gqlData(GqlParityTags, { type: 'team' })).tags).toEqual(team.tags);
    const one = await rest('GET', '/api/admin/tags/team/payments');
    expect((await gqlData(GqlParityTag, { type: 'team', value: 'payments' })).tag).toEqual(one.tag);
  });

  it('context fields: every field, usage counts and legal values included', async () => {
    const restList: any[] = await rest('GET', '/api/admin/context');
    expect(restList.map((f) => f.name)).toEqual(['appName', 'currentTime', 'environment', 'region', 'sessionId', 'tenant', 'userId']);
    const region = restList.find((f) => f.name === 'region');
    // Used by f-web-1, f-web-2 (project web) and the archived f-api-old (project api).
    expect(region).toMatchObject({ usedInFeatures: 3, usedInProjects: 2, description: 'Cloud region of the caller', stickiness: true, sortOrder: 1 });
    expect(region.legalValues).toEqual([{ value: 'eu-west', description: 'Ireland' }, { value: 'us-east' }, { value: 'ap-south' }]);
    expect(restList.find((f) => f.name === 'userId')).toMatchObject({ usedInFeatures: 1, usedInProjects: 1 });
    for (const f of restList) expect(Number.isNaN(Date.parse(f.createdAt))).toBe(false);

    const data = await gqlData(GqlParityContextFields);
    expect(data.contextFields).toEqual(restList.map(restFieldAsGql));
    for (const name of ['region', 'tenant', 'userId', 'sessionId']) {
      const one = await rest('GET', `/api/admin/context/${name}`);
      expect((await gqlData(GqlParityContextField, { name })).contextField).toEqual(restFieldAsGql(one));
    }
  });

  it('environments, switched-off ones included, by sort order then name', async () => {
    const restBody = await rest('GET', '/api/admin/environments');
    expect(restBody.environments.map((e: any) => [e.name, e.enabled])).toEqual([
      ['qa', true], ['staging', true], ['development', true], ['production', true], ['canary', true], ['legacy', false],
    ]);
    expect((await gqlData(GqlParityEnvironments)).environments).toEqual(restBody.environments);
  });

  it('projects with their feature counts', async () => {
    const restBody = await rest('GET', '/api/admin/projects');
    expect(restBody.projects.map((p: any) => [p.id, p.featureCount])).toEqual([['zeta', 0], ['default', 0], ['api', 1], ['web', 2]]);
    const data = await gqlData(GqlParityProjects);
    expect(restBody.projects.every((p: any) => p.favorite === false)).toBe(true);
    expect(data.projects).toEqual(restBody.projects.map(({ favorite: _favorite, ...p }: any) => p));
    const web = data.projects.find((p) => p.id === 'web')!;
    expect(web.updatedAt).not.toBeNull();
    expect(data.projects.find((p) => p.id === 'api')).toMatchObject({ mode: 'protected', featureLimit: 20, defaultStickiness: 'userId', updatedAt: null });
  });

  it('one project with its environments (switched-off ones left out) and default strategies', async () => {
    const expected: Record<string, string[]> = {
      default: ['qa', 'development', 'production'],
      web: ['qa', 'staging', 'production', 'canary'],
      api: ['qa', 'staging', 'development', 'production', 'canary'],
    };
    for (const [id, envs] of Object.entries(expected)) {
      const { version, favorite, ...restProject } = await rest('GET', `/api/admin/projects/${id}`);
      expect([version, favorite]).toEqual([1, false]);
      expect(restProject.environments.map((e: any) => e.environment)).toEqual(envs);
      const { project } = await gqlData(GqlParityProject, { id });
      expect(project).toEqual(restProject);
    }
    const { project } = await gqlData(GqlParityProject, { id: 'api' });
    expect(project.environments.find((e) => e.environment === 'production')!.defaultStrategy)
      .toEqual({ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: '' }, constraints: [] });
  });

  it('the audit log: the events of both doors, identical in both', async () => {
    const restEvents = await app.events();
    const types = new Set(restEvents.map((e) => e.type));
    for (const t of ['tag-type-created', 'tag-created', 'context-field-created', 'context-field-updated', 'environment-created', 'project-created', 'project-updated', 'project-environment-added', 'project-environment-removed']) {
      expect(types).toContain(t);
    }
    const data = await gqlData(GqlParityEvents, { first: 1000 });
    expect(data.events.totalCount).toBe(restEvents.length);
    expect(data.events.nodes).toEqual(restEvents);
  });
});
