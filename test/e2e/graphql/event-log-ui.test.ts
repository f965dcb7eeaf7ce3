import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '../../../src/domain/events/event-types';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * What the web UI's event log (`/history`) needs of the schema: the list of event types for its type filter, and the
 * live stream opened with the session cookie exactly as the graphql-sse client in the browser opens it.
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

async function sessionCookie(username: string): Promise<string> {
  expect((await app.post('/api/admin/user-admin', { username, password: 'Event-Log-Ui-42', rootRole: 'Viewer' })).status).toBe(201);
  const login = await app.post('/auth/simple/login', { username, password: 'Event-Log-Ui-42' }, { token: null });
  expect(login.status).toBe(200);
  return (login.headers.get('set-cookie') ?? '').split(';')[0];
}

describe('Query.eventTypes', () => {
  it('lists every event type of the spec, each one the events filter accepts', async () => {
    const res = await app.post('/graphql', { query: '{ eventTypes }' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.eventTypes).toEqual([...EVENT_TYPES]);
    expect(res.body.data.eventTypes).toContain('feature-environment-enabled');
    // The filter takes them, and REST's search finds the same events for one of them.
    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'ui-types' })).status).toBe(201);
    const gql = await app.post('/graphql', { query: '{ events(filter: { type: "tag-created" }) { nodes { id type } } }' });
    const rest = await app.get('/api/admin/events?type=tag-created');
    expect(gql.body.data.events.nodes.map((e: { id: number }) => e.id)).toEqual(rest.body.events.map((e: { id: number }) => e.id));
    expect(gql.body.data.events.nodes.length).toBeGreaterThan(0);
  });

  it('needs no permission beyond signing in: a Viewer reads it, nobody signed out does', async () => {
    const cookie = await sessionCookie('types-viewer');
    const viewer = await app.post('/graphql', { query: '{ eventTypes }' }, { token: null, headers: { cookie } });
    expect(viewer.body.data.eventTypes).toHaveLength(EVENT_TYPES.length);
    expect((await app.post('/graphql', { query: '{ eventTypes }' }, { token: null })).status).toBe(401);
  });
});

describe('Subscription.events with the session cookie', () => {
  it('streams to a cookie session that posts JSON as graphql-sse does, and refuses one that does not declare JSON', async () => {
    const cookie = await sessionCookie('stream-viewer');
    const controller = new AbortController();
    const body = JSON.stringify({ query: 'subscription UiLive($filter: EventStreamFilter) { events(filter: $filter) { id type featureName } }', variables: { filter: { types: ['tag-created'] } } });
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { cookie, accept: 'text/event-stream', 'content-type': 'application/json; charset=utf-8' },
      body,
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const got = (async () => {
      while (!/event: next\ndata: .*tag-created/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    })();
    // Give the subscription a moment to start listening, then cause an event.
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'stream-cookie' })).status).toBe(201);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([got, new Promise((r) => { timer = setTimeout(r, 5000); })]);
    clearTimeout(timer);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).toMatch(/"type":"tag-created"/);
    controller.abort();
    await got.catch(() => undefined);

    // Without the JSON content type a cookie-authenticated POST is refused (the CSRF guard), before any stream opens.
    const plain = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { cookie, accept: 'text/event-stream', 'content-type': 'text/plain' }, body });
    expect(plain.status).toBe(403);
    await plain.body?.cancel();
  });
});
