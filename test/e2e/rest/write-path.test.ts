import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from 'pg';
import { startTestApp, type TestApp } from '../../support/harness';
import { itWhen, NEEDS_POSTGRES } from '../../support/skip';

/**
 * Issue 30: the writes of create flag → add strategy → enable answer from what they wrote and check their rules in as
 * few statements as they can, inserting before the rules that need no database are judged; a refused write must still
 * leave nothing behind.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // Project default: development and production, a third environment linked then switched off (not shown), and
  // production ordered first.
  expect((await app.post('/api/admin/environments', { name: 'wp-later', type: 'test', sortOrder: 50 })).status).toBe(201);
  for (const environment of ['production', 'wp-later']) {
    expect([200, 409]).toContain((await app.post('/api/admin/projects/default/environments', { environment })).status);
  }
  expect((await app.post('/api/admin/environments/wp-later/off')).status).toBe(204);
  expect((await app.put('/api/admin/environments/production', { sortOrder: -5 })).status).toBe(200);
  expect((await app.post('/api/admin/context', { name: 'wp-region', legalValues: [{ value: 'eu' }, { value: 'us' }] })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

/** A second connection to the same database exists only on PostgreSQL (the embedded database serves one). */
const onPostgres = Boolean(process.env.FLAGDECK_TEST_DB);

const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const F = '/api/admin/projects/default/features';
const strategies = (f: string, env = 'production') => `${F}/${f}/environments/${env}/strategies`;

/** What a refused write could have left: rows of the feature anywhere, and events about it. */
async function traces(feature: string): Promise<Record<string, number>> {
  const [row] = await sql(
    `select (select count(*) from features where name = ?)::int as features,
            (select count(*) from feature_environments where feature_name = ?)::int as environments,
            (select count(*) from feature_strategies where feature_name = ?)::int as strategies,
            (select count(*) from context_field_usage where feature_name = ?)::int as usage,
            (select count(*) from events where feature_name = ?)::int as events`, [feature, feature, feature, feature, feature]);
  return row;
}

describe('creating a feature', () => {
  it('answers with the feature exactly as reading it shows it, without reading it back', async () => {
    app.resetQueryCount();
    const created = await app.post(F, { name: 'wp-created', description: 'made here', impressionData: true, type: 'experiment' });
    expect(created.status).toBe(201);
    // BEGIN, one read-and-insert, the event, COMMIT.
    expect(app.queries.length).toBeLessThanOrEqual(4);
    const read = await app.get(`${F}/wp-created`);
    expect(created.body).toEqual(read.body);
    expect(created.body.environments.map((e: { name: string; enabled: boolean; strategies: unknown[] }) => [e.name, e.enabled, e.strategies.length]))
      .toEqual([['production', false, 0], ['development', false, 0]]);
    const [event] = await app.events('feature-created');
    expect(event).toMatchObject({ featureName: 'wp-created', data: { name: 'wp-created', type: 'experiment', description: 'made here', createdAt: created.body.createdAt } });
  });

  it('a name that breaks the naming pattern, an unknown type or a taken name leaves nothing behind', async () => {
    expect((await app.post('/api/admin/projects', { id: 'wp-named', name: 'Named' })).status).toBe(201);
    expect((await app.put('/api/admin/projects/wp-named/settings', { featureNaming: { pattern: 'ok-.+' } })).status).toBe(200);
    const named = await app.post('/api/admin/projects/wp-named/features', { name: 'wp-misnamed' });
    expect({ status: named.status, name: named.body.name }).toEqual({ status: 400, name: 'PatternError' });
    expect(await traces('wp-misnamed')).toEqual({ features: 0, environments: 0, strategies: 0, usage: 0, events: 0 });

    const typed = await app.post(F, { name: 'wp-untyped', type: 'no-such-type' });
    expect({ status: typed.status, name: typed.body.name, path: typed.body.details?.[0]?.path }).toEqual({ status: 400, name: 'ValidationError', path: 'type' });
    expect(await traces('wp-untyped')).toEqual({ features: 0, environments: 0, strategies: 0, usage: 0, events: 0 });

    // A taken name wins over the other rules (it is judged first).
    const taken = await app.post(F, { name: 'wp-created', type: 'no-such-type' });
    expect({ status: taken.status, name: taken.body.name }).toEqual({ status: 409, name: 'NameExistsError' });
    expect((await app.post('/api/admin/projects/wp-named/features', { name: 'ok-named' })).status).toBe(201);
  });
});

describe('adding a strategy', () => {
  it('takes the next sort order and writes its event in at most five statements', async () => {
    expect((await app.post(F, { name: 'wp-strategies' })).status).toBe(201);
    const body = (n: number) => ({
      name: 'flexibleRollout', parameters: { rollout: String(n), stickiness: 'default', groupId: 'wp-strategies' },
      constraints: [{ contextName: 'wp-region', operator: 'IN', values: ['eu'] }, { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'] }],
    });
    app.resetQueryCount();
    const first = await app.post(strategies('wp-strategies'), body(10));
    expect(first.status).toBe(200);
    expect(app.queries.length).toBeLessThanOrEqual(5);
    const second = await app.post(strategies('wp-strategies'), body(20));
    expect([first.body.sortOrder, second.body.sortOrder]).toEqual([0, 1]);
    const listed = (await app.get(strategies('wp-strategies'))).body;
    expect(listed).toEqual([first.body, second.body]);
    const events = (await app.events('feature-strategy-add')).filter((e) => e.featureName === 'wp-strategies').reverse();
    expect(events.map((e) => e.data)).toEqual(listed.map(({ featureName: _f, ...s }: { featureName: string }) => s));
  });

  it('a strategy refused by a rule judged after its insert leaves nothing behind, and the next one is still first', async () => {
    expect((await app.post(F, { name: 'wp-refused' })).status).toBe(201);
    const base = { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'wp-refused' } };
    const refusals: Array<[unknown, number, string, string | undefined]> = [
      [{ ...base, constraints: [{ contextName: 'no-such-field', operator: 'IN', values: ['x'] }] }, 404, 'NotFoundError', undefined],
      [{ ...base, constraints: [{ contextName: 'wp-region', operator: 'IN', values: ['mars'] }] }, 400, 'ValidationError', 'constraints/0/values'],
      [{ ...base, variants: [{ name: 'a', weightType: 'fix', weight: 1000 }] }, 400, 'ValidationError', undefined],
      [{ ...base, parameters: { rollout: '250' } }, 400, 'ValidationError', 'parameters/rollout'],
      // The definition is judged before the parameters, as before.
      [{ name: 'no-such-strategy', parameters: { rollout: '250' } }, 400, 'ValidationError', 'name'],
    ];
    for (const [body, status, name, path] of refusals) {
      const res = await app.post(strategies('wp-refused'), body);
      expect({ status: res.status, name: res.body.name }).toEqual({ status, name });
      if (path) expect(res.body.details[0].path).toBe(path);
    }
    expect(await traces('wp-refused')).toEqual({ features: 1, environments: 3, strategies: 0, usage: 0, events: 1 });
    const ok = await app.post(strategies('wp-refused'), { ...base, constraints: [{ contextName: 'wp-region', operator: 'IN', values: ['us'] }] });
    expect({ status: ok.status, sortOrder: ok.body.sortOrder }).toEqual({ status: 200, sortOrder: 0 });
    expect(await sql(`select context_name, refs from context_field_usage where feature_name = 'wp-refused'`)).toEqual([{ context_name: 'wp-region', refs: 1 }]);
  });
});

describe('enabling', () => {
  it('switches on in at most six statements, and once on, again is no change', async () => {
    expect((await app.post(F, { name: 'wp-enabled' })).status).toBe(201);
    expect((await app.post(strategies('wp-enabled'), { name: 'default' })).status).toBe(200);
    app.resetQueryCount();
    expect((await app.post(`${F}/wp-enabled/environments/production/on`)).status).toBe(200);
    expect(app.queries.length).toBeLessThanOrEqual(6);
    expect((await app.post(`${F}/wp-enabled/environments/production/on`)).status).toBe(200);
    const enabled = (await app.events('feature-environment-enabled')).filter((e) => e.featureName === 'wp-enabled');
    expect(enabled).toHaveLength(1);
    const env = (await app.get(`${F}/wp-enabled`)).body.environments.find((e: { name: string }) => e.name === 'production');
    expect(env).toMatchObject({ enabled: true, hasStrategies: true, hasEnabledStrategies: true });
    expect(env.strategies.map((s: { name: string }) => s.name)).toEqual(['default']);
  });
});

describe('model_version (migration 0021)', () => {
  const version = async () => BigInt((await sql('select version::text as v from model_version'))[0].v);

  it('moves once per change, at its commit, however many rows and tables the change writes', async () => {
    const v0 = await version();
    expect((await app.post(F, { name: 'wp-version' })).status).toBe(201);
    expect(await version()).toBe(v0 + 1n);
    // The default strategy, the switch and its event: still one move.
    expect((await app.post(`${F}/wp-version/environments/production/on`)).status).toBe(200);
    expect(await version()).toBe(v0 + 2n);
    // A statement that changes no row moves nothing.
    await sql(`update feature_environments set enabled = false where feature_name = 'no-such-feature'`);
    expect(await version()).toBe(v0 + 2n);
  });

  itWhen(onPostgres, NEEDS_POSTGRES)('is not held by an open change: another one commits meanwhile, and each moves it when it commits', async () => {
    const holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`update features set description = 'held' where name = 'wp-version'`);
      const v0 = await version();
      let timer: NodeJS.Timeout | undefined;
      const meanwhile = await Promise.race([
        app.post(F, { name: 'wp-meanwhile' }).then((r) => r.status),
        new Promise((resolve) => { timer = setTimeout(() => resolve('waited for the open change'), 5_000); }),
      ]);
      clearTimeout(timer);
      expect(meanwhile).toBe(201);
      expect(await version()).toBe(v0 + 1n);
      await holder.query('commit');
      expect(await version()).toBe(v0 + 2n);
      // A rolled-back savepoint takes its move back; a later change in the same transaction still moves it, once.
      await holder.query('begin');
      await holder.query('savepoint a');
      await holder.query(`update features set description = 'undone' where name = 'wp-version'`);
      await holder.query('rollback to savepoint a');
      await holder.query('commit');
      expect(await version()).toBe(v0 + 2n);
      await holder.query('begin');
      await holder.query('savepoint a');
      await holder.query(`update features set description = 'undone' where name = 'wp-version'`);
      await holder.query('rollback to savepoint a');
      await holder.query(`update features set description = 'kept' where name = 'wp-version'`);
      await holder.query(`update feature_environments set variants = '[]' where feature_name = 'wp-version'`);
      await holder.query('commit');
      expect(await version()).toBe(v0 + 3n);
      // A rolled-back transaction moves nothing.
      await holder.query('begin');
      await holder.query(`update features set description = 'rolled back' where name = 'wp-version'`);
      await holder.query('rollback');
      expect(await version()).toBe(v0 + 3n);
    } finally {
      await holder.end();
    }
  });
});
