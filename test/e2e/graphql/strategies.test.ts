import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

/** The feature API is written elsewhere: features and feature strategies that use a definition are inserted directly. */
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

// ---- documents

const GqlStratParts = graphql(`
  fragment GqlStratParts on StrategyDefinition {
    name displayName title description editable deprecated parameters { name type description required }
  }
`);
const GqlStratList = graphql(`query GqlStratList { strategies { ...GqlStratParts } }`);
const GqlStratOne = graphql(`query GqlStratOne($name: String!) { strategy(name: $name) { ...GqlStratParts } }`);
const GqlStratCreate = graphql(`mutation GqlStratCreate($input: CreateStrategyInput!) { createStrategy(input: $input) { ...GqlStratParts } }`);
const GqlStratUpdate = graphql(`mutation GqlStratUpdate($input: UpdateStrategyInput!) { updateStrategy(input: $input) { ...GqlStratParts } }`);
const GqlStratDeprecate = graphql(`mutation GqlStratDeprecate($input: DeprecateStrategyInput!) { deprecateStrategy(input: $input) { ...GqlStratParts } }`);
const GqlStratReactivate = graphql(`mutation GqlStratReactivate($input: ReactivateStrategyInput!) { reactivateStrategy(input: $input) { ...GqlStratParts } }`);
const GqlStratDelete = graphql(`mutation GqlStratDelete($input: DeleteStrategyInput!) { deleteStrategy(input: $input) }`);
const GqlStratEvents = graphql(`
  query GqlStratEvents($type: String!) {
    events(filter: { type: $type }, first: 1000) { nodes { id type createdBy createdByUserId project environment featureName data preData } }
  }
`);

// ---- helpers

type GqlError = { message: string; extensions: Record<string, any> };

async function gqlData<R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<R> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data as R;
}

/** Runs an operation that must fail, and returns its single error. */
async function gqlError<R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<GqlError> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.data ?? null).toBeNull();
  return res.body.errors![0];
}

const expectError = (error: GqlError, name: string, code: number) => expect(error.extensions).toMatchObject({ name, code });

const totalEvents = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.totalEvents;
const restList = async () => (await app.get('/api/admin/strategies')).body.strategies as any[];

/** Runs `failing`, then checks that no event was written and the definitions are as they were. */
async function changesNothing(failing: () => Promise<void>): Promise<void> {
  const [eventsBefore, before] = [await totalEvents(), await restList()];
  await failing();
  expect(await totalEvents()).toBe(eventsBefore);
  expect(await restList()).toEqual(before);
}

/** The newest event of `type`, which GraphQL and REST must report alike. */
async function latestEvent(type: string): Promise<any> {
  const data = await gqlData(GqlStratEvents, { type });
  const rest = await app.events(type);
  expect(data.events.nodes.map((e) => e.id)).toEqual(rest.map((e) => e.id));
  expect(data.events.nodes.length).toBeGreaterThan(0);
  const [event] = data.events.nodes;
  expect(event).toMatchObject({ type, createdBy: 'admin', createdByUserId: -1337, project: null, environment: null, featureName: null });
  return event;
}

const rollout = {
  name: 'gqlRollout', displayName: 'GraphQL rollout', title: 'Made by GraphQL', description: 'Enable for listed teams.', editable: true, deprecated: false,
  parameters: [
    { name: 'teams', type: 'list' as const, description: 'Team ids', required: true },
    { name: 'share', type: 'percentage' as const, description: '', required: false },
  ],
};

// ---- tests

describe('strategy queries', () => {
  it('strategies lists every definition exactly as REST does, in the same order', async () => {
    const data = await gqlData(GqlStratList, {});
    expect(data.strategies.map((s) => s.name)).toEqual([
      'flexibleRollout', 'default', 'userWithId', 'remoteAddress', 'applicationHostname',
      'gradualRolloutUserId', 'gradualRolloutSessionId', 'gradualRolloutRandom',
    ]);
    expect(data.strategies).toEqual(await restList());
  });

  it('strategy(name) equals the REST definition; an unknown name is a NotFoundError (404) with the strategy-type message', async () => {
    const data = await gqlData(GqlStratOne, { name: 'flexibleRollout' });
    expect(data.strategy).toEqual((await app.get('/api/admin/strategies/flexibleRollout')).body);
    const error = await gqlError(GqlStratOne, { name: 'nope' });
    expectError(error, 'NotFoundError', 404);
    expect(error.message).toBe('Could not find strategy type with name nope');
    expect(error.extensions.id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
  });

  it('needs a token: 401 AuthenticationRequired', async () => {
    const res = await app.gql(GqlStratList, {}, { token: null });
    expect(res.status).toBe(401);
    expect(res.body.errors![0].extensions).toMatchObject({ name: 'AuthenticationRequired', code: 401 });
  });
});

describe('createStrategy', () => {
  it('returns the definition and writes strategy-created with it', async () => {
    const { editable: _editable, deprecated: _deprecated, parameters, ...rest } = rollout;
    const data = await gqlData(GqlStratCreate, {
      input: { ...rest, parameters: [parameters[0], { name: 'share', type: 'percentage' }] },
    });
    expect(data.createStrategy).toEqual(rollout);
    expect((await app.get('/api/admin/strategies/gqlRollout')).body).toEqual(rollout);
    const event = await latestEvent('strategy-created');
    expect(event.data).toEqual(rollout);
    expect(event.preData).toBeNull();
  });

  it('refuses a taken name (NameExistsError 409) and writes nothing', async () => {
    await changesNothing(async () => {
      expectError(await gqlError(GqlStratCreate, { input: { name: 'gqlRollout' } }), 'NameExistsError', 409);
      expectError(await gqlError(GqlStratCreate, { input: { name: 'default' } }), 'NameExistsError', 409);
    });
  });

  it('refuses invalid input with a ValidationError (400) whose details name the path, and writes nothing', async () => {
    await changesNothing(async () => {
      const badName = await gqlError(GqlStratCreate, { input: { name: 'has space' } });
      expectError(badName, 'ValidationError', 400);
      expect(badName.extensions.details.map((d: { path: string }) => d.path)).toEqual(['name']);
      const dup = await gqlError(GqlStratCreate, {
        input: { name: 'dupParams', parameters: [{ name: 'p', type: 'string' }, { name: 'p', type: 'list' }] },
      });
      expectError(dup, 'ValidationError', 400);
      expect(dup.extensions.details.map((d: { path: string }) => d.path)).toEqual(['parameters/1/name']);
      const notEditable = await gqlError(GqlStratCreate, { input: { name: 'notEditable', editable: false } });
      expectError(notEditable, 'ValidationError', 400);
      expect(notEditable.extensions.details.map((d: { path: string }) => d.path)).toEqual(['editable']);
      // A parameter type outside the enum is refused by GraphQL itself, as a ValidationError too.
      const badType = await gqlError(GqlStratCreate, { input: { name: 'badType', parameters: [{ name: 'p', type: 'date' as never }] } });
      expectError(badType, 'ValidationError', 400);
      expect(badType.extensions.details[0].path).toBe('input/parameters/0/type');
    });
    expect((await app.get('/api/admin/strategies/dupParams')).status).toBe(404);
  });
});

describe('updateStrategy', () => {
  it('changes only the given fields, null empties a text, and writes strategy-updated with data and preData', async () => {
    const data = await gqlData(GqlStratUpdate, { input: { name: 'gqlRollout', title: null, description: 'Enable for some teams.' } });
    const updated = { ...rollout, title: null, description: 'Enable for some teams.' };
    expect(data.updateStrategy).toEqual(updated);
    expect((await app.get('/api/admin/strategies/gqlRollout')).body).toEqual(updated);
    const event = await latestEvent('strategy-updated');
    expect(event.data).toEqual(updated);
    expect(event.preData).toEqual(rollout);
  });

  it('replaces the parameters', async () => {
    const data = await gqlData(GqlStratUpdate, { input: { name: 'gqlRollout', parameters: [{ name: 'teams', type: 'list', required: true }] } });
    expect(data.updateStrategy.parameters).toEqual([{ name: 'teams', type: 'list', description: '', required: true }]);
    const event = await latestEvent('strategy-updated');
    expect(event.preData.parameters).toEqual(rollout.parameters);
    expect(event.data.parameters).toEqual(data.updateStrategy.parameters);
  });

  it('writes no event when nothing changes', async () => {
    const before = await totalEvents();
    const data = await gqlData(GqlStratUpdate, { input: { name: 'gqlRollout', displayName: rollout.displayName } });
    expect(data.updateStrategy).toMatchObject({ name: 'gqlRollout', displayName: rollout.displayName });
    expect(await totalEvents()).toBe(before);
  });

  it('refuses a built-in definition (InvalidOperationError 403) and an unknown one (NotFoundError 404), writing nothing', async () => {
    await changesNothing(async () => {
      const builtIn = await gqlError(GqlStratUpdate, { input: { name: 'default', description: 'Mine' } });
      expectError(builtIn, 'InvalidOperationError', 403);
      expect(builtIn.message).toBe('The strategy type default is built in and cannot be changed.');
      expectError(await gqlError(GqlStratUpdate, { input: { name: 'nope', description: 'x' } }), 'NotFoundError', 404);
      const bad = await gqlError(GqlStratUpdate, { input: { name: 'gqlRollout', title: 't'.repeat(101) } });
      expectError(bad, 'ValidationError', 400);
      expect(bad.extensions.details.map((d: { path: string }) => d.path)).toEqual(['title']);
    });
  });
});

describe('deprecateStrategy and reactivateStrategy', () => {
  it('deprecate returns the deprecated definition and writes strategy-deprecated {name}; repeating writes nothing', async () => {
    const data = await gqlData(GqlStratDeprecate, { input: { name: 'gqlRollout' } });
    expect(data.deprecateStrategy).toMatchObject({ name: 'gqlRollout', deprecated: true });
    expect((await app.get('/api/admin/strategies/gqlRollout')).body.deprecated).toBe(true);
    const event = await latestEvent('strategy-deprecated');
    expect(event.data).toEqual({ name: 'gqlRollout' });
    expect(event.preData).toBeNull();
    const before = await totalEvents();
    expect((await gqlData(GqlStratDeprecate, { input: { name: 'gqlRollout' } })).deprecateStrategy.deprecated).toBe(true);
    expect(await totalEvents()).toBe(before);
  });

  it('reactivate returns the active definition and writes strategy-reactivated {name}; repeating writes nothing', async () => {
    const data = await gqlData(GqlStratReactivate, { input: { name: 'gqlRollout' } });
    expect(data.reactivateStrategy).toMatchObject({ name: 'gqlRollout', deprecated: false });
    expect((await app.get('/api/admin/strategies/gqlRollout')).body.deprecated).toBe(false);
    const event = await latestEvent('strategy-reactivated');
    expect(event.data).toEqual({ name: 'gqlRollout' });
    const before = await totalEvents();
    expect((await gqlData(GqlStratReactivate, { input: { name: 'gqlRollout' } })).reactivateStrategy.deprecated).toBe(false);
    expect(await totalEvents()).toBe(before);
  });

  it('works on built-ins, but `default` cannot be deprecated (InvalidOperationError 403)', async () => {
    expect((await gqlData(GqlStratDeprecate, { input: { name: 'applicationHostname' } })).deprecateStrategy.deprecated).toBe(true);
    expect((await gqlData(GqlStratReactivate, { input: { name: 'applicationHostname' } })).reactivateStrategy.deprecated).toBe(false);
    await changesNothing(async () => {
      expectError(await gqlError(GqlStratDeprecate, { input: { name: 'default' } }), 'InvalidOperationError', 403);
      expectError(await gqlError(GqlStratDeprecate, { input: { name: 'nope' } }), 'NotFoundError', 404);
      expectError(await gqlError(GqlStratReactivate, { input: { name: 'nope' } }), 'NotFoundError', 404);
    });
  });
});

describe('deleteStrategy', () => {
  it('refuses a definition in use and a built-in one (InvalidOperationError 403), writing nothing', async () => {
    await sql(`insert into features (name, project) values ('gql-f1', 'default')`);
    await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name) values (gen_random_uuid(), 'gql-f1', 'default', 'development', 'gqlRollout')`);
    await changesNothing(async () => {
      const inUse = await gqlError(GqlStratDelete, { input: { name: 'gqlRollout' } });
      expectError(inUse, 'InvalidOperationError', 403);
      expect(inUse.message).toContain('is used by 1 feature');
      expectError(await gqlError(GqlStratDelete, { input: { name: 'flexibleRollout' } }), 'InvalidOperationError', 403);
    });
    await sql(`delete from feature_strategies where strategy_name = 'gqlRollout'`);
  });

  it('returns true and writes strategy-deleted {name}', async () => {
    const before = (await app.get('/api/admin/strategies/gqlRollout')).body;
    const data = await gqlData(GqlStratDelete, { input: { name: 'gqlRollout' } });
    expect(data.deleteStrategy).toBe(true);
    expect((await app.get('/api/admin/strategies/gqlRollout')).status).toBe(404);
    const event = await latestEvent('strategy-deleted');
    expect(event.data).toEqual({ name: 'gqlRollout' });
    expect(event.preData).toEqual(before);
  });

  it('an unknown (or already deleted) definition is a NotFoundError (404) and writes nothing', async () => {
    await changesNothing(async () => {
      expectError(await gqlError(GqlStratDelete, { input: { name: 'gqlRollout' } }), 'NotFoundError', 404);
    });
  });
});

describe('REST and GraphQL parity', () => {
  it('definitions written through both doors list identically', async () => {
    expect((await app.post('/api/admin/strategies', {
      name: 'restMade', description: 'From REST', parameters: [{ name: 'flag', type: 'boolean', description: 'A switch' }],
    })).status).toBe(201);
    await gqlData(GqlStratCreate, { input: { name: 'gqlMade', displayName: 'From GraphQL', parameters: [{ name: 'max', type: 'number', required: true }] } });
    expect((await app.post('/api/admin/strategies/restMade/deprecate')).status).toBe(200);
    const [gqlList, rest] = [(await gqlData(GqlStratList, {})).strategies, await restList()];
    expect(gqlList).toEqual(rest);
    expect(rest.slice(-2).map((s) => [s.name, s.deprecated])).toEqual([['gqlMade', false], ['restMade', true]]);
    for (const name of ['gqlMade', 'restMade']) {
      expect((await gqlData(GqlStratOne, { name })).strategy).toEqual((await app.get(`/api/admin/strategies/${name}`)).body);
    }
  });
});
