import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from '../../gql';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Issue 32 part 4 through GraphQL: segments and strategies take SEMVER_GTE, SEMVER_LTE and REGEX (the operator is the
 * `ConstraintOperator` enum in `ConstraintInput`; values are checked by the same service as REST); a pattern RE2
 * cannot compile is a ValidationError whose details name the constraint, and nothing is written; the playground query
 * evaluates them as REST does.
 */
let app: TestApp;

const GqlU8Segment = graphql(`
  mutation GqlU8Segment($input: CreateSegmentInput!) {
    createSegment(input: $input) { id constraints { contextName operator values value caseInsensitive inverted } }
  }
`);
const GqlU8UpdateSegment = graphql(`mutation GqlU8UpdateSegment($input: UpdateSegmentInput!) { updateSegment(input: $input) { id } }`);
const GqlU8AddStrategy = graphql(`
  mutation GqlU8AddStrategy($input: AddFeatureStrategyInput!) {
    addFeatureStrategy(input: $input) { id constraints { contextName operator values value caseInsensitive inverted } }
  }
`);
const GqlU8Playground = graphql(`
  query GqlU8Playground($input: PlaygroundInput!) {
    playground(input: $input) {
      name isEnabled
      strategies { data { constraints { operator value result } segments { id result } } }
    }
  }
`);

async function ok<T = any>(call: Promise<Reply<T>>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
async function gqlData<R, V>(doc: TypedDocumentNode<R, V>, variables?: V): Promise<R> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data as R;
}
async function gqlError<R, V>(doc: TypedDocumentNode<R, V>, variables?: V): Promise<Record<string, any>> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toHaveLength(1);
  return res.body.errors![0].extensions;
}
const sql = (text: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(text, params);
/** What a refused mutation must leave as it was. */
const written = async () => ({
  segments: await sql('select id, name, constraints from segments order by id'),
  strategies: await sql('select id, constraints from feature_strategies order by id'),
  events: (await sql('select count(*)::int as n from events'))[0].n,
});

let segmentId = 0;

beforeAll(async () => {
  app = await startTestApp();
  await ok(app.post('/api/admin/context', { name: 'version' }), 201);
  await ok(app.post('/api/admin/projects/default/features', { name: 'u8-gql' }), 201);
});
afterAll(async () => { await app.close(); });

describe('GraphQL mutations', () => {
  it('createSegment stores the new operators in their normalised form', async () => {
    const data = await gqlData(GqlU8Segment, { input: { name: 'u8-gql-segment', constraints: [
      { contextName: 'userId', operator: 'REGEX', value: '^team-(a|b)$', caseInsensitive: true },
      { contextName: 'version', operator: 'SEMVER_GTE', value: '1.0.0' },
    ] } });
    segmentId = data.createSegment.id;
    expect(data.createSegment.constraints).toEqual([
      { contextName: 'userId', operator: 'REGEX', values: [], value: '^team-(a|b)$', caseInsensitive: true, inverted: false },
      { contextName: 'version', operator: 'SEMVER_GTE', values: [], value: '1.0.0', caseInsensitive: false, inverted: false },
    ]);
  });

  it('createSegment, updateSegment and addFeatureStrategy refuse a pattern RE2 cannot compile, naming the constraint', async () => {
    const before = await written();
    const create = await gqlError(GqlU8Segment, { input: { name: 'u8-gql-bad', constraints: [{ contextName: 'userId', operator: 'REGEX', value: '(a)\\1' }] } });
    expect(create).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'constraints/0/value', message: expect.stringContaining('invalid escape sequence') }] });
    const update = await gqlError(GqlU8UpdateSegment, { input: { id: segmentId, name: 'u8-gql-segment', constraints: [
      { contextName: 'version', operator: 'SEMVER_LTE', value: '2.0.0' },
      { contextName: 'userId', operator: 'REGEX', value: 'x{2,1}' },
    ] } });
    expect(update).toMatchObject({ name: 'ValidationError', details: [{ path: 'constraints/1/value', message: expect.stringContaining('RE2') }] });
    const strategy = await gqlError(GqlU8AddStrategy, { input: {
      project: 'default', feature: 'u8-gql', environment: 'development', name: 'default',
      constraints: [{ contextName: 'userId', operator: 'REGEX', value: '(regex' }],
    } });
    expect(strategy).toMatchObject({ name: 'ValidationError', details: [{ path: 'constraints/0/value', message: '"value" must be a regular expression RE2 accepts (missing closing ): `(regex`). You sent "(regex".' }] });
    const operator = await gqlError(GqlU8AddStrategy, { input: {
      project: 'default', feature: 'u8-gql', environment: 'development', name: 'default',
      constraints: [{ contextName: 'userId', operator: 'IN_CIDR' as never, values: ['10.0.0.0/8'] }],
    } });
    // The operator is an enum: GraphQL refuses an unknown one while reading the variables, and names it by the variable.
    expect(operator).toMatchObject({ name: 'ValidationError', details: [{ path: 'input/constraints/0/operator' }] });
    expect(await written()).toEqual(before);
  });

  it('addFeatureStrategy stores SEMVER_LTE and REGEX, and the playground query evaluates them as REST does', async () => {
    const data = await gqlData(GqlU8AddStrategy, { input: {
      project: 'default', feature: 'u8-gql', environment: 'development', name: 'default', segments: [segmentId],
      constraints: [
        { contextName: 'version', operator: 'SEMVER_LTE', value: '2.0.0' },
        { contextName: 'userId', operator: 'REGEX', value: 'b$', inverted: true },
      ],
    } });
    expect(data.addFeatureStrategy.constraints.map((c) => [c.operator, c.value, c.inverted])).toEqual([['SEMVER_LTE', '2.0.0', false], ['REGEX', 'b$', true]]);
    await ok(app.post('/api/admin/projects/default/features/u8-gql/environments/development/on'));

    const cases: Array<[Record<string, unknown>, boolean]> = [
      [{ userId: 'TEAM-A', properties: { version: '1.0.0' } }, true],
      [{ userId: 'team-b', properties: { version: '1.5.0' } }, false], // ends with b: the inverted REGEX fails
      [{ userId: 'team-a', properties: { version: '2.0.1' } }, false], // above SEMVER_LTE
      [{ userId: 'team-a', properties: { version: '0.9.0' } }, false], // below the segment's SEMVER_GTE
      [{ userId: 'team-c', properties: { version: '1.0.0' } }, false], // outside the segment's REGEX
    ];
    for (const [context, expected] of cases) {
      const input = { environment: 'development', projects: ['default'], context: { appName: 'u8', ...context } };
      const gql = (await gqlData(GqlU8Playground, { input })).playground.find((f) => f.name === 'u8-gql')!;
      const rest = (await ok(app.post('/api/admin/playground', input))).features.find((f: any) => f.name === 'u8-gql');
      expect({ context, isEnabled: gql.isEnabled }).toEqual({ context, isEnabled: expected });
      expect(rest.isEnabled).toBe(expected);
      expect(gql.strategies.data[0].constraints).toEqual(rest.strategies.data[0].constraints.map((c: any) => ({ operator: c.operator, value: c.value, result: c.result })));
      expect(gql.strategies.data[0].segments).toEqual(rest.strategies.data[0].segments.map((s: any) => ({ id: s.id, result: s.result })));
    }
  });
});
