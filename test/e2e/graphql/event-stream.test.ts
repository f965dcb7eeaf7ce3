import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { parse, validate } from 'graphql';
import { openStreamCount } from '../../../src/domain/events/event-stream';
import { buildSchema } from '../../../src/resolvers';
import { NESTED_LIST_MULTIPLIER, WEIGHTS } from '../../../src/resolvers/cost';
import { costRule, DEFAULT_MAX_COST } from '../../../src/resolvers/limits';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../support/harness';
import { describeWhen, NEEDS_POSTGRES, onPostgres } from '../../support/skip';

/**
 * Issue 11 part 6: the live event stream, `subscription { events(filter) }` over server-sent events. A subscriber
 * gets each audit event committed after it subscribed that matches its filter, once; bad filters are refused like any
 * bad input; a client that goes away stops being listened for.
 */
const MAX_STREAMS = 8;
let app: TestApp;
beforeAll(async () => { app = await startTestApp({ streamLimits: { maxStreams: MAX_STREAMS, maxBacklog: 1000 } }); });
afterAll(async () => { await app.close(); });

interface Message {
  event: string;
  data: any;
}

interface Stream {
  status: number;
  contentType: string | null;
  /** The next `next`/`complete` message, or undefined when none came within `ms`. */
  message(ms?: number): Promise<Message | undefined>;
  /** Every message that arrives within `ms`. */
  messagesWithin(ms: number): Promise<Message[]>;
  /** The client goes away. */
  close(): void;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
}

const until = async (check: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
};

const open: Stream[] = [];
/** Every app instance of this file (the notify-mode test starts two more). */
const instances: TestApp[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  // The server notices each disconnection a moment later.
  expect(await until(() => [app, ...instances].every((a) => openStreamCount(a.eventHub) === 0))).toBe(true);
});

const STREAM_QUERY = 'subscription Follow($filter: EventStreamFilter) { events(filter: $filter) { id type createdBy createdByUserId project environment featureName data preData tags { type value } createdAt } }';

/** POST /graphql with `Accept: text/event-stream`, read as server-sent events (comments, the keep-alive pings, skipped). */
async function openStream(target: TestApp, variables: Record<string, unknown> = {}, options: { token?: string | null; query?: string; method?: 'GET' | 'POST' } = {}): Promise<Stream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  if (token !== null) headers.authorization = token;
  const query = options.query ?? STREAM_QUERY;
  const res = options.method === 'GET'
    ? await fetch(`${target.url}/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`, { headers, signal: controller.signal })
    : await fetch(`${target.url}/graphql`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }), signal: controller.signal,
    });
  const queue: Message[] = [];
  const waiting: Array<() => void> = [];
  const wake = () => { for (const w of waiting.splice(0)) w(); };
  const ended = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (event === 'message' && data.length === 0) continue; // a ping
          const text = data.join('\n');
          queue.push({ event, data: text ? JSON.parse(text) : null });
          wake();
        }
      }
    } catch {
      // aborted by the client
    } finally {
      wake();
    }
  })();
  let finished = false;
  void ended.then(() => { finished = true; wake(); });
  const message = async (ms = 5000): Promise<Message | undefined> => {
    const deadline = Date.now() + ms;
    while (queue.length === 0 && !finished && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        waiting.push(() => { clearTimeout(timer); resolve(); });
      });
    }
    return queue.shift();
  };
  const stream: Stream = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    message,
    async messagesWithin(ms) {
      await new Promise((r) => setTimeout(r, ms));
      return queue.splice(0);
    },
    close: () => controller.abort(),
    ended,
  };
  open.push(stream);
  return stream;
}


describe('Subscription.events over server-sent events', () => {
  it('delivers an event caused by a REST call made after subscribing, with its fields', async () => {
    const stream = await openStream(app, { filter: { types: ['tag-created'] } });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);

    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'streamed' })).status).toBe(201);
    const msg = await stream.message();
    expect(msg?.event).toBe('next');
    expect(msg?.data.errors).toBeUndefined();
    const event = msg!.data.data.events;
    const [stored] = await app.events('tag-created');
    expect(event).toEqual({
      id: stored.id, type: 'tag-created', createdBy: 'admin', createdByUserId: stored.createdByUserId,
      project: null, environment: null, featureName: null,
      data: { type: 'simple', value: 'streamed' }, preData: null, tags: [], createdAt: stored.createdAt,
    });
    // Exactly once.
    expect(await stream.messagesWithin(300)).toEqual([]);
  });

  it('a filter that does not match gets nothing while a matching one gets the event', async () => {
    const byProject = await openStream(app, { filter: { project: 'default' } });
    const byFeature = await openStream(app, { filter: { project: 'default', feature: 'stream-f', types: ['feature-created'] } });
    const otherType = await openStream(app, { filter: { types: ['segment-created', 'tag-deleted'] } });
    const otherProject = await openStream(app, { filter: { project: 'elsewhere' } });
    const otherFeature = await openStream(app, { filter: { feature: 'some-other-feature' } });
    const everything = await openStream(app, {});

    expect((await app.post('/api/admin/projects/default/features', { name: 'stream-f' })).status).toBe(201);
    for (const s of [byProject, byFeature, everything]) {
      const msg = await s.message();
      expect(msg?.event).toBe('next');
      expect(msg?.data.data.events).toMatchObject({ type: 'feature-created', project: 'default', featureName: 'stream-f' });
    }
    for (const s of [otherType, otherProject, otherFeature]) expect(await s.messagesWithin(300)).toEqual([]);
  });

  it('events of one transaction arrive in commit order', async () => {
    const stream = await openStream(app, { filter: { project: 'default', feature: 'stream-order' } });
    expect((await app.post('/api/admin/projects/default/features', { name: 'stream-order' })).status).toBe(201);
    expect((await app.post('/api/admin/projects/default/features/stream-order/environments/development/on')).status).toBe(200);
    expect((await app.post('/api/admin/projects/default/features/stream-order/environments/development/off')).status).toBe(200);
    const types: string[] = [];
    const ids: number[] = [];
    for (;;) {
      const msg = await stream.message(1000);
      if (!msg) break;
      types.push(msg.data.data.events.type);
      ids.push(msg.data.data.events.id);
    }
    expect(types[0]).toBe('feature-created');
    expect(types.filter((t) => t.startsWith('feature-environment-'))).toEqual(['feature-environment-enabled', 'feature-environment-disabled']);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('works over GET as well (what EventSource sends), with the variables as a query parameter', async () => {
    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'by-get' })).status).toBe(201);
    const stream = await openStream(app, { filter: { types: ['tag-deleted'] } }, { method: 'GET' });
    expect(stream.status).toBe(200);
    expect((await app.del('/api/admin/tags/simple/by-get')).status).toBe(200);
    expect((await stream.message())?.data.data.events).toMatchObject({ type: 'tag-deleted', data: null, preData: { type: 'simple', value: 'by-get' } });
  });

  it('a rolled-back change announces nothing', async () => {
    const stream = await openStream(app, { filter: { types: ['tag-created'] } });
    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'streamed' })).status).toBe(409);
    expect(await stream.messagesWithin(300)).toEqual([]);
  });

  it('the client going away removes its listener from the hub', async () => {
    const before = app.eventHub.listenerCount;
    const streams = await Promise.all([openStream(app, { filter: { types: ['tag-created'] } }), openStream(app, { filter: { project: 'nothing-here' } })]);
    expect(app.eventHub.listenerCount).toBe(before + 2);
    streams[0].close();
    expect(await until(() => app.eventHub.listenerCount === before + 1)).toBe(true);
    streams[1].close();
    expect(await until(() => app.eventHub.listenerCount === before)).toBe(true);
    // And the hub goes on serving the others.
    const live = await openStream(app, { filter: { types: ['tag-created'] } });
    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'after-disconnect' })).status).toBe(201);
    expect((await live.message())?.data.data.events.data).toEqual({ type: 'simple', value: 'after-disconnect' });
  });
});

describe('refused subscriptions', () => {
  it('without a token: 401 AuthenticationRequired, nothing subscribed', async () => {
    const before = app.eventHub.listenerCount;
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query: STREAM_QUERY }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].extensions).toMatchObject({ name: 'AuthenticationRequired', code: 401 });
    expect(app.eventHub.listenerCount).toBe(before);
  });

  it('an unknown event type: a ValidationError naming it, as a 400, and the stream ends', async () => {
    const before = app.eventHub.listenerCount;
    const stream = await openStream(app, { filter: { types: ['tag-created', 'no-such-event'] } });
    expect(stream.status).toBe(400);
    const msg = await stream.message();
    expect(msg?.event).toBe('next');
    expect(msg?.data.data ?? null).toBeNull();
    expect(msg?.data.errors[0].extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'types/1', message: expect.stringContaining('`no-such-event` is not an event type') }] });
    expect((await stream.message())?.event).toBe('complete');
    expect(app.eventHub.listenerCount).toBe(before);
  });

  it('bounded and well-formed filters: empty or overlong lists, empty names, lone surrogates, wrong types', async () => {
    const refused = async (filter: unknown) => {
      const stream = await openStream(app, { filter });
      const msg = await stream.message();
      expect(stream.status).toBe(400);
      expect(msg?.data.errors[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
      return msg!.data.errors[0].extensions.details[0].path as string;
    };
    expect(await refused({ types: [] })).toBe('types');
    expect(await refused({ types: Array.from({ length: 500 }, () => 'tag-created') })).toBe('types');
    expect(await refused({ project: '' })).toBe('project');
    expect(await refused({ feature: 'x'.repeat(1001) })).toBe('feature');
    expect(await refused({ types: 'tag-created', project: 5 })).toBe('filter/project');
    // A lone surrogate in a variable: the door refuses the body before GraphQL runs.
    const res = await app.post('/graphql', undefined, {
      headers: { accept: 'text/event-stream' },
      raw: `{"query": ${JSON.stringify(STREAM_QUERY)}, "variables": {"filter": {"project": "\\ud800"}}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ name: 'ValidationError', details: [{ path: 'variables/filter/project' }] });
  });

  it('a subscription selects one root field', async () => {
    const two = await openStream(app, {}, { query: 'subscription { a: events { id } b: events { id } }' });
    expect(two.status).toBe(400);
    const msg = await two.message();
    expect(msg?.data.errors[0]).toMatchObject({ message: expect.stringContaining('must select only one top level field'), extensions: { name: 'ValidationError', code: 400 } });
  });

  it('costs WEIGHTS.eventStream plus its selection (id and type nothing, tags one per expected item), within the request budget', () => {
    const doc = parse('subscription { events { id type tags { type } } }');
    const measure = (maxCost: number) => validate(buildSchema(), doc, [costRule({ context: {} }, { maxCost })]).map((e) => e.message);
    expect(measure(WEIGHTS.eventStream)).toEqual([expect.stringMatching(new RegExp(`^The operation costs ${WEIGHTS.eventStream + NESTED_LIST_MULTIPLIER}, over the budget`))]);
    expect(measure(DEFAULT_MAX_COST)).toEqual([]);
  });
});

// The suite runs against real PostgreSQL too (DATABASE_URL): there, instances learn of each other's commits through
// LISTEN/NOTIFY, as src/server.ts sets them up. The embedded database serves one connection: one instance only.
describeWhen(onPostgres, NEEDS_POSTGRES)('several instances on one PostgreSQL database (notify mode)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ events: 'notify', reset: false });
    b = await startTestApp({ events: 'notify', reset: false });
    instances.push(a, b);
  });
  afterAll(async () => {
    instances.length = 0;
    await Promise.all([a?.close(), b?.close()]);
  });

  it('a subscriber on instance B gets the event of a REST call to instance A, once; so does one on A', async () => {
    const onB = await openStream(b, { filter: { types: ['tag-created'] } });
    const onA = await openStream(a, { filter: { types: ['tag-created'] } });
    const otherOnB = await openStream(b, { filter: { types: ['tag-deleted'] } });
    expect(a.eventHub.mode).toBe('notify');

    const created = await a.post('/api/admin/tags', { type: 'simple', value: 'across-instances' });
    expect(created.status).toBe(201);
    const [stored] = await a.events('tag-created');
    for (const s of [onB, onA]) {
      const msg = await s.message();
      expect(msg?.event).toBe('next');
      expect(msg?.data.data.events).toMatchObject({ id: stored.id, type: 'tag-created', data: { type: 'simple', value: 'across-instances' } });
    }
    // Once each, and nothing for the filter that does not match.
    const [restB, restA, other] = await Promise.all([onB.messagesWithin(500), onA.messagesWithin(500), otherOnB.messagesWithin(500)]);
    expect([restB, restA, other]).toEqual([[], [], []]);
  });

  it('a rolled-back change on A announces nothing on B', async () => {
    const onB = await openStream(b, { filter: { types: ['tag-created'] } });
    expect((await a.post('/api/admin/tags', { type: 'simple', value: 'across-instances' })).status).toBe(409);
    expect(await onB.messagesWithin(500)).toEqual([]);
  });
});

describe('limits and the end', () => {
  it('refuses more streams than the instance allows, with a TooManyRequestsError', async () => {
    expect(await until(() => openStreamCount(app.eventHub) === 0)).toBe(true);
    for (let i = 0; i < MAX_STREAMS; i++) expect((await openStream(app, {})).status).toBe(200);
    const refused = await openStream(app, {});
    expect((await refused.message())?.data.errors[0].extensions).toMatchObject({ name: 'TooManyRequestsError', code: 429 });
    expect(openStreamCount(app.eventHub)).toBe(MAX_STREAMS);
    for (const s of open.splice(0)) s.close();
    expect(await until(() => openStreamCount(app.eventHub) === 0)).toBe(true);
    expect((await openStream(app, {})).status).toBe(200);
  });

  // Last: it closes the suite's hub.
  it('the hub closing (the service stopping) ends every stream with `complete`', async () => {
    expect(await until(() => openStreamCount(app.eventHub) === 0)).toBe(true);
    const before = app.eventHub.listenerCount;
    const streams = await Promise.all([openStream(app, { filter: { types: ['tag-created'] } }), openStream(app, {})]);
    expect(app.eventHub.listenerCount).toBe(before + 2);
    app.eventHub.close();
    for (const stream of streams) {
      expect((await stream.message())?.event).toBe('complete');
      await stream.ended;
    }
    expect(app.eventHub.listenerCount).toBe(0);
    // A subscription that arrives while the service stops ends at once.
    const late = await openStream(app, {});
    expect(late.status).toBe(200);
    expect((await late.message())?.event).toBe('complete');
  });
});
