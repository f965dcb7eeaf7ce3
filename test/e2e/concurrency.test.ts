import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GraphQLError, parse } from 'graphql';
import { systemPrincipal } from '../../src/domain/access/principal';
import { UNIQUE_KEYS } from '../../src/domain/database-errors';
import { createServices } from '../../src/domain/services';
import { createLogger } from '../../src/logger';
import { maskError } from '../../src/resolvers/graphql.handler';
import { errorHandler } from '../../src/rest/errors';
import { startTestApp, type Reply, type TestApp } from '../support/harness';

/**
 * Issue 8, defects 3 and 4: real parallel requests. On PostgreSQL the app gets a pool of 20 connections so that the
 * requests of a batch really overlap inside the database; on the embedded database (one connection) they queue and
 * run one after the other, and every expectation must hold just the same.
 */
if (Number(process.env.TEST_DB_POOL_MAX ?? 1) > 1) process.env.TEST_DB_POOL_MAX = '20';

const N = 20;
const A = '/api/admin';
const P = `${A}/projects`;
const feature = (f: string, project = 'default') => `${P}/${project}/features/${f}`;
const featureEnv = (f: string, env = 'development', project = 'default') => `${feature(f, project)}/environments/${env}`;

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

interface StoredEvent {
  id: number;
  type: string;
  project: string | null;
  environment: string | null;
  featureName: string | null;
  data: any;
  preData: any;
}

/** Events written after `since`, oldest first, read straight from the table (no paging limit). */
async function eventsSince(since: number): Promise<StoredEvent[]> {
  const rows: Array<{ id: string; type: string; project: string | null; environment: string | null; feature_name: string | null; data: unknown; pre_data: unknown }> =
    await app.orm.em.fork().execute('select id, type, project, environment, feature_name, data, pre_data from events where id > ? order by id', [since]);
  return rows.map((r) => ({ id: Number(r.id), type: r.type, project: r.project, environment: r.environment, featureName: r.feature_name, data: r.data, preData: r.pre_data }));
}
async function lastEventId(): Promise<number> {
  const [row]: Array<{ id: string | null }> = await app.orm.em.fork().execute('select max(id) as id from events');
  return Number(row.id ?? 0);
}

/** Fires `n` requests at once (all started before any is awaited). */
const parallel = (n: number, call: (i: number) => Promise<Reply>): Promise<Reply[]> => Promise.all(Array.from({ length: n }, (_, i) => call(i)));

const ok = (status: number) => status >= 200 && status < 300;
/** Status and error name of each reply, counted: `{"201": 1, "409 NameExistsError": 19}`. */
function tally(replies: Reply[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of replies) {
    const key = ok(r.status) ? String(r.status) : `${r.status} ${r.body?.name}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

async function expectOk(res: Reply | Promise<Reply>): Promise<Reply> {
  const reply = await res;
  if (!ok(reply.status)) throw new Error(`set-up request failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply;
}

// ---- catalog: creates of one name ---------------------------------------------------------------------------------

interface CreateCase {
  what: string;
  setup?: () => Promise<void>;
  create: () => Promise<Reply>;
  /** The event the one successful create writes, and how to recognise it among others of its type. */
  event: string;
  mine: (e: StoredEvent) => boolean;
  /** Other event types that must appear at most once (side effects of the create). */
  once?: string[];
  /** How many of the thing exist afterwards (must be 1). */
  count: () => Promise<number>;
}

const countOf = async (sql: string, params: unknown[]): Promise<number> =>
  Number(((await app.orm.em.fork().execute(sql, params)) as Array<{ n: string | number }>)[0].n);

const gqlMutation = (source: string, variables: Record<string, unknown>) => app.gql(parse(source) as never, variables as never);
/** A GraphQL reply in REST terms: 200 with data, or the status and name the error mask put in `extensions`. */
const gqlAsReply = async (res: Promise<Reply>): Promise<Reply> => {
  const r = await res;
  const error = r.body?.errors?.[0];
  if (!error) return r;
  return { status: Number(error.extensions.code), body: { name: error.extensions.name, message: error.message }, headers: r.headers };
};

const creates: CreateCase[] = [
  {
    what: 'environment', event: 'environment-created', mine: (e) => e.data?.name === 'race-env',
    create: () => app.post(`${A}/environments`, { name: 'race-env', type: 'test' }),
    count: () => countOf('select count(*) as n from environments where name = ?', ['race-env']),
  },
  {
    what: 'project', event: 'project-created', mine: (e) => e.project === 'race-project',
    create: () => app.post(P, { id: 'race-project', name: 'Race' }),
    count: () => countOf('select count(*) as n from projects where id = ?', ['race-project']),
  },
  {
    what: 'context field', event: 'context-field-created', mine: (e) => e.data?.name === 'raceField',
    create: () => app.post(`${A}/context`, { name: 'raceField' }),
    count: () => countOf('select count(*) as n from context_fields where name = ?', ['raceField']),
  },
  {
    what: 'tag type', event: 'tag-type-created', mine: (e) => e.data?.name === 'race-type',
    create: () => app.post(`${A}/tag-types`, { name: 'race-type' }),
    count: () => countOf('select count(*) as n from tag_types where name = ?', ['race-type']),
  },
  {
    what: 'tag', event: 'tag-created', mine: (e) => e.data?.value === 'race-tag',
    create: () => app.post(`${A}/tags`, { type: 'simple', value: 'race-tag' }),
    count: () => countOf('select count(*) as n from tags where type = ? and value = ?', ['simple', 'race-tag']),
  },
  {
    what: 'feature', event: 'feature-created', mine: (e) => e.featureName === 'race-feature',
    create: () => app.post(`${P}/default/features`, { name: 'race-feature' }),
    count: () => countOf('select count(*) as n from features where name = ?', ['race-feature']),
  },
  {
    what: 'feature clone (one new name)', event: 'feature-created', mine: (e) => e.featureName === 'race-clone', once: ['feature-strategy-add'],
    setup: async () => {
      await expectOk(app.post(`${P}/default/features`, { name: 'clone-source' }));
      await expectOk(app.post(`${featureEnv('clone-source')}/strategies`, { name: 'default' }));
    },
    create: () => app.post(`${feature('clone-source')}/clone`, { name: 'race-clone' }),
    count: () => countOf('select count(*) as n from features where name = ?', ['race-clone']),
  },
  {
    what: 'segment', event: 'segment-created', mine: (e) => e.data?.name === 'race segment',
    create: () => app.post(`${A}/segments`, { name: 'race segment' }),
    count: () => countOf('select count(*) as n from segments where name = ?', ['race segment']),
  },
  {
    what: 'strategy definition', event: 'strategy-created', mine: (e) => e.data?.name === 'race-strategy',
    create: () => app.post(`${A}/strategies`, { name: 'race-strategy' }),
    count: () => countOf('select count(*) as n from strategies where name = ?', ['race-strategy']),
  },
  {
    what: 'the same tag on a feature', event: 'feature-tagged', mine: (e) => e.featureName === 'tag-target', once: ['tag-created'],
    setup: async () => { await expectOk(app.post(`${P}/default/features`, { name: 'tag-target' })); },
    create: () => app.post(`${A}/features/tag-target/tags`, { type: 'simple', value: 'race-feature-tag' }),
    count: () => countOf('select count(*) as n from feature_tags where feature_name = ? and tag_value = ?', ['tag-target', 'race-feature-tag']),
  },
  {
    what: 'the same environment linked to a project', event: 'project-environment-added', mine: (e) => e.project === 'linker',
    setup: async () => {
      // The project first: a new project starts linked to every environment that exists.
      await expectOk(app.post(P, { id: 'linker', name: 'Linker' }));
      await expectOk(app.post(`${A}/environments`, { name: 'link-env', type: 'test' }));
    },
    create: () => app.post(`${P}/linker/environments`, { environment: 'link-env' }),
    count: () => countOf('select count(*) as n from project_environments where project_id = ? and environment_name = ?', ['linker', 'link-env']),
  },
  {
    what: 'tag type (GraphQL)', event: 'tag-type-created', mine: (e) => e.data?.name === 'gql-race-type',
    create: () => gqlAsReply(gqlMutation('mutation ($input: CreateTagTypeInput!) { createTagType(input: $input) { name } }', { input: { name: 'gql-race-type' } })),
    count: () => countOf('select count(*) as n from tag_types where name = ?', ['gql-race-type']),
  },
  {
    what: 'context field (GraphQL)', event: 'context-field-created', mine: (e) => e.data?.name === 'gqlRaceField',
    create: () => gqlAsReply(gqlMutation('mutation ($input: CreateContextFieldInput!) { createContextField(input: $input) { name } }', { input: { name: 'gqlRaceField' } })),
    count: () => countOf('select count(*) as n from context_fields where name = ?', ['gqlRaceField']),
  },
];

describe(`${N} parallel creates of one name: exactly one succeeds, the rest are 409 NameExistsError, one event`, () => {
  it.each(creates.map((c) => [c.what, c] as const))('%s', async (_what, c) => {
    await c.setup?.();
    const since = await lastEventId();
    const replies = await parallel(N, () => c.create());
    expect(tally(replies)).toEqual({ [String(replies.find((r) => ok(r.status))?.status)]: 1, '409 NameExistsError': N - 1 });
    const refused = replies.filter((x) => !ok(x.status));
    for (const r of refused) {
      expect(r.body.message).toEqual(expect.any(String));
      // Plain words for the caller: never SQL, constraint names or driver text.
      expect(r.body.message).not.toMatch(/duplicate key|constraint|_pkey|insert into|violates|SQLSTATE/i);
    }
    // The same words whether the service's check or the unique index caught the duplicate.
    expect(new Set(refused.map((r) => r.body.message)).size).toBe(1);
    const events = await eventsSince(since);
    expect(events.filter((e) => e.type === c.event && c.mine(e))).toHaveLength(1);
    for (const type of c.once ?? []) expect(events.filter((e) => e.type === type).length).toBeLessThanOrEqual(1);
    expect(await c.count()).toBe(1);
  });
});

// ---- catalog: adds of distinct items to one list ------------------------------------------------------------------

interface ListCase {
  what: string;
  setup?: () => Promise<void>;
  add: (i: number) => Promise<Reply>;
  /** The items in the list now (compared as a set with what was added). */
  items: () => Promise<string[]>;
  added: (i: number) => string;
  event: string;
  mine: (e: StoredEvent) => boolean;
  /** For events that carry the whole list: the items named in data / preData (the chain is then checked). */
  chain?: (d: any) => string[];
}

const variantNames = (d: any): string[] => (d?.variants ?? []).map((v: { name: string }) => v.name).sort();

const lists: ListCase[] = [
  {
    what: 'legal values of a context field', event: 'context-field-updated', mine: (e) => e.data?.name === 'listField',
    setup: async () => { await expectOk(app.post(`${A}/context`, { name: 'listField' })); },
    add: (i) => app.post(`${A}/context/listField/legal-values`, { value: `value-${i}` }),
    added: (i) => `value-${i}`,
    items: async () => (await app.get(`${A}/context/listField`)).body.legalValues.map((v: { value: string }) => v.value),
    chain: (d) => (d?.legalValues ?? []).map((v: { value: string }) => v.value).sort(),
  },
  {
    what: 'tags of a feature', event: 'feature-tagged', mine: (e) => e.featureName === 'list-tags',
    setup: async () => { await expectOk(app.post(`${P}/default/features`, { name: 'list-tags' })); },
    add: (i) => app.post(`${A}/features/list-tags/tags`, { type: 'simple', value: `list-tag-${i}` }),
    added: (i) => `simple:list-tag-${i}`,
    items: async () => (await app.get(`${A}/features/list-tags/tags`)).body.tags.map((t: { type: string; value: string }) => `${t.type}:${t.value}`),
  },
  {
    what: 'variants of a feature environment (PATCH add)', event: 'feature-environment-variants-updated', mine: (e) => e.featureName === 'list-env-variants',
    setup: async () => { await expectOk(app.post(`${P}/default/features`, { name: 'list-env-variants' })); },
    add: (i) => app.request('PATCH', `${featureEnv('list-env-variants')}/variants`, [{ op: 'add', path: '/-', value: { name: `variant-${i}` } }]),
    added: (i) => `variant-${i}`,
    items: async () => (await app.get(`${featureEnv('list-env-variants')}/variants`)).body.variants.map((v: { name: string }) => v.name),
    chain: variantNames,
  },
  {
    what: 'variants of a feature (legacy PATCH add)', event: 'feature-variants-updated', mine: (e) => e.featureName === 'list-variants',
    setup: async () => { await expectOk(app.post(`${P}/default/features`, { name: 'list-variants' })); },
    add: (i) => app.request('PATCH', `${feature('list-variants')}/variants`, [{ op: 'add', path: '/-', value: { name: `variant-${i}` } }]),
    added: (i) => `variant-${i}`,
    items: async () => (await app.get(`${feature('list-variants')}/variants`)).body.variants.map((v: { name: string }) => v.name),
    chain: variantNames,
  },
  {
    what: 'strategies of a feature environment', event: 'feature-strategy-add', mine: (e) => e.featureName === 'list-strategies',
    setup: async () => { await expectOk(app.post(`${P}/default/features`, { name: 'list-strategies' })); },
    add: (i) => app.post(`${featureEnv('list-strategies')}/strategies`, { name: 'default', title: `strategy-${i}` }),
    added: (i) => `strategy-${i}`,
    items: async () => (await app.get(`${featureEnv('list-strategies')}/strategies`)).body.map((s: { title: string }) => s.title),
  },
  {
    what: 'environments of a project', event: 'project-environment-added', mine: (e) => e.project === 'list-project',
    setup: async () => {
      await expectOk(app.post(P, { id: 'list-project', name: 'List' }));
      for (let i = 0; i < N; i++) await expectOk(app.post(`${A}/environments`, { name: `list-env-${i}`, type: 'test' }));
    },
    add: (i) => app.post(`${P}/list-project/environments`, { environment: `list-env-${i}` }),
    added: (i) => `list-env-${i}`,
    items: async () => (await app.get(`${P}/list-project`)).body.environments
      .map((e: { environment: string }) => e.environment).filter((e: string) => e.startsWith('list-env-')),
  },
  {
    what: 'parent dependencies of a feature', event: 'feature-dependency-added', mine: (e) => e.featureName === 'list-child',
    setup: async () => {
      await expectOk(app.post(`${P}/default/features`, { name: 'list-child' }));
      for (let i = 0; i < N; i++) await expectOk(app.post(`${P}/default/features`, { name: `list-parent-${i}` }));
    },
    add: (i) => app.post(`${feature('list-child')}/dependencies`, { feature: `list-parent-${i}` }),
    added: (i) => `list-parent-${i}`,
    items: async () => (await app.get(feature('list-child'))).body.dependencies.map((d: { feature: string }) => d.feature),
  },
];

describe(`${N} parallel adds of distinct items to one list: ${N} items, ${N} events, a true chain`, () => {
  it.each(lists.map((c) => [c.what, c] as const))('%s', async (_what, c) => {
    await c.setup?.();
    const before = new Set(await c.items());
    const since = await lastEventId();
    const replies = await parallel(N, (i) => c.add(i));
    expect(tally(replies)).toEqual({ [String(replies[0].status)]: N });
    expect(ok(replies[0].status)).toBe(true);
    const expected = [...before, ...Array.from({ length: N }, (_, i) => c.added(i))].sort();
    expect([...(await c.items())].sort()).toEqual(expected);
    const events = (await eventsSince(since)).filter((e) => e.type === c.event && c.mine(e));
    expect(events).toHaveLength(N);
    if (c.chain) {
      // Each event starts from the state the previous one left: together they describe states that really existed.
      expect(c.chain(events[0].preData)).toEqual([...before].sort());
      for (let i = 1; i < events.length; i++) expect(c.chain(events[i].preData)).toEqual(c.chain(events[i - 1].data));
      expect(c.chain(events[N - 1].data)).toEqual(expected);
    }
  });
});

// ---- catalog: read-modify-write updates of one row ---------------------------------------------------------------

interface UpdateCase {
  what: string;
  setup?: () => Promise<void>;
  update: (i: number) => Promise<Reply>;
  event: string;
  mine: (e: StoredEvent) => boolean;
  /** The changed property as an event's data/preData records it, and as a read answers it now. */
  pick: (d: any) => unknown;
  current: () => Promise<unknown>;
}

let strategyId = '';
let segmentId = 0;

const updates: UpdateCase[] = [
  {
    what: 'context field description (PUT)', event: 'context-field-updated', mine: (e) => e.data?.name === 'updField',
    setup: async () => { await expectOk(app.post(`${A}/context`, { name: 'updField', description: 'start' })); },
    update: (i) => app.put(`${A}/context/updField`, { description: `description ${i}` }),
    pick: (d) => d?.description, current: async () => (await app.get(`${A}/context/updField`)).body.description,
  },
  {
    what: 'project (PUT)', event: 'project-updated', mine: (e) => e.project === 'upd-project',
    setup: async () => { await expectOk(app.post(P, { id: 'upd-project', name: 'Start' })); },
    update: (i) => app.put(`${P}/upd-project`, { name: `Name ${i}`, description: `description ${i}` }),
    pick: (d) => d && { name: d.name, description: d.description },
    current: async () => { const b = (await app.get(`${P}/upd-project`)).body; return { name: b.name, description: b.description }; },
  },
  {
    what: 'project settings (PUT)', event: 'project-updated', mine: (e) => e.project === 'upd-settings',
    setup: async () => { await expectOk(app.post(P, { id: 'upd-settings', name: 'Settings' })); },
    update: (i) => app.put(`${P}/upd-settings/settings`, { featureNaming: { pattern: `team${i}-.+` } }),
    pick: (d) => d?.featureNaming?.pattern ?? null,
    current: async () => (await app.get(`${P}/upd-settings`)).body.featureNaming?.pattern ?? null,
  },
  {
    what: 'environment (PUT)', event: 'environment-updated', mine: (e) => e.environment === 'upd-env',
    setup: async () => { await expectOk(app.post(`${A}/environments`, { name: 'upd-env', type: 'test', sortOrder: 500 })); },
    update: (i) => app.put(`${A}/environments/upd-env`, { type: `type-${i}`, sortOrder: i }),
    pick: (d) => d && { type: d.type, sortOrder: d.sortOrder },
    current: async () => { const b = (await app.get(`${A}/environments/upd-env`)).body; return { type: b.type, sortOrder: b.sortOrder }; },
  },
  {
    what: 'tag type (PUT)', event: 'tag-type-updated', mine: (e) => e.data?.name === 'upd-type',
    setup: async () => { await expectOk(app.post(`${A}/tag-types`, { name: 'upd-type' })); },
    update: (i) => app.put(`${A}/tag-types/upd-type`, { description: `description ${i}` }),
    pick: (d) => d?.description, current: async () => (await app.get(`${A}/tag-types/upd-type`)).body.tagType.description,
  },
  {
    what: 'strategy definition (PUT)', event: 'strategy-updated', mine: (e) => e.data?.name === 'upd-strategy',
    setup: async () => { await expectOk(app.post(`${A}/strategies`, { name: 'upd-strategy' })); },
    update: (i) => app.put(`${A}/strategies/upd-strategy`, { description: `description ${i}` }),
    pick: (d) => d?.description, current: async () => (await app.get(`${A}/strategies/upd-strategy`)).body.description,
  },
  {
    what: 'segment (PUT)', event: 'segment-updated', mine: (e) => e.data?.id === segmentId,
    setup: async () => { segmentId = (await expectOk(app.post(`${A}/segments`, { name: 'upd segment' }))).body.id; },
    update: (i) => app.put(`${A}/segments/${segmentId}`, { name: 'upd segment', description: `description ${i}` }),
    pick: (d) => d?.description, current: async () => (await app.get(`${A}/segments/${segmentId}`)).body.description,
  },
  {
    what: 'feature metadata (PUT)', event: 'feature-metadata-updated', mine: (e) => e.featureName === 'upd-feature',
    setup: async () => { await expectOk(app.post(`${P}/default/features`, { name: 'upd-feature' })); },
    update: (i) => app.put(feature('upd-feature'), { description: `description ${i}` }),
    pick: (d) => d?.description, current: async () => (await app.get(feature('upd-feature'))).body.description,
  },
  {
    what: 'feature type lifetime (PUT)', event: 'feature-type-updated', mine: (e) => e.data?.id === 'experiment',
    update: (i) => app.put(`${A}/feature-types/experiment/lifetimes`, { lifetimeDays: 1000 + i }),
    pick: (d) => d?.lifetimeDays,
    current: async () => (await app.get(`${A}/feature-types`)).body.types.find((t: { id: string }) => t.id === 'experiment').lifetimeDays,
  },
  {
    what: 'feature strategy (PUT)', event: 'feature-strategy-update', mine: (e) => e.featureName === 'upd-strategy-feature',
    setup: async () => {
      await expectOk(app.post(`${P}/default/features`, { name: 'upd-strategy-feature' }));
      strategyId = (await expectOk(app.post(`${featureEnv('upd-strategy-feature')}/strategies`, { name: 'default', title: 'start' }))).body.id;
    },
    update: (i) => app.put(`${featureEnv('upd-strategy-feature')}/strategies/${strategyId}`, { name: 'default', title: `title ${i}` }),
    pick: (d) => d?.title, current: async () => (await app.get(`${featureEnv('upd-strategy-feature')}/strategies/${strategyId}`)).body.title,
  },
];

describe(`${N} parallel read-modify-write updates of one row: ${N} events, each preData the previous event's data`, () => {
  it.each(updates.map((c) => [c.what, c] as const))('%s', async (_what, c) => {
    await c.setup?.();
    const initial = await c.current();
    const since = await lastEventId();
    const replies = await parallel(N, (i) => c.update(i));
    expect(tally(replies)).toEqual({ [String(replies[0].status)]: N });
    expect(ok(replies[0].status)).toBe(true);
    const events = (await eventsSince(since)).filter((e) => e.type === c.event && c.mine(e));
    expect(events).toHaveLength(N);
    expect(c.pick(events[0].preData)).toEqual(initial);
    for (let i = 1; i < events.length; i++) expect(c.pick(events[i].preData)).toEqual(c.pick(events[i - 1].data));
    // Every update is recorded with what it wrote, and the last one is what reads now answer.
    expect(new Set(events.map((e) => JSON.stringify(c.pick(e.data)))).size).toBe(N);
    expect(c.pick(events[N - 1].data)).toEqual(await c.current());
  });
});

// ---- count-then-write rules ---------------------------------------------------------------------------------------

describe('rules that count rows hold under parallel requests', () => {
  it(`a project's feature limit: ${N} parallel creates into a project with room for 5 create exactly 5`, async () => {
    await expectOk(app.post(P, { id: 'limited', name: 'Limited', featureLimit: 5 }));
    const since = await lastEventId();
    const replies = await parallel(N, (i) => app.post(`${P}/limited/features`, { name: `limited-${i}` }));
    expect(tally(replies)).toEqual({ 201: 5, '403 InvalidOperationError': N - 5 });
    expect(await countOf('select count(*) as n from features where project = ?', ['limited'])).toBe(5);
    expect((await eventsSince(since)).filter((e) => e.type === 'feature-created')).toHaveLength(5);
  });

  it(`a project keeps one environment: removing all ${N} of its environments in parallel removes all but one`, async () => {
    await expectOk(app.post(P, { id: 'shrinking', name: 'Shrinking' }));
    const linked: string[] = (await app.get(`${P}/shrinking`)).body.environments.map((e: { environment: string }) => e.environment);
    const since = await lastEventId();
    const replies = await parallel(linked.length, (i) => app.del(`${P}/shrinking/environments/${linked[i]}`));
    expect(tally(replies)).toEqual({ 200: linked.length - 1, '400 ValidationError': 1 });
    expect(await countOf('select count(*) as n from project_environments where project_id = ?', ['shrinking'])).toBe(1);
    expect((await eventsSince(since)).filter((e) => e.type === 'project-environment-removed')).toHaveLength(linked.length - 1);
  });

  it('a strategy type cannot be deleted while a strategy that uses it is being added: never a strategy of a deleted type', async () => {
    await expectOk(app.post(`${P}/default/features`, { name: 'uses-doomed' }));
    for (let round = 0; round < 5; round++) {
      const name = `doomed-${round}`;
      await expectOk(app.post(`${A}/strategies`, { name }));
      const [add, remove] = await Promise.all([
        app.post(`${featureEnv('uses-doomed')}/strategies`, { name }),
        app.del(`${A}/strategies/${name}`),
      ]);
      // Either the strategy came first (the delete is refused) or the delete did (the add finds no such type).
      expect([`${add.status}/${remove.status}`]).toEqual([expect.stringMatching(/^200\/403$|^400\/200$/)]);
      const orphans = await countOf(
        'select count(*) as n from feature_strategies fs where not exists (select 1 from strategies s where s.name = fs.strategy_name)', []);
      expect(orphans).toBe(0);
    }
  });
});

// ---- the 409 of every unique index ---------------------------------------------------------------------------------

describe('unique violations', () => {
  it('every unique index of the schema has its words in UNIQUE_KEYS, with the columns the index really has', async () => {
    const indexes: Array<{ name: string; columns: string }> = await app.orm.em.fork().execute(
      `select i.relname as name,
              array_to_string(array(select pg_get_indexdef(ix.indexrelid, k, true) from generate_series(1, ix.indnatts) as k order by k), ', ') as columns
         from pg_index ix
         join pg_class i on i.oid = ix.indexrelid
         join pg_class t on t.oid = ix.indrelid
         join pg_namespace n on n.oid = t.relnamespace
        where ix.indisunique and n.nspname = current_schema() and t.relname <> 'mikro_orm_migrations'
        order by i.relname`);
    expect(indexes.length).toBeGreaterThan(10);
    const missing = indexes.filter((ix) => !UNIQUE_KEYS.has(ix.name)).map((ix) => ix.name);
    expect(missing).toEqual([]);
    for (const ix of indexes) {
      const key = UNIQUE_KEYS.get(ix.name)!;
      if (key.columns.length > 0) expect({ index: ix.name, columns: key.columns.join(', ') }).toEqual({ index: ix.name, columns: ix.columns });
    }
  });

  it('the database\'s own refusal of a duplicate (what a change meets when it loses the race) is a 409 naming what exists, on both doors', async () => {
    let caught: unknown;
    try {
      await app.orm.em.fork().execute(`insert into tag_types (name) values ('simple')`);
    } catch (err) { caught = err; }
    expect(caught).toBeDefined();
    // What node:http's response records (the error answer is written with its calls: src/rest/errors.ts).
    const res: any = { headersSent: false };
    res.setHeader = () => {};
    res.end = (text: string) => { res.body = JSON.parse(text); };
    errorHandler(createLogger('silent'))(caught, { method: 'POST', originalUrl: '/api/admin/tag-types' } as never, res, () => {});
    expect(res.statusCode).toBe(409);
    expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'There already exists a tag-type with the name simple' });
    const masked = maskError(createLogger('silent'))(new GraphQLError('x', { originalError: caught as Error })) as GraphQLError;
    expect(masked.extensions).toMatchObject({ name: 'NameExistsError', code: 409 });
    expect(masked.message).toBe('There already exists a tag-type with the name simple');
  });
});

// ---- what one request read earlier --------------------------------------------------------------------------------

describe('a change starts from the database, not from what its request read before', () => {
  // One request's services share one EntityManager (a GraphQL document runs several mutations through it). Rows that
  // another request changes in between must not come back from its identity map into a read-modify-write: neither
  // into what is written nor into the event, whose data must be the state that now reads back.
  const lastEvent = async (type: string) => (await eventsSince(0)).filter((e) => e.type === type).pop();
  it.each([
    ['context field legal values', async () => {
      await expectOk(app.post(`${A}/context`, { name: 'cachedField' }));
      const services = createServices(app.orm.em.fork(), systemPrincipal);
      await services.contextFields.get('cachedField');
      await expectOk(app.post(`${A}/context/cachedField/legal-values`, { value: 'from-elsewhere' }));
      await services.contextFields.addLegalValue('cachedField', { value: 'mine' });
      const values = (d: any) => d.legalValues.map((v: { value: string }) => v.value).sort();
      return { state: values((await app.get(`${A}/context/cachedField`)).body), event: values((await lastEvent('context-field-updated'))!.data) };
    }, ['from-elsewhere', 'mine']],
    ['tag type', async () => {
      await expectOk(app.post(`${A}/tag-types`, { name: 'cached-type', description: 'start', icon: 'a' }));
      const services = createServices(app.orm.em.fork(), systemPrincipal);
      await services.tags.getTagType('cached-type');
      await expectOk(app.put(`${A}/tag-types/cached-type`, { description: 'from elsewhere' }));
      await services.tags.updateTagType('cached-type', { icon: 'b' });
      return { state: (await app.get(`${A}/tag-types/cached-type`)).body.tagType, event: (await lastEvent('tag-type-updated'))!.data };
    }, { name: 'cached-type', description: 'from elsewhere', icon: 'b' }],
    ['environment', async () => {
      await expectOk(app.post(`${A}/environments`, { name: 'cached-env', type: 'test', sortOrder: 1 }));
      const services = createServices(app.orm.em.fork(), systemPrincipal);
      await services.environments.get('cached-env');
      await expectOk(app.put(`${A}/environments/cached-env`, { type: 'changed-elsewhere' }));
      await services.environments.update('cached-env', { sortOrder: 2 });
      const pick = (e: any) => ({ type: e.type, sortOrder: e.sortOrder });
      return { state: pick((await app.get(`${A}/environments/cached-env`)).body), event: pick((await lastEvent('environment-updated'))!.data) };
    }, { type: 'changed-elsewhere', sortOrder: 2 }],
    ['project', async () => {
      await expectOk(app.post(P, { id: 'cached-project', name: 'Start' }));
      const services = createServices(app.orm.em.fork(), systemPrincipal);
      await services.projects.get('cached-project');
      await expectOk(app.put(`${P}/cached-project/settings`, { mode: 'protected' }));
      await services.projects.update('cached-project', { name: 'Renamed' });
      const pick = (p: any) => ({ name: p.name, mode: p.mode });
      return { state: pick((await app.get(`${P}/cached-project`)).body), event: pick((await lastEvent('project-updated'))!.data) };
    }, { name: 'Renamed', mode: 'protected' }],
  ] as const)('%s', async (_what, run, expected) => {
    expect(await run()).toEqual({ state: expected, event: expected });
  });
});
