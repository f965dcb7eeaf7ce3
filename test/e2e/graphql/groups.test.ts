import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/** Issue 9, groups through GraphQL: the same service as REST, so the same data, errors and events. */
let app: TestApp;
let ann: number;
let ben: number;
let viewerToken: string;
const PASSWORD = 'Groups-Pass-42';

const GqlGroupParts = graphql(`
  fragment GqlGroupParts on Group {
    id name description mappingsSSO rootRole createdBy createdAt userCount
    users { joinedAt createdBy user { id name username email imageUrl rootRole accountType seenAt createdAt } }
  }
`);
const GqlGroups = graphql(`query GqlGroups { groups { ...GqlGroupParts } }`);
const GqlGroup = graphql(`query GqlGroup($id: Int!) { group(id: $id) { ...GqlGroupParts } }`);
const GqlCreateGroup = graphql(`mutation GqlCreateGroup($input: CreateGroupInput!) { createGroup(input: $input) { ...GqlGroupParts } }`);
const GqlUpdateGroup = graphql(`mutation GqlUpdateGroup($input: UpdateGroupInput!) { updateGroup(input: $input) { ...GqlGroupParts } }`);
const GqlDeleteGroup = graphql(`mutation GqlDeleteGroup($input: GroupIdInput!) { deleteGroup(input: $input) }`);

async function gqlData<R, V>(doc: TypedDocumentNode<R, V>, variables?: V, token?: string): Promise<R> {
  const res = await app.gql(doc, variables, token ? { token } : {});
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data as R;
}

async function gqlError<R, V>(doc: TypedDocumentNode<R, V>, variables?: V, token?: string): Promise<Record<string, any>> {
  const res = await app.gql(doc, variables, token ? { token } : {});
  expect(res.body.errors).toHaveLength(1);
  return res.body.errors![0].extensions;
}

/** The REST group with each member's user cut to the fields GroupUser has. */
const restToGraphql = (g: any) => ({
  ...g,
  users: g.users.map((m: any) => ({
    ...m,
    user: { id: m.user.id, name: m.user.name, username: m.user.username, email: m.user.email, imageUrl: m.user.imageUrl, rootRole: m.user.rootRole, accountType: m.user.accountType, seenAt: m.user.seenAt, createdAt: m.user.createdAt },
  })),
});
const groupRows = () => app.orm.em.fork().execute('select g.*, (select json_agg(gu.user_id order by gu.user_id) from group_user gu where gu.group_id = g.id) as members from groups g order by id');

beforeAll(async () => {
  app = await startTestApp();
  ann = (await app.post('/api/admin/user-admin', { username: 'ann', rootRole: 'Viewer' })).body.id;
  ben = (await app.post('/api/admin/user-admin', { username: 'ben', email: 'ben@example.com', rootRole: 'Viewer' })).body.id;
  await app.post('/api/admin/user-admin', { username: 'vera', password: PASSWORD, rootRole: 'Viewer' });
  const login = await app.post('/auth/simple/login', { username: 'vera', password: PASSWORD }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 'gql', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
});
afterAll(async () => { await app.close(); });

describe('GraphQL groups', () => {
  let id: number;

  it('createGroup: the group, and a group-created event like REST\'s', async () => {
    const { createGroup } = await gqlData(GqlCreateGroup, { input: { name: 'Ops', description: 'Operators', mappingsSSO: ['sso'], rootRole: 2, users: [ann, ben] } });
    expect(createGroup).toMatchObject({ name: 'Ops', description: 'Operators', mappingsSSO: ['sso'], rootRole: 2, createdBy: 'admin', userCount: 2 });
    expect(createGroup.users.map((m) => m.user.username)).toEqual(['ann', 'ben']);
    id = createGroup.id;
    const [event] = await app.events('group-created');
    expect(event).toMatchObject({ createdBy: 'admin', data: { id, name: 'Ops', description: 'Operators', mappingsSSO: ['sso'], rootRole: 2, users: [ann, ben] } });
  });

  it('groups and group(id) equal the REST answers', async () => {
    await app.post('/api/admin/groups', { name: 'Second', users: [{ user: { id: ben } }] });
    const rest = (await app.get('/api/admin/groups')).body.groups;
    expect(rest).toHaveLength(2);
    const { groups } = await gqlData(GqlGroups);
    expect(groups).toEqual(rest.map(restToGraphql));
    const { group } = await gqlData(GqlGroup, { id });
    expect(group).toEqual(restToGraphql((await app.get(`/api/admin/groups/${id}`)).body));
  });

  it('updateGroup replaces the group; absent optional fields take their defaults; group-updated with preData', async () => {
    const { updateGroup } = await gqlData(GqlUpdateGroup, { input: { id, name: 'Operations', users: [ben] } });
    expect(updateGroup).toMatchObject({ id, name: 'Operations', description: null, mappingsSSO: [], rootRole: null, userCount: 1 });
    const [event] = await app.events('group-updated');
    expect(event).toMatchObject({ data: { id, name: 'Operations', users: [ben] }, preData: { id, name: 'Ops', users: [ann, ben] } });
    expect(restToGraphql((await app.get(`/api/admin/groups/${id}`)).body)).toEqual(updateGroup);
  });

  it('errors carry the REST names, and change nothing', async () => {
    const before = await groupRows();
    const events = (await app.events()).length;
    expect(await gqlError(GqlCreateGroup, { input: { name: 'SECOND' } })).toMatchObject({ name: 'NameExistsError', code: 409 });
    expect(await gqlError(GqlCreateGroup, { input: { name: 'x', rootRole: 4 } })).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'rootRole' }] });
    expect(await gqlError(GqlCreateGroup, { input: { name: 'x', users: [99999] } })).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'users/0' }] });
    expect(await gqlError(GqlCreateGroup, { input: { name: '' } })).toMatchObject({ name: 'ValidationError', details: [{ path: 'name' }] });
    expect(await gqlError(GqlUpdateGroup, { input: { id: 99999, name: 'x' } })).toMatchObject({ name: 'NotFoundError', code: 404 });
    expect(await gqlError(GqlGroup, { id: -1 })).toMatchObject({ name: 'NotFoundError', code: 404 });
    expect(await gqlError(GqlDeleteGroup, { input: { id: 99999 } })).toMatchObject({ name: 'NotFoundError', code: 404 });
    expect(await gqlError(GqlCreateGroup, { input: { name: 'Mine' } }, viewerToken)).toMatchObject({ name: 'NoAccessError', code: 403, permissions: ['ADMIN'] });
    expect(await gqlError(GqlDeleteGroup, { input: { id } }, viewerToken)).toMatchObject({ name: 'NoAccessError', code: 403 });
    expect(await groupRows()).toEqual(before);
    expect((await app.events()).length).toBe(events);
    // Reading is open to any admin-API principal.
    expect((await gqlData(GqlGroups, undefined, viewerToken)).groups).toHaveLength(2);
  });

  it('deleteGroup: true, gone on both doors, group-deleted', async () => {
    expect(await gqlData(GqlDeleteGroup, { input: { id } })).toEqual({ deleteGroup: true });
    expect((await app.get(`/api/admin/groups/${id}`)).status).toBe(404);
    expect(await gqlError(GqlGroup, { id })).toMatchObject({ name: 'NotFoundError' });
    const [event] = await app.events('group-deleted');
    expect(event).toMatchObject({ data: null, preData: { id, name: 'Operations', users: [ben] } });
  });
});
