import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../gql';
import { startTestApp, type TestApp } from '../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const NoOpUpdateTagType = graphql(`mutation NoOpUpdateTagType($input: UpdateTagTypeInput!) { updateTagType(input: $input) { name description } }`);
const NulEnvironment = graphql(`query NulEnvironment($name: String!) { environment(name: $name) { name } }`);

describe('updates that change nothing write no audit event', () => {
  it.each([
    ['PUT /api/admin/environments/development', '/api/admin/environments/development', { sortOrder: 2 }],
    ['PUT /api/admin/environments/development with its own name', '/api/admin/environments/development', { name: 'development' }],
    ['PUT /api/admin/context/userId', '/api/admin/context/userId', {}],
    ['PUT /api/admin/tag-types/simple', '/api/admin/tag-types/simple', { icon: '#' }],
    ['PUT /api/admin/projects/default', '/api/admin/projects/default', { name: 'Default', description: 'Default project' }],
  ])('%s', async (_label, path, body) => {
    const before = await app.events();
    const res = await app.put(path, body);
    expect(res.status).toBe(200);
    expect(await app.events()).toEqual(before);
  });

  it('a real change still writes one', async () => {
    const before = (await app.events('environment-updated')).length;
    expect((await app.put('/api/admin/environments/development', { sortOrder: 5 })).status).toBe(200);
    expect(await app.events('environment-updated')).toHaveLength(before + 1);
  });

  it('GraphQL shares the behaviour', async () => {
    const before = await app.events();
    const res = await app.gql(NoOpUpdateTagType, { input: { name: 'simple', description: 'Used to simplify filtering of features' } });
    expect(res.body.data?.updateTagType).toEqual({ name: 'simple', description: 'Used to simplify filtering of features' });
    expect(await app.events()).toEqual(before);
  });

  it('renaming through PUT is refused', async () => {
    const res = await app.put('/api/admin/environments/development', { name: 'dev' });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('name');
  });
});

describe('text the database cannot store', () => {
  it('a NUL character in a GraphQL argument is a ValidationError, not a 500', async () => {
    const res = await app.gql(NulEnvironment, { name: 'a\u0000b' });
    expect(res.body.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
  });
});
