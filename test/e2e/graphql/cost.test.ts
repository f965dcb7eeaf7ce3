import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_ALIASES } from '../../../src/resolvers/limits';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 8, defect 8 over HTTP: requests whose cost is not bounded are refused before anything runs, quickly, with a
 * 400 ValidationError that says what was measured; requests within the budget run.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  for (const name of ['cost-a', 'cost-b', 'cost-c']) expect((await app.post('/api/admin/projects/default/features', { name })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
async function refused(query: string, variables?: unknown) {
  const started = Date.now();
  const res = await app.post('/graphql', { query, variables });
  const ms = Date.now() - started;
  expect(res.status).toBe(400);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
  return { message: res.body.errors[0].message as string, ms };
}

describe('refused before anything runs', () => {
  it('1000 aliases of events(first: 1000) { totalCount }: the alias limit, in milliseconds', async () => {
    const { message, ms } = await refused(aliases(1000, 'events(first: 1000) { totalCount }'));
    expect(message).toContain(`Aliases limit of ${MAX_ALIASES} exceeded`);
    expect(ms).toBeLessThan(1000);
  });

  it('pages inside pages that together cost too much: the budget, with the cost in the message', async () => {
    // 1000 features, each with a page of 100 events: 10 + 1000 + 1000 × (5 + 100 rows).
    const { message } = await refused('{ features(first: 1000) { nodes { events(first: 100) { nodes { id } } } } }');
    expect(message).toBe('The operation costs 106010, over the budget of 100000 per request. Ask for smaller pages (first), fewer aliases or fewer nested lists.');
  });

  it('the page size may come from a variable: it is measured with the request\'s variables', async () => {
    const query = 'query($n: Int) { features(first: $n) { nodes { events(first: 100) { nodes { id } } } } }';
    expect((await refused(query, { n: 1000 })).message).toContain('costs 106010');
    const small = await app.post('/graphql', { query, variables: { n: 10 } });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it('100 aliases of advancedPlayground: refused; 21 cost more than the budget', async () => {
    const field = 'advancedPlayground(input: { environments: ["development"], context: { appName: "a", userId: "1,2,3" } }) { name }';
    expect((await refused(aliases(100, field))).message).toContain(`Aliases limit of ${MAX_ALIASES} exceeded`);
    expect((await refused(aliases(21, field))).message).toContain('costs 105000, over the budget of 100000');
  });

  it('a 22-level chain of fragments that each spread the next twice: refused in milliseconds, not seconds', async () => {
    const levels = 22;
    const query = `{ tags { ...F0 } } ${Array.from({ length: levels }, (_, i) => `fragment F${i} on Tag { ...F${i + 1} ...F${i + 1} __typename }`).join(' ')} fragment F${levels} on Tag { type value }`;
    const { message, ms } = await refused(query);
    expect(message).toMatch(/^The operation selects \d+ fields \(fragments expanded\); the limit is 2000\.$/);
    expect(ms).toBeLessThan(1000);
  });

  it('nesting in the text is refused before parsing: braces and list values', async () => {
    expect((await refused(`{ ${'tags { '.repeat(5000)} value ${'} '.repeat(5000)}}`)).message).toContain('nests more than 64 levels');
    expect((await refused(`{ tags(type: ${'['.repeat(40_000)}${']'.repeat(40_000)}) { value } }`)).message).toContain('nests more than 64 levels');
  });

  it('too many tokens and too many directives', async () => {
    expect((await refused(`{ tags { ${'value '.repeat(16_000)}} }`)).message).toContain('more than 15000 tokens');
    expect((await refused(`{ tags { value ${'@include(if: true) '.repeat(60)} } }`)).message).toMatch(/Directives limit of \d+ exceeded/);
  });
});

describe('within the budget', () => {
  it('a dashboard query runs', async () => {
    const res = await app.post('/graphql', {
      query: '{ projects { id name featureCount environments { environment } } tags { type value } events(first: 5) { totalCount pageInfo { hasNextPage endCursor } nodes { id type createdBy data } } project(id: "default") { features(first: 20) { nodes { name environments { name enabled strategies { name constraints { contextName operator values } } } } } } }',
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project.features.nodes.map((f: { name: string }) => f.name)).toEqual(['cost-a', 'cost-b', 'cost-c']);
  });

  it('the advanced playground\'s combination limit holds for the whole request, not per alias', async () => {
    // 1 environment × 3 features × 3000 user ids = 9000 combinations per alias; the limit is 15000 per request.
    const userIds = Array.from({ length: 3000 }, (_, i) => `u${i}`).join(',');
    const field = `advancedPlayground(input: { environments: ["development"], projects: ["default"], context: { appName: "a", userId: "${userIds}" } }) { name }`;
    const res = await app.post('/graphql', { query: `{ first: ${field} second: ${field} }` });
    // The fields are non-null, so the refused alias takes the whole data with it, as GraphQL specifies.
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    // The two aliases run concurrently: whichever reserves its combinations second is the one refused.
    expect([['first'], ['second']]).toContainEqual(res.body.errors[0].path);
    expect(res.body.errors[0].extensions.name).toBe('ValidationError');
    expect(res.body.errors[0].message).toContain('on top of the 9000 this request already evaluated, exceeding the 15000 limit');
    // One alias alone is within the limit.
    const one = await app.post('/graphql', { query: `{ first: ${field} }` });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.first.map((f: { name: string }) => f.name)).toEqual(['cost-a', 'cost-b', 'cost-c']);
  });
});

describe('the audit log reads only what is selected, once per request', () => {
  const statements = () => app.queries.filter((q) => /\bfrom events\b/.test(q));
  const run = async (query: string) => {
    app.resetQueryCount();
    const res = await app.post('/graphql', { query });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    return { data: res.body.data, statements: statements() };
  };

  it('totalCount alone counts and reads no rows; edges alone read rows and do not count', async () => {
    const counted = await run('{ events(first: 1000) { totalCount } }');
    expect(counted.data.events.totalCount).toBeGreaterThanOrEqual(3);
    expect(counted.statements).toHaveLength(1);
    expect(counted.statements[0]).toMatch(/count\(\*\)/);
    const read = await run('{ events(first: 2) { edges { node { id } } pageInfo { hasNextPage } } }');
    expect(read.data.events.edges).toHaveLength(2);
    expect(read.data.events.pageInfo.hasNextPage).toBe(true);
    expect(read.statements).toHaveLength(1);
    expect(read.statements[0]).not.toMatch(/count\(\*\)/);
  });

  it('a fragment that selects totalCount counts too', async () => {
    const { data, statements: ran } = await run('{ events(first: 1) { ...C } } fragment C on EventConnection { totalCount }');
    expect(data.events.totalCount).toBeGreaterThanOrEqual(3);
    expect(ran).toHaveLength(1);
  });

  it('30 aliases of the same page, or of one filter at different cursors, share their queries', async () => {
    const same = await run(aliases(30, 'events(first: 100) { totalCount nodes { id } }'));
    expect(same.statements).toHaveLength(2);
    const ids = same.data.a0.nodes.map((n: { id: number }) => n.id) as number[];
    const cursors = Buffer.from(`event:${ids[0]}`).toString('base64url');
    const paged = await run(`{ a: events(first: 1) { totalCount } b: events(first: 1, after: "${cursors}") { totalCount } }`);
    expect(paged.data.a.totalCount).toBe(paged.data.b.totalCount);
    expect(paged.statements).toHaveLength(1);
  });
});
