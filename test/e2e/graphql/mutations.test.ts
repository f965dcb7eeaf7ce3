import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

// ---- documents

const GqlMutEventParts = graphql(`
  fragment GqlMutEventParts on Event {
    id type createdAt createdBy createdByUserId project environment featureName data preData tags { type value }
  }
`);
const GqlMutEventsByType = graphql(`
  query GqlMutEventsByType($type: String!) {
    events(filter: { type: $type }, first: 1000) { totalCount nodes { ...GqlMutEventParts } }
  }
`);
const GqlMutEnvironmentParts = graphql(`fragment GqlMutEnvironmentParts on Environment { name type enabled protected sortOrder }`);
const GqlMutProjectParts = graphql(`
  fragment GqlMutProjectParts on Project {
    id name description mode defaultStickiness featureLimit health createdAt updatedAt featureCount
    featureNaming { pattern example description }
    environments { environment defaultStrategy }
  }
`);
const GqlMutContextFieldParts = graphql(`
  fragment GqlMutContextFieldParts on ContextField {
    name description stickiness sortOrder createdAt usedInFeatures usedInProjects legalValues { value description }
  }
`);

const GqlMutCreateEnvironment = graphql(`mutation GqlMutCreateEnvironment($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { ...GqlMutEnvironmentParts } }`);
const GqlMutUpdateEnvironment = graphql(`mutation GqlMutUpdateEnvironment($input: UpdateEnvironmentInput!) { updateEnvironment(input: $input) { ...GqlMutEnvironmentParts } }`);
const GqlMutDeleteEnvironment = graphql(`mutation GqlMutDeleteEnvironment($input: EnvironmentNameInput!) { deleteEnvironment(input: $input) }`);
const GqlMutEnableEnvironment = graphql(`mutation GqlMutEnableEnvironment($input: EnvironmentNameInput!) { enableEnvironment(input: $input) { ...GqlMutEnvironmentParts } }`);
const GqlMutDisableEnvironment = graphql(`mutation GqlMutDisableEnvironment($input: EnvironmentNameInput!) { disableEnvironment(input: $input) { ...GqlMutEnvironmentParts } }`);

const GqlMutCreateProject = graphql(`mutation GqlMutCreateProject($input: CreateProjectInput!) { createProject(input: $input) { ...GqlMutProjectParts } }`);
const GqlMutUpdateProject = graphql(`mutation GqlMutUpdateProject($input: UpdateProjectInput!) { updateProject(input: $input) { ...GqlMutProjectParts } }`);
const GqlMutDeleteProject = graphql(`mutation GqlMutDeleteProject($input: ProjectIdInput!) { deleteProject(input: $input) }`);
const GqlMutAddEnvironmentToProject = graphql(`mutation GqlMutAddEnvironmentToProject($input: ProjectEnvironmentInput!) { addEnvironmentToProject(input: $input) { ...GqlMutProjectParts } }`);
const GqlMutRemoveEnvironmentFromProject = graphql(`mutation GqlMutRemoveEnvironmentFromProject($input: ProjectEnvironmentInput!) { removeEnvironmentFromProject(input: $input) { ...GqlMutProjectParts } }`);

const GqlMutCreateContextField = graphql(`mutation GqlMutCreateContextField($input: CreateContextFieldInput!) { createContextField(input: $input) { ...GqlMutContextFieldParts } }`);
const GqlMutUpdateContextField = graphql(`mutation GqlMutUpdateContextField($input: UpdateContextFieldInput!) { updateContextField(input: $input) { ...GqlMutContextFieldParts } }`);
const GqlMutDeleteContextField = graphql(`mutation GqlMutDeleteContextField($input: ContextFieldNameInput!) { deleteContextField(input: $input) }`);
const GqlMutAddLegalValue = graphql(`mutation GqlMutAddLegalValue($input: AddLegalValueInput!) { addLegalValue(input: $input) { ...GqlMutContextFieldParts } }`);
const GqlMutRemoveLegalValue = graphql(`mutation GqlMutRemoveLegalValue($input: RemoveLegalValueInput!) { removeLegalValue(input: $input) { ...GqlMutContextFieldParts } }`);

const GqlMutCreateTagType = graphql(`mutation GqlMutCreateTagType($input: CreateTagTypeInput!) { createTagType(input: $input) { name description icon } }`);
const GqlMutUpdateTagType = graphql(`mutation GqlMutUpdateTagType($input: UpdateTagTypeInput!) { updateTagType(input: $input) { name description icon } }`);
const GqlMutDeleteTagType = graphql(`mutation GqlMutDeleteTagType($input: TagTypeNameInput!) { deleteTagType(input: $input) }`);
const GqlMutCreateTag = graphql(`mutation GqlMutCreateTag($input: CreateTagInput!) { createTag(input: $input) { type value } }`);
const GqlMutDeleteTag = graphql(`mutation GqlMutDeleteTag($input: TagInput!) { deleteTag(input: $input) }`);

// ---- helpers

type GqlErrors = Array<{ message: string; extensions: Record<string, any> }>;

async function gqlData<R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<R> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data as R;
}

/** Runs an operation that must fail, and returns its single error. */
async function gqlError<R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<GqlErrors[number]> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.data ?? null).toBeNull();
  return res.body.errors![0];
}

/** Sends an untyped document (one codegen would refuse) and returns the errors. */
async function rawErrors(query: string, variables?: Record<string, unknown>): Promise<GqlErrors> {
  const res = await app.post('/graphql', { query, variables });
  expect(res.body.data ?? null).toBeNull();
  expect(Array.isArray(res.body.errors)).toBe(true);
  return res.body.errors;
}

const totalEvents = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.totalEvents;

/**
 * The newest event of `type`, read through both doors: the GraphQL `events(filter: {type})` list must equal the
 * REST `/api/admin/events?type=` list event by event, so the returned event is the same in both.
 */
async function latestEvent(type: string): Promise<any> {
  const restEvents = await app.events(type);
  const data = await gqlData(GqlMutEventsByType, { type });
  expect(data.events.nodes).toEqual(restEvents);
  expect(data.events.totalCount).toBe(restEvents.length);
  expect(restEvents.length).toBeGreaterThan(0);
  expect(restEvents[0]).toMatchObject({ type, createdBy: 'admin', createdByUserId: -1337, featureName: null, tags: [] });
  return restEvents[0];
}

/** Runs `failing`, then checks that no event was written and `read` gives what it gave before. */
async function changesNothing(read: () => Promise<unknown>, failing: () => Promise<void>): Promise<void> {
  const [eventsBefore, stateBefore] = [await totalEvents(), await read()];
  await failing();
  expect(await totalEvents()).toBe(eventsBefore);
  expect(await read()).toEqual(stateBefore);
}

const expectError = (error: GqlErrors[number], name: string, code: number) => {
  expect(error.extensions).toMatchObject({ name, code });
};
/** Domain errors carry the id that REST puts in its body. */
const expectDomainError = (error: GqlErrors[number], name: string, code: number) => {
  expectError(error, name, code);
  expect(error.extensions.id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
};

const restEnvironment = async (name: string) => app.get(`/api/admin/environments/${name}`);
const restProject = async (id: string) => app.get(`/api/admin/projects/${id}`);

// ---- environments

describe('environment mutations', () => {
  const qa = { name: 'gql-qa', type: 'test', enabled: true, protected: false, sortOrder: 5 };

  it('createEnvironment returns the environment and writes environment-created', async () => {
    const data = await gqlData(GqlMutCreateEnvironment, { input: { name: 'gql-qa', type: 'test', sortOrder: 5 } });
    expect(data.createEnvironment).toEqual(qa);
    expect((await restEnvironment('gql-qa')).body).toEqual(qa);
    const event = await latestEvent('environment-created');
    expect(event).toMatchObject({ environment: 'gql-qa', project: null, data: qa, preData: null });
  });

  it('createEnvironment refuses a taken name (NameExistsError 409) and writes nothing', async () => {
    await changesNothing(() => restEnvironment('gql-qa').then((r) => r.body), async () => {
      const error = await gqlError(GqlMutCreateEnvironment, { input: { name: 'gql-qa', type: 'other' } });
      expectDomainError(error, 'NameExistsError', 409);
    });
  });

  it('updateEnvironment changes only the given fields and writes environment-updated with preData', async () => {
    const data = await gqlData(GqlMutUpdateEnvironment, { input: { name: 'gql-qa', type: 'qa' } });
    const updated = { ...qa, type: 'qa' };
    expect(data.updateEnvironment).toEqual(updated);
    expect((await restEnvironment('gql-qa')).body).toEqual(updated);
    const event = await latestEvent('environment-updated');
    expect(event).toMatchObject({ environment: 'gql-qa', data: updated, preData: qa });
  });

  it('updateEnvironment of an unknown environment is a NotFoundError (404)', async () => {
    await changesNothing(() => app.get('/api/admin/environments').then((r) => r.body), async () => {
      const error = await gqlError(GqlMutUpdateEnvironment, { input: { name: 'nowhere', sortOrder: 1 } });
      expectDomainError(error, 'NotFoundError', 404);
      expect(error.message).toBe('Could not find environment nowhere');
    });
  });

  it('disableEnvironment and enableEnvironment switch it off and on, writing no event', async () => {
    const before = await totalEvents();
    const off = await gqlData(GqlMutDisableEnvironment, { input: { name: 'gql-qa' } });
    expect(off.disableEnvironment).toEqual({ ...qa, type: 'qa', enabled: false });
    expect((await restEnvironment('gql-qa')).body.enabled).toBe(false);
    const on = await gqlData(GqlMutEnableEnvironment, { input: { name: 'gql-qa' } });
    expect(on.enableEnvironment).toEqual({ ...qa, type: 'qa', enabled: true });
    expect((await restEnvironment('gql-qa')).body.enabled).toBe(true);
    expect(await totalEvents()).toBe(before);
  });

  it('enableEnvironment / disableEnvironment of an unknown environment are NotFoundErrors', async () => {
    expectDomainError(await gqlError(GqlMutEnableEnvironment, { input: { name: 'nowhere' } }), 'NotFoundError', 404);
    expectDomainError(await gqlError(GqlMutDisableEnvironment, { input: { name: 'nowhere' } }), 'NotFoundError', 404);
  });

  it('deleteEnvironment returns true and writes environment-deleted with preData', async () => {
    const data = await gqlData(GqlMutDeleteEnvironment, { input: { name: 'gql-qa' } });
    expect(data.deleteEnvironment).toBe(true);
    expect((await restEnvironment('gql-qa')).status).toBe(404);
    const event = await latestEvent('environment-deleted');
    expect(event).toMatchObject({ environment: 'gql-qa', data: null, preData: { ...qa, type: 'qa' } });
  });

  it('deleteEnvironment of an unknown environment is a NotFoundError and writes nothing', async () => {
    await changesNothing(() => app.get('/api/admin/environments').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutDeleteEnvironment, { input: { name: 'gql-qa' } }), 'NotFoundError', 404);
    });
  });
});

// ---- projects

describe('project mutations', () => {
  let created: any;

  it('createProject returns the project with every switched-on environment and writes project-created', async () => {
    const data = await gqlData(GqlMutCreateProject, {
      input: { id: 'gql-proj', name: 'GraphQL project', description: 'Made by a mutation', mode: 'protected', featureLimit: 5 },
    });
    created = data.createProject;
    expect(created).toMatchObject({
      id: 'gql-proj', name: 'GraphQL project', description: 'Made by a mutation', mode: 'protected', defaultStickiness: 'default',
      featureLimit: 5, health: 100, updatedAt: null, featureCount: 0, featureNaming: { pattern: null, example: null, description: null },
      environments: [{ environment: 'development', defaultStrategy: null }, { environment: 'production', defaultStrategy: null }],
    });
    expect(Number.isNaN(Date.parse(created.createdAt))).toBe(false);
    const { version: _v, favorite: _f, ...viaRest } = (await restProject('gql-proj')).body;
    expect(viaRest).toEqual(created);
    const event = await latestEvent('project-created');
    const { featureCount: _c, environments: _e, ...stored } = created;
    expect(event).toMatchObject({ project: 'gql-proj', environment: null, data: stored, preData: null });
  });

  it('createProject refuses a taken id (NameExistsError 409) and changes nothing', async () => {
    await changesNothing(() => restProject('default').then((r) => r.body), async () => {
      const error = await gqlError(GqlMutCreateProject, { input: { id: 'default', name: 'Hijacked' } });
      expectDomainError(error, 'NameExistsError', 409);
    });
  });

  it('updateProject changes it, keeps absent fields, sets updatedAt, and writes project-updated', async () => {
    const data = await gqlData(GqlMutUpdateProject, { input: { id: 'gql-proj', name: 'Renamed', description: null, featureLimit: null } });
    const updated = data.updateProject;
    expect(updated).toMatchObject({ id: 'gql-proj', name: 'Renamed', description: null, mode: 'protected', featureLimit: null, createdAt: created.createdAt });
    expect(updated.updatedAt).not.toBeNull();
    const event = await latestEvent('project-updated');
    const { featureCount: _c, environments: _e, ...before } = created;
    const { featureCount: _c2, environments: _e2, ...after } = updated;
    expect(event).toMatchObject({ project: 'gql-proj', data: after, preData: before });
  });

  it('updateProject of an unknown project is a NotFoundError (404) and writes nothing', async () => {
    await changesNothing(() => app.get('/api/admin/projects').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutUpdateProject, { input: { id: 'no-such-project', name: 'X' } }), 'NotFoundError', 404);
    });
  });

  it('addEnvironmentToProject links a switched-on environment and writes project-environment-added', async () => {
    await gqlData(GqlMutCreateEnvironment, { input: { name: 'gql-extra', type: 'test', sortOrder: 9 } });
    const data = await gqlData(GqlMutAddEnvironmentToProject, { input: { project: 'gql-proj', environment: 'gql-extra' } });
    expect(data.addEnvironmentToProject.environments.map((e) => e.environment)).toEqual(['development', 'production', 'gql-extra']);
    expect((await restProject('gql-proj')).body.environments.map((e: any) => e.environment)).toEqual(['development', 'production', 'gql-extra']);
    const event = await latestEvent('project-environment-added');
    expect(event).toMatchObject({ project: 'gql-proj', environment: 'gql-extra', data: null, preData: null });
  });

  it('addEnvironmentToProject: unknown environment or project are NotFoundErrors; a linked one NameExistsError; nothing changes', async () => {
    await changesNothing(() => restProject('gql-proj').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutAddEnvironmentToProject, { input: { project: 'gql-proj', environment: 'nowhere' } }), 'NotFoundError', 404);
      expectDomainError(await gqlError(GqlMutAddEnvironmentToProject, { input: { project: 'no-such-project', environment: 'production' } }), 'NotFoundError', 404);
      expectDomainError(await gqlError(GqlMutAddEnvironmentToProject, { input: { project: 'gql-proj', environment: 'production' } }), 'NameExistsError', 409);
    });
  });

  it('removeEnvironmentFromProject unlinks it and writes project-environment-removed', async () => {
    const data = await gqlData(GqlMutRemoveEnvironmentFromProject, { input: { project: 'gql-proj', environment: 'development' } });
    expect(data.removeEnvironmentFromProject.environments.map((e) => e.environment)).toEqual(['production', 'gql-extra']);
    expect((await restProject('gql-proj')).body.environments.map((e: any) => e.environment)).toEqual(['production', 'gql-extra']);
    const event = await latestEvent('project-environment-removed');
    expect(event).toMatchObject({ project: 'gql-proj', environment: 'development', data: null, preData: null });
  });

  it('removeEnvironmentFromProject of an unlinked environment is a NotFoundError and writes nothing', async () => {
    await changesNothing(() => restProject('gql-proj').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutRemoveEnvironmentFromProject, { input: { project: 'gql-proj', environment: 'development' } }), 'NotFoundError', 404);
    });
  });

  it('deleteProject refuses the default project (InvalidOperationError 403) and changes nothing', async () => {
    await changesNothing(() => restProject('default').then((r) => r.body), async () => {
      const error = await gqlError(GqlMutDeleteProject, { input: { id: 'default' } });
      expectDomainError(error, 'InvalidOperationError', 403);
      expect(error.message).toBe('You can not delete the default project!');
    });
  });

  it('deleteProject returns true and writes project-deleted with preData', async () => {
    const { featureCount: _c, environments: _e, ...stored } = (await restProject('gql-proj')).body;
    delete stored.version;
    delete stored.favorite;
    const data = await gqlData(GqlMutDeleteProject, { input: { id: 'gql-proj' } });
    expect(data.deleteProject).toBe(true);
    expect((await restProject('gql-proj')).status).toBe(404);
    const event = await latestEvent('project-deleted');
    expect(event).toMatchObject({ project: 'gql-proj', data: null, preData: stored });
    expectDomainError(await gqlError(GqlMutDeleteProject, { input: { id: 'gql-proj' } }), 'NotFoundError', 404);
  });
});

// ---- context fields

describe('context field mutations', () => {
  const stored = {
    name: 'gql-field', description: 'Made by a mutation', stickiness: true, sortOrder: 3,
    legalValues: [{ value: 'a', description: 'Alpha' }, { value: 'b' }],
  };

  it('createContextField returns the field and writes context-field-created (stored properties only)', async () => {
    const data = await gqlData(GqlMutCreateContextField, { input: stored });
    expect(data.createContextField).toMatchObject({
      ...stored, legalValues: [{ value: 'a', description: 'Alpha' }, { value: 'b', description: null }], usedInFeatures: 0, usedInProjects: 0,
    });
    expect(Number.isNaN(Date.parse(data.createContextField.createdAt!))).toBe(false);
    const viaRest = (await app.get('/api/admin/context/gql-field')).body;
    expect(viaRest).toMatchObject(stored);
    expect(viaRest.createdAt).toBe(data.createContextField.createdAt);
    const event = await latestEvent('context-field-created');
    expect(event.data).toEqual(stored);
    expect(event.preData).toBeNull();
  });

  it('createContextField refuses a taken name (NameExistsError 409) and changes nothing', async () => {
    await changesNothing(() => app.get('/api/admin/context').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutCreateContextField, { input: { name: 'userId' } }), 'NameExistsError', 409);
      expectDomainError(await gqlError(GqlMutCreateContextField, { input: { name: 'gql-field', description: 'again' } }), 'NameExistsError', 409);
    });
  });

  it('createContextField refuses duplicate legal values with the property path', async () => {
    await changesNothing(() => app.get('/api/admin/context').then((r) => r.body), async () => {
      const error = await gqlError(GqlMutCreateContextField, { input: { name: 'dupes', legalValues: [{ value: 'x' }, { value: 'x' }] } });
      expectDomainError(error, 'ValidationError', 400);
      expect(error.extensions.details.map((d: any) => d.path)).toEqual(['legalValues/1/value']);
    });
  });

  it('updateContextField changes the given fields and writes context-field-updated with preData', async () => {
    const data = await gqlData(GqlMutUpdateContextField, { input: { name: 'gql-field', description: 'Changed', legalValues: [{ value: 'c' }] } });
    const after = { ...stored, description: 'Changed', legalValues: [{ value: 'c' }] };
    expect(data.updateContextField).toMatchObject({ ...after, legalValues: [{ value: 'c', description: null }] });
    const event = await latestEvent('context-field-updated');
    expect(event.data).toEqual(after);
    expect(event.preData).toEqual(stored);
  });

  it('updateContextField of an unknown field is a NotFoundError', async () => {
    expectDomainError(await gqlError(GqlMutUpdateContextField, { input: { name: 'nope', description: 'x' } }), 'NotFoundError', 404);
  });

  it('addLegalValue adds a value (or redescribes it) and writes context-field-updated', async () => {
    const data = await gqlData(GqlMutAddLegalValue, { input: { contextField: 'gql-field', value: 'd', description: 'Delta' } });
    expect(data.addLegalValue.legalValues).toEqual([{ value: 'c', description: null }, { value: 'd', description: 'Delta' }]);
    let event = await latestEvent('context-field-updated');
    expect(event.data.legalValues).toEqual([{ value: 'c' }, { value: 'd', description: 'Delta' }]);
    expect(event.preData.legalValues).toEqual([{ value: 'c' }]);
    const again = await gqlData(GqlMutAddLegalValue, { input: { contextField: 'gql-field', value: 'c', description: 'Charlie' } });
    expect(again.addLegalValue.legalValues).toEqual([{ value: 'd', description: 'Delta' }, { value: 'c', description: 'Charlie' }]);
    event = await latestEvent('context-field-updated');
    expect(event.data.legalValues).toEqual([{ value: 'd', description: 'Delta' }, { value: 'c', description: 'Charlie' }]);
    expect((await app.get('/api/admin/context/gql-field')).body.legalValues).toEqual(event.data.legalValues);
  });

  it('addLegalValue to an unknown field is a NotFoundError and writes nothing', async () => {
    await changesNothing(() => app.get('/api/admin/context').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutAddLegalValue, { input: { contextField: 'nope', value: 'x' } }), 'NotFoundError', 404);
    });
  });

  it('removeLegalValue removes a value and writes context-field-updated; an absent value is a NotFoundError', async () => {
    const data = await gqlData(GqlMutRemoveLegalValue, { input: { contextField: 'gql-field', value: 'd' } });
    expect(data.removeLegalValue.legalValues).toEqual([{ value: 'c', description: 'Charlie' }]);
    const event = await latestEvent('context-field-updated');
    expect(event.data.legalValues).toEqual([{ value: 'c', description: 'Charlie' }]);
    expect(event.preData.legalValues).toEqual([{ value: 'd', description: 'Delta' }, { value: 'c', description: 'Charlie' }]);
    await changesNothing(() => app.get('/api/admin/context/gql-field').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutRemoveLegalValue, { input: { contextField: 'gql-field', value: 'd' } }), 'NotFoundError', 404);
    });
  });

  it('deleteContextField returns true and writes context-field-deleted with preData', async () => {
    const data = await gqlData(GqlMutDeleteContextField, { input: { name: 'gql-field' } });
    expect(data.deleteContextField).toBe(true);
    expect((await app.get('/api/admin/context/gql-field')).status).toBe(404);
    const event = await latestEvent('context-field-deleted');
    expect(event.data).toBeNull();
    expect(event.preData).toEqual({ ...stored, description: 'Changed', legalValues: [{ value: 'c', description: 'Charlie' }] });
    expectDomainError(await gqlError(GqlMutDeleteContextField, { input: { name: 'gql-field' } }), 'NotFoundError', 404);
  });
});

// ---- tag types and tags

describe('tag type and tag mutations', () => {
  it('createTagType returns it and writes tag-type-created; a taken name is a NameExistsError', async () => {
    const data = await gqlData(GqlMutCreateTagType, { input: { name: 'gql-team', description: 'Owning team' } });
    expect(data.createTagType).toEqual({ name: 'gql-team', description: 'Owning team', icon: null });
    expect((await app.get('/api/admin/tag-types/gql-team')).body.tagType).toEqual(data.createTagType);
    const event = await latestEvent('tag-type-created');
    expect(event).toMatchObject({ project: null, environment: null, data: data.createTagType, preData: null });
    await changesNothing(() => app.get('/api/admin/tag-types').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutCreateTagType, { input: { name: 'gql-team', icon: 'X' } }), 'NameExistsError', 409);
    });
  });

  it('updateTagType changes it and writes tag-type-updated; an unknown type is a NotFoundError', async () => {
    const data = await gqlData(GqlMutUpdateTagType, { input: { name: 'gql-team', icon: 'T' } });
    expect(data.updateTagType).toEqual({ name: 'gql-team', description: 'Owning team', icon: 'T' });
    const event = await latestEvent('tag-type-updated');
    expect(event).toMatchObject({ data: data.updateTagType, preData: { name: 'gql-team', description: 'Owning team', icon: null } });
    await changesNothing(() => app.get('/api/admin/tag-types').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutUpdateTagType, { input: { name: 'no-such-type', icon: 'x' } }), 'NotFoundError', 404);
    });
  });

  it('createTag returns the tag (type defaults to simple) and writes tag-created', async () => {
    const simple = await gqlData(GqlMutCreateTag, { input: { value: 'frontend' } });
    expect(simple.createTag).toEqual({ type: 'simple', value: 'frontend' });
    expect((await latestEvent('tag-created')).data).toEqual({ type: 'simple', value: 'frontend' });
    const team = await gqlData(GqlMutCreateTag, { input: { type: 'gql-team', value: 'payments' } });
    expect(team.createTag).toEqual({ type: 'gql-team', value: 'payments' });
    const event = await latestEvent('tag-created');
    expect(event).toMatchObject({ data: { type: 'gql-team', value: 'payments' }, preData: null, project: null });
    expect((await app.get('/api/admin/tags')).body.tags).toEqual([{ type: 'gql-team', value: 'payments' }, { type: 'simple', value: 'frontend' }]);
  });

  it('createTag refuses a duplicate (NameExistsError 409) and changes nothing', async () => {
    await changesNothing(() => app.get('/api/admin/tags').then((r) => r.body), async () => {
      const error = await gqlError(GqlMutCreateTag, { input: { type: 'simple', value: 'frontend' } });
      expectDomainError(error, 'NameExistsError', 409);
      expect(error.message).toBe('A tag of type simple with the value frontend already exists');
    });
  });

  it('createTag refuses a 1-character value (ValidationError 400, path value), as REST does', async () => {
    const viaRest = await app.post('/api/admin/tags', { value: 'x' });
    await changesNothing(() => app.get('/api/admin/tags').then((r) => r.body), async () => {
      const error = await gqlError(GqlMutCreateTag, { input: { value: 'x' } });
      expectDomainError(error, 'ValidationError', 400);
      expect(error.extensions.details).toEqual([{ path: 'value', message: expect.stringContaining('at least 2 characters') }]);
      expect(error.extensions.details).toEqual(viaRest.body.details);
      expect(error.message).toBe(viaRest.body.message);
    });
  });

  it('createTag of an unknown tag type is a ValidationError on `type`, as REST answers', async () => {
    const viaRest = await app.post('/api/admin/tags', { type: 'no-such-type', value: 'abc' });
    expect(viaRest.status).toBe(400);
    await changesNothing(() => app.get('/api/admin/tags').then((r) => r.body), async () => {
      const error = await gqlError(GqlMutCreateTag, { input: { type: 'no-such-type', value: 'abc' } });
      expectDomainError(error, viaRest.body.name, 400);
      expect(error.extensions.details).toEqual(viaRest.body.details);
    });
  });

  it('deleteTag returns true and writes tag-deleted; deleting it again is a NotFoundError', async () => {
    const data = await gqlData(GqlMutDeleteTag, { input: { type: 'simple', value: 'frontend' } });
    expect(data.deleteTag).toBe(true);
    expect((await app.get('/api/admin/tags/simple/frontend')).status).toBe(404);
    const event = await latestEvent('tag-deleted');
    expect(event).toMatchObject({ data: null, preData: { type: 'simple', value: 'frontend' } });
    await changesNothing(() => app.get('/api/admin/tags').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutDeleteTag, { input: { type: 'simple', value: 'frontend' } }), 'NotFoundError', 404);
    });
  });

  it('deleteTagType returns true, deletes its tags and writes tag-type-deleted; an unknown type is a NotFoundError', async () => {
    const data = await gqlData(GqlMutDeleteTagType, { input: { name: 'gql-team' } });
    expect(data.deleteTagType).toBe(true);
    expect((await app.get('/api/admin/tag-types/gql-team')).status).toBe(404);
    expect((await app.get('/api/admin/tags')).body.tags).toEqual([]);
    const event = await latestEvent('tag-type-deleted');
    expect(event).toMatchObject({ data: null, preData: { name: 'gql-team', description: 'Owning team', icon: 'T' } });
    await changesNothing(() => app.get('/api/admin/tag-types').then((r) => r.body), async () => {
      expectDomainError(await gqlError(GqlMutDeleteTagType, { input: { name: 'gql-team' } }), 'NotFoundError', 404);
    });
  });
});

// ---- errors of the GraphQL request itself

describe('request errors are ValidationErrors with a details path', () => {
  const tags = () => app.get('/api/admin/tags').then((r) => r.body);

  it('an unknown input field', async () => {
    await changesNothing(tags, async () => {
      const [error, ...rest] = await rawErrors('mutation { createTag(input: { value: "fine", colour: "red" }) { value } }');
      expect(rest).toEqual([]);
      expectError(error, 'ValidationError', 400);
      expect(error.message).toBe('Field "colour" is not defined by type "CreateTagInput".');
      expect(error.extensions.details).toEqual([{ path: 'createTag/input/colour', message: error.message }]);
    });
    // The second time the validation result comes from yoga's cache: still shaped the same.
    const again = await rawErrors('mutation { createTag(input: { value: "fine", colour: "red" }) { value } }');
    expect(again).toHaveLength(1);
    expect(again[0].extensions).toEqual({ name: 'ValidationError', code: 400, details: [{ path: 'createTag/input/colour', message: again[0].message }] });
  });

  it('an unknown selected field', async () => {
    await changesNothing(tags, async () => {
      const [error, ...rest] = await rawErrors('mutation { created: createTag(input: { value: "fine" }) { value colour } }');
      expect(rest).toEqual([]);
      expectError(error, 'ValidationError', 400);
      expect(error.extensions.details).toEqual([{ path: 'created/colour', message: 'Cannot query field "colour" on type "Tag".' }]);
    });
  });

  it('a literal of the wrong type', async () => {
    await changesNothing(() => app.get('/api/admin/environments').then((r) => r.body), async () => {
      const [error, ...rest] = await rawErrors('mutation { createEnvironment(input: { name: "typed", type: "test", sortOrder: "high" }) { name } }');
      expect(rest).toEqual([]);
      expectError(error, 'ValidationError', 400);
      expect(error.extensions.details).toEqual([{ path: 'createEnvironment/input/sortOrder', message: 'Int cannot represent non-integer value: "high"' }]);
    });
  });

  it('a variable value of the wrong type (not a 500)', async () => {
    await changesNothing(() => app.get('/api/admin/environments').then((r) => r.body), async () => {
      const errors = await rawErrors(
        'mutation GqlRawCreateEnvironment($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { name } }',
        { input: { name: 'typed', type: 'test', sortOrder: 'high' } },
      );
      expect(errors).toHaveLength(1);
      expectError(errors[0], 'ValidationError', 400);
      expect(errors[0].extensions.details).toEqual([{ path: 'input/sortOrder', message: errors[0].message }]);
      expect(errors[0].message).toContain('Int cannot represent non-integer value: "high"');
    });
  });

  it('a variable with an unknown property, and a missing required variable', async () => {
    const [unknown] = await rawErrors(
      'mutation GqlRawCreateTag($input: CreateTagInput!) { createTag(input: $input) { value } }',
      { input: { value: 'fine', colour: 'red' } },
    );
    expectError(unknown, 'ValidationError', 400);
    expect(unknown.message).toContain('Field "colour" is not defined by type "CreateTagInput"');
    expect(unknown.extensions.details).toEqual([{ path: 'input', message: unknown.message }]);
    const [missing] = await rawErrors('mutation GqlRawCreateTag($input: CreateTagInput!) { createTag(input: $input) { value } }', {});
    expectError(missing, 'ValidationError', 400);
    expect(missing.extensions.details).toEqual([{ path: 'input', message: 'Variable "$input" of required type "CreateTagInput!" was not provided.' }]);
    expect((await app.get('/api/admin/tags')).body.tags.map((t: any) => t.value)).not.toContain('fine');
  });

  it('a syntax error', async () => {
    const [error] = await rawErrors('mutation { createTag(input: { value: "fine" }) { value }');
    expectError(error, 'ValidationError', 400);
    expect(error.message).toBe('Syntax Error: Expected Name, found <EOF>.');
    expect(error.extensions.details).toEqual([{ path: '', message: error.message }]);
  });
});

// ---- the same error through both doors

describe('a failing mutation answers with the error REST gives for the same change', () => {
  const cases: Array<{ what: string; rest: [string, string, unknown?]; gql: () => Promise<GqlErrors[number]> }> = [
    { what: 'duplicate tag', rest: ['POST', '/api/admin/tags', { value: 'twice' }], gql: () => gqlError(GqlMutCreateTag, { input: { value: 'twice' } }) },
    { what: 'duplicate context field', rest: ['POST', '/api/admin/context', { name: 'userId' }], gql: () => gqlError(GqlMutCreateContextField, { input: { name: 'userId' } }) },
    { what: 'duplicate project', rest: ['POST', '/api/admin/projects', { id: 'default', name: 'Again' }], gql: () => gqlError(GqlMutCreateProject, { input: { id: 'default', name: 'Again' } }) },
    { what: 'unknown environment', rest: ['PUT', '/api/admin/environments/nowhere', { sortOrder: 1 }], gql: () => gqlError(GqlMutUpdateEnvironment, { input: { name: 'nowhere', sortOrder: 1 } }) },
    { what: 'unknown project', rest: ['PUT', '/api/admin/projects/nowhere', { name: 'X' }], gql: () => gqlError(GqlMutUpdateProject, { input: { id: 'nowhere', name: 'X' } }) },
    { what: 'unknown tag type', rest: ['DELETE', '/api/admin/tag-types/nowhere'], gql: () => gqlError(GqlMutDeleteTagType, { input: { name: 'nowhere' } }) },
    { what: 'deleting the default project', rest: ['DELETE', '/api/admin/projects/default'], gql: () => gqlError(GqlMutDeleteProject, { input: { id: 'default' } }) },
    { what: 'a 1-character tag value', rest: ['POST', '/api/admin/tags', { value: 'q' }], gql: () => gqlError(GqlMutCreateTag, { input: { value: 'q' } }) },
    { what: 'a bad sort order', rest: ['POST', '/api/admin/environments', { name: 'e1', type: 't', sortOrder: 2_000_000 }], gql: () => gqlError(GqlMutCreateEnvironment, { input: { name: 'e1', type: 't', sortOrder: 2_000_000 } }) },
  ];

  beforeAll(async () => {
    expect((await app.post('/api/admin/tags', { value: 'twice' })).status).toBe(201);
  });

  it.each(cases)('$what', async ({ rest: [method, path, body], gql }) => {
    const eventsBefore = await totalEvents();
    const viaRest = await app.request(method, path, body);
    expect(viaRest.status).toBeGreaterThanOrEqual(400);
    const error = await gql();
    const { id: restId, message: restMessage, ...restFields } = viaRest.body;
    const { id: gqlId, code, ...gqlFields } = error.extensions;
    expect([typeof restId, typeof gqlId]).toEqual(['string', 'string']);
    expect(code).toBe(viaRest.status);
    expect(gqlFields).toEqual(restFields); // name, and details where REST has them
    expect(error.message).toBe(restMessage);
    expect(await totalEvents()).toBe(eventsBefore);
  });
});
