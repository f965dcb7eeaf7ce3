import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { buildASTSchema, parse, validate } from 'graphql';
import { graphql } from '../../gql';
import { buildSchema } from '../../../src/resolvers';
import { MAX_FIELDS } from '../../../src/resolvers/limits';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const GqlTransportTags = graphql(`query GqlTransportTags { tags { type value } }`);
const GqlTransportCreateTag = graphql(`mutation GqlTransportCreateTag($input: CreateTagInput!) { createTag(input: $input) { value } }`);
const GqlTransportEventPage = graphql(`
  query GqlTransportEventPage($first: Int, $after: String) {
    events(filter: { type: "tag-created" }, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node { id type createdAt createdBy createdByUserId project environment featureName data preData tags { type value } } }
    }
  }
`);
const GqlTransportDeepest = graphql(`query GqlTransportDeepest { events(first: 1) { edges { node { tags { type } } } } }`);

async function gqlData<R, V>(doc: TypedDocumentNode<R, V>, variables?: V): Promise<R> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data as R;
}

describe('authentication', () => {
  it('POST /graphql without Authorization is 401 AuthenticationRequired, and nothing runs', async () => {
    const res = await app.gql(GqlTransportCreateTag, { input: { value: 'anonymous' } }, { token: null });
    expect(res.status).toBe(401);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors![0].extensions).toMatchObject({ name: 'AuthenticationRequired', code: 401 });
    expect(typeof res.body.errors![0].extensions.id).toBe('string');
    expect((await app.get('/api/admin/tags')).body.tags).toEqual([]);
  });

  it('an unknown token is 401 as well', async () => {
    const res = await app.gql(GqlTransportTags, {}, { token: '*:*.not-a-token-anyone-was-given' });
    expect(res.status).toBe(401);
    expect(res.body.errors![0].extensions).toMatchObject({ name: 'AuthenticationRequired', code: 401 });
  });

  it('with the admin token the same operation runs', async () => {
    expect(await gqlData(GqlTransportTags)).toEqual({ tags: [] });
  });

  it('serves the GraphiQL page to a browser (GET, text/html, no query) without a token', async () => {
    const res = await app.get('/graphql', { token: null, headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.body).toContain('<title>flagdeck GraphQL</title>');
  });

  it('GET /graphql with a query needs a token; a browser without one gets the page (GraphiQL reloads with ?query=), not data', async () => {
    const query = encodeURIComponent('{tags{value}}');
    for (const headers of [{}, { accept: 'application/json' }] as Array<Record<string, string>>) {
      const res = await app.get(`/graphql?query=${query}`, { token: null, headers });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].extensions.name).toBe('AuthenticationRequired');
    }
    const page = await app.get(`/graphql?query=${query}`, { token: null, headers: { accept: 'text/html' } });
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.body).toContain('<title>flagdeck GraphQL</title>');
    expect(page.body).not.toContain('"tags"');
    const ok = await app.get(`/graphql?query=${query}`, { headers: { accept: 'application/json' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { tags: [] } });
  });
});

describe('content type', () => {
  it('a non-JSON body is 415 ContentTypeerror', async () => {
    const res = await app.request('POST', '/graphql', undefined, { raw: 'query { tags { value } }', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions).toMatchObject({ name: 'ContentTypeerror', code: 415 });
    expect(res.body.errors[0].message).toContain('(text/plain)');
  });

  it('an anonymous non-JSON body is refused as unauthenticated first (401)', async () => {
    const res = await app.request('POST', '/graphql', undefined, { raw: 'query { tags { value } }', headers: { 'content-type': 'text/plain' }, token: null });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.name).toBe('AuthenticationRequired');
  });
});

describe('operation limits', () => {
  const deepest = '{ events { edges { node { tags { type } } } } }';

  it('the deepest operation the schema allows runs over HTTP', async () => {
    const data = await gqlData(GqlTransportDeepest);
    expect(data.events.edges).toEqual([]);
  });

  it(`the server applies the limits: more than MAX_FIELDS (${MAX_FIELDS}) fields, fragments expanded, is a ValidationError`, async () => {
    // Each fragment spreads the next one twice: `levels` doublings of the two fields of the last one, plus `tags`.
    const doubling = (levels: number) => {
      const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Tag { ...F${i + 1} ...F${i + 1} }`);
      return `{ tags { ...F0 } } ${fragments.join(' ')} fragment F${levels} on Tag { type value }`;
    };
    const under = await app.post('/graphql', { query: doubling(9) }); // 1 + 2 * 512 = 1025 fields
    expect(under.body).toEqual({ data: { tags: [] } });
    const over = await app.post('/graphql', { query: doubling(10) }); // 1 + 2 * 1024 = 2049 fields
    expect(over.status).toBe(400);
    expect(over.body.data ?? null).toBeNull();
    expect(over.body.errors).toHaveLength(1);
    expect(over.body.errors[0].message).toBe(`The operation selects 2049 fields (fragments expanded); the limit is ${MAX_FIELDS}.`);
    expect(over.body.errors[0].extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: '', message: over.body.errors[0].message }] });
  });
});

describe('event pagination', () => {
  const values = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];

  beforeAll(async () => {
    for (const value of values) await gqlData(GqlTransportCreateTag, { input: { value } });
  });

  it('pages newest first with cursors; the pages together are the whole list', async () => {
    const all = await app.events('tag-created');
    expect(all.map((e) => e.data.value)).toEqual([...values].reverse());

    const first = (await gqlData(GqlTransportEventPage, { first: 3 })).events;
    expect(first.edges.map((e) => e.node)).toEqual(all.slice(0, 3));
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: first.edges[2].cursor });
    expect(first.totalCount).toBe(7);

    const seen = [...first.edges];
    const pages = [first];
    let page = first;
    while (page.pageInfo.hasNextPage) {
      page = (await gqlData(GqlTransportEventPage, { first: 3, after: page.pageInfo.endCursor })).events;
      expect(page.totalCount).toBe(7);
      expect(page.edges.length).toBeGreaterThan(0);
      expect(page.pageInfo.endCursor).toBe(page.edges[page.edges.length - 1].cursor);
      seen.push(...page.edges);
      pages.push(page);
      expect(pages.length).toBeLessThanOrEqual(3);
    }
    expect(pages.map((p) => p.edges.length)).toEqual([3, 3, 1]);
    expect(seen.map((e) => e.node)).toEqual(all);
    expect(new Set(seen.map((e) => e.cursor)).size).toBe(7);
  });

  it('a cursor keeps its place when newer events arrive', async () => {
    const first = (await gqlData(GqlTransportEventPage, { first: 3 })).events;
    await gqlData(GqlTransportCreateTag, { input: { value: 'hotel' } });
    const next = (await gqlData(GqlTransportEventPage, { first: 3, after: first.pageInfo.endCursor })).events;
    expect(next.totalCount).toBe(8);
    expect(next.edges.map((e) => e.node.data)).toEqual(['delta', 'charlie', 'bravo'].map((value) => ({ type: 'simple', value })));
  });

  it('an exact last page says there is no next page', async () => {
    const all = (await gqlData(GqlTransportEventPage, { first: 8 })).events;
    expect(all.edges).toHaveLength(8);
    expect(all.pageInfo.hasNextPage).toBe(false);
    const after = (await gqlData(GqlTransportEventPage, { first: 3, after: all.pageInfo.endCursor })).events;
    expect(after).toEqual({ totalCount: 8, pageInfo: { hasNextPage: false, endCursor: null }, edges: [] });
  });

  it.each([
    ['not base64 of a cursor', 'zzz'],
    ['another prefix', Buffer.from('tag:5').toString('base64url')],
    ['a non-numeric id', Buffer.from('event:abc').toString('base64url')],
  ])('an invalid `after` cursor (%s) is a ValidationError on `after`', async (_what, after) => {
    const res = await app.gql(GqlTransportEventPage, { first: 3, after });
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors![0].extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'after' }] });
  });

  it.each([0, 1001])('a page size of %i is a ValidationError on `first`', async (first) => {
    const res = await app.gql(GqlTransportEventPage, { first });
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors![0].extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'first' }] });
  });
});
