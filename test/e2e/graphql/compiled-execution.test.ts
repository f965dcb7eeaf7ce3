import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Compiled execution (src/resolvers/compiled-execution.ts) against the standard executor: two instances of the app on
 * the same database, one compiling every query it may at once, the other never compiling, answer the same requests
 * (data, errors, nulls, variables, fragments, aliases, introspection) with the same status and the same body, key
 * order included. The Prometheus counter of the compiling instance says which path answered each request, so the
 * compiled path is known to have been taken where it should, and the standard one (or the rerun after a compiled run
 * with errors) where it must.
 */
let viewerToken: string;
const P = '/api/admin/projects';

type Path = 'compiled' | 'standard' | 'standard_rerun';
/** Which executor answers a case on the compiling instance; `refused` when the request is refused before execution. */
type Expected = Path | 'refused';

async function executions(app: TestApp): Promise<Record<Path, number>> {
  const text: string = (await app.get('/internal-backstage/prometheus', { token: null })).body;
  const count = (path: Path) => Number(new RegExp(`^flagdeck_graphql_executions_total\\{executor="${path}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { compiled: count('compiled'), standard: count('standard'), standard_rerun: count('standard_rerun') };
}

/** Error ids are random per error: the same error answered twice differs only there. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const comparable = (reply: Reply) => ({
  status: reply.status,
  body: JSON.stringify(reply.body, (key, value) => (key === 'errors' ? JSON.parse(JSON.stringify(value).replace(UUID, '<id>')) : value)),
});

interface Case {
  label: string;
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  token?: string;
  /** Which executor answers on the compiling instance. */
  path: Expected;
  /** The answer has errors (checked, so a case meant to fail cannot silently pass). */
  errors?: boolean;
}

const STRATEGY_FIELDS = 'id name title disabled featureName sortOrder parameters segmentIds constraints { contextName operator values value caseInsensitive inverted } variants { name weight weightType stickiness payload { type value } } segments { id name constraints { contextName operator values } }';
const FEATURE_FIELDS = `name type description project stale impressionData favorite archived archivedAt createdAt lastSeenAt enabled
  environments { name featureName environment type enabled sortOrder variantCount lastSeenAt hasStrategies hasEnabledStrategies
    variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
    strategies { ${STRATEGY_FIELDS} } }
  variants { name weight } tags { type value } dependencies { feature enabled variants } children`;

const CASES: Case[] = [
  { label: 'a project\'s features with everything nested', path: 'compiled', query: `{ project(id: "cx") { id name features(first: 50) { nodes { ${FEATURE_FIELDS} } pageInfo { hasNextPage endCursor } } } }` },
  { label: 'the bench\'s feature query', path: 'compiled', query: '{ project(id: "cx") { features(first: 100) { nodes { name type stale environments { name enabled strategies { name parameters constraints { contextName operator values inverted caseInsensitive } variants { name weight stickiness } } variants { name weight } } } } } }' },
  { label: 'every flag in one list with its lifecycle stage (an enum whose values differ from its names), and unknown flags', path: 'compiled', query: '{ featureIndex { name project type stage stale potentiallyStale enabled createdAt tags { type value } } unknownFlags { name appName } }' },
  { label: 'a flag\'s lifecycle, per environment too', path: 'compiled', query: '{ feature(name: "cx-alpha") { lifecycle { stage enteredStageAt trafficAfterDiscard potentiallyStale stages { stage enteredAt leftAt status statusValue } } environments { name lifecycleStage } } }' },
  { label: 'edges, cursors and a second page', path: 'compiled', query: '{ project(id: "cx") { features(first: 2, after: "ZmVhdHVyZTpjeC1hbHBoYQ") { edges { cursor node { name } } pageInfo { hasNextPage endCursor } } } }' },
  { label: 'several root fields and __typename everywhere', path: 'compiled', query: '{ __typename projects { __typename id name } environments { __typename name type sortOrder enabled } tags { __typename type value } featureTypes { id name lifetimeDays } segments { id name description constraints { contextName operator values } } contextFields { name legalValues { value } } }' },
  { label: 'aliases, also named like Object.prototype members', path: 'compiled', query: '{ constructor: feature(name: "cx-alpha") { toString: name hasOwnProperty: type valueOf: stale isPrototypeOf: environments { propertyIsEnumerable: name } } a: feature(name: "cx-beta") { n: name } b: feature(name: "cx-beta") { name } }' },
  { label: 'the same field twice, merged selections', path: 'compiled', query: '{ feature(name: "cx-alpha") { name environments { name } environments { enabled strategies { name } } environments { name strategies { constraints { contextName } } } } }' },
  { label: 'named fragments, nested fragments and inline fragments', path: 'compiled', query: `
      query Frag { feature(name: "cx-alpha") { ...F ... on Feature { tags { ...T } } } }
      fragment F on Feature { name environments { ...E } }
      fragment E on FeatureEnvironment { name enabled ... { strategies { ...S } } }
      fragment S on FeatureStrategy { name constraints { contextName values } }
      fragment T on Tag { type value }` },
  { label: 'a fragment on the root type', path: 'compiled', query: '{ ...Root } fragment Root on Query { tags { value } projects { id } }' },
  { label: 'variables: given, defaulted, absent and null', path: 'compiled', variables: { id: 'cx', filter: { query: 'a' } }, query: 'query V($id: String!, $first: Int = 3, $after: String, $filter: FeatureFilter) { project(id: $id) { features(first: $first, after: $after, filter: $filter) { nodes { name } } } }' },
  { label: 'variables: explicit nulls and an input object with defaults', path: 'compiled', variables: { id: 'cx', first: null, filter: { query: null, type: 'release' } }, query: 'query V($id: String!, $first: Int, $filter: FeatureFilter) { project(id: $id) { features(first: $first, filter: $filter) { nodes { name type } } } }' },
  { label: 'two operations, one chosen by name', path: 'compiled', operationName: 'Second', query: 'query First { tags { value } } query Second { projects { id } }' },
  { label: 'events: count only, and rows with the count', path: 'compiled', query: '{ events(first: 3) { totalCount } feature(name: "cx-alpha") { events(first: 2) { totalCount edges { node { type featureName project } } pageInfo { hasNextPage } } } }' },
  { label: 'introspection', path: 'compiled', query: '{ __schema { queryType { name } types { name kind } } __type(name: "FeatureStrategy") { name fields { name type { kind name ofType { kind name ofType { kind name } } } } } }' },
  { label: 'a null for a nullable field, lists that are empty', path: 'compiled', query: '{ feature(name: "cx-beta") { description archivedAt lastSeenAt tags { value } dependencies { feature } children environments { variants { name } } } }' },

  { label: 'a missing feature: NotFoundError', path: 'standard_rerun', errors: true, query: '{ feature(name: "cx-missing") { name } }' },
  { label: 'one alias fails, the other answers', path: 'standard_rerun', errors: true, query: '{ ok: feature(name: "cx-alpha") { name } missing: feature(name: "cx-missing") { name } tags { value } }' },
  { label: 'an error under a list: first out of range', path: 'standard_rerun', errors: true, query: '{ tags { value } projects { id features(first: 0) { nodes { name } } } }' },
  { label: 'a cursor that is not ours', path: 'standard_rerun', errors: true, query: '{ project(id: "cx") { features(first: 2, after: "bm90LW91cnM") { nodes { name } } } }' },
  { label: 'a field the caller may not read', path: 'standard_rerun', errors: true, token: 'viewer', query: '{ projects { id } users { id } }' },
  { label: 'a variable of the wrong type', path: 'refused', errors: true, variables: { id: 'cx', first: 'ten' }, query: 'query V($id: String!, $first: Int) { project(id: $id) { features(first: $first) { nodes { name } } } }' },
  { label: 'a required variable left out', path: 'refused', errors: true, variables: {}, query: 'query V($id: String!) { project(id: $id) { id } }' },
  { label: 'an input object with an unknown field', path: 'refused', errors: true, variables: { id: 'cx', filter: { nope: 1 } }, query: 'query V($id: String!, $filter: FeatureFilter) { project(id: $id) { features(filter: $filter) { nodes { name } } } }' },

  { label: '@skip and @include: the standard executor', path: 'standard', variables: { yes: true }, query: 'query D($yes: Boolean!) { feature(name: "cx-alpha") { name @include(if: $yes) type @skip(if: $yes) environments @skip(if: false) { name } } }' },
  { label: 'a __proto__ alias: the standard executor', path: 'standard', query: '{ __proto__: feature(name: "cx-alpha") { name } tags { value } }' },
  { label: 'the playground: the standard executor', path: 'standard', query: '{ playground(input: { environment: "development", projects: ["cx"], context: { appName: "a", userId: "7" } }) { name isEnabled } }' },
  { label: 'a mutation: the standard executor', path: 'standard', errors: true, query: 'mutation { archiveFeatures(input: { project: "cx", features: ["cx-missing"] }) }' },
];

interface Answered { reply: ReturnType<typeof comparable>; again: ReturnType<typeof comparable>; path: Record<Path, number> }
const answers = { compiled: new Map<string, Answered>(), standard: new Map<string, Answered>() };
let standardCounts: Record<Path, number>;

async function seed(app: TestApp): Promise<void> {
  const ok = (reply: Reply, status = 200) => { expect([reply.status, reply.body]).toEqual([status, expect.anything()]); return reply.body; };
  ok(await app.post(P, { id: 'cx', name: 'Compiled execution' }), 201);
  ok(await app.post('/api/admin/context', { name: 'plan', legalValues: [{ value: 'free' }, { value: 'pro' }] }), 201);
  const segment = ok(await app.post('/api/admin/segments', { name: 'cx-pro', project: 'cx', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] }), 201);
  for (const name of ['cx-alpha', 'cx-beta', 'cx-gamma', 'cx-delta']) ok(await app.post(`${P}/cx/features`, { name, description: name === 'cx-beta' ? null : `about ${name}` }), 201);
  ok(await app.post(`${P}/cx/features/cx-alpha/environments/development/strategies`, {
    name: 'flexibleRollout', title: 'Pro', parameters: { rollout: '40', stickiness: 'userId', groupId: 'cx-alpha' },
    constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'], caseInsensitive: true }, { contextName: 'userId', operator: 'NUM_GT', value: '10', inverted: true }],
    variants: [{ name: 'blue', weightType: 'fix', weight: 200, payload: { type: 'json', value: '{"c":"blue"}' } }, { name: 'red' }],
    segments: [segment.id],
  }));
  ok(await app.post(`${P}/cx/features/cx-alpha/environments/development/strategies`, { name: 'default', disabled: true }));
  ok(await app.post(`${P}/cx/features/cx-alpha/environments/development/on`));
  ok(await app.put(`${P}/cx/features/cx-alpha/environments/production/variants`, [
    { name: 'a', payload: { type: 'string', value: 'x' }, overrides: [{ contextName: 'userId', values: ['1'] }] }, { name: 'b' },
  ]));
  ok(await app.post('/api/admin/features/cx-alpha/tags', { type: 'simple', value: 'team-web' }), 201);
  ok(await app.post(`${P}/cx/features/cx-gamma/dependencies`, { feature: 'cx-alpha', variants: ['blue'] }));
  ok(await app.post('/api/admin/user-admin', { username: 'cx-viewer', password: 'Compiled-Path-42', rootRole: 'Viewer' }), 201);
  const login = await app.post('/auth/simple/login', { username: 'cx-viewer', password: 'Compiled-Path-42' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = ok(await app.post('/api/admin/user/tokens', { description: 'cx', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } }), 201).secret;
}

/** Every case on one instance: its answer, which executor answered it, and its answer once more. */
async function answerAll(app: TestApp, into: Map<string, Answered>): Promise<void> {
  for (const c of CASES) {
    const body = { query: c.query, variables: c.variables, operationName: c.operationName };
    const options = c.token === 'viewer' ? { token: viewerToken } : {};
    const before = await executions(app);
    const reply = comparable(await app.post('/graphql', body, options));
    const after = await executions(app);
    const path = { compiled: after.compiled - before.compiled, standard: after.standard - before.standard, standard_rerun: after.standard_rerun - before.standard_rerun };
    into.set(c.label, { reply, path, again: comparable(await app.post('/graphql', body, options)) });
  }
}

// The embedded database serves one connection: the two instances take turns on the same data. The response cache is
// off: these tests count how each operation executes, and a repeated one would be answered without executing.
beforeAll(async () => {
  const compiling = await startTestApp({ graphqlCompiled: { compileAfter: 0 }, graphqlResponseCache: false });
  try {
    await seed(compiling);
    await answerAll(compiling, answers.compiled);
  } finally {
    await compiling.close();
  }
  const reference = await startTestApp({ reset: false, graphqlCompiled: false, graphqlResponseCache: false });
  try {
    await answerAll(reference, answers.standard);
    standardCounts = await executions(reference);
  } finally {
    await reference.close();
  }
  // Two instances, a seed and every case twice on each: more than the default 30 s on a loaded machine.
}, 180_000);

describe('compiled execution answers as the standard executor does', () => {
  it.each(CASES.map((c) => [c.label, c] as const))('%s', (_label, c) => {
    const mine = answers.compiled.get(c.label)!;
    const reference = answers.standard.get(c.label)!;
    expect(mine.reply).toEqual(reference.reply);
    expect(reference.reply.body.includes('"errors"')).toBe(Boolean(c.errors));
    expect(mine.path).toEqual({ compiled: 0, standard: 0, standard_rerun: 0, ...(c.path === 'refused' ? {} : { [c.path]: 1 }) });
    // Again, from the cache of compiled operations: the same answer.
    expect(mine.again).toEqual(reference.reply);
  });

  it('the instance without compiled execution never compiles', () => {
    expect(standardCounts.compiled + standardCounts.standard_rerun).toBe(0);
    expect(standardCounts.standard).toBe(2 * CASES.filter((c) => c.path !== 'refused').length);
  });
});

describe('when a query is compiled', () => {
  it('by default a text runs on the standard executor once and compiled from its second execution on', async () => {
    const app = await startTestApp({ reset: false, graphqlCompiled: {}, graphqlResponseCache: false });
    try {
      const query = '{ feature(name: "cx-alpha") { name environments { name enabled } } }';
      const replies = [];
      const paths = [];
      for (let i = 0; i < 3; i++) {
        const before = await executions(app);
        replies.push(comparable(await app.post('/graphql', { query })));
        const after = await executions(app);
        paths.push(after.compiled > before.compiled ? 'compiled' : 'standard');
      }
      expect(paths).toEqual(['standard', 'compiled', 'compiled']);
      expect(new Set(replies.map((r) => r.body)).size).toBe(1);
    } finally {
      await app.close();
    }
  });
});
