import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Principal } from '../../../src/domain/access/principal';
import { EventHub } from '../../../src/domain/events/event-hub';
import { SnapshotCache } from '../../../src/domain/playground/snapshot-cache';
import { createLogger } from '../../../src/logger';
import { errorHandler } from '../../../src/rest/errors';
import { clientFeaturesRouter } from '../../../src/rest/sdk/client-features.routes';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';
import { openSse } from '../../support/sse';

/**
 * Issue 32: the client API's deltas. `GET /api/client/delta` (delta polls) and `GET /api/client/streaming` send a
 * hydration, then only the flags and segments that changed since the client's revision, filtered by what its token
 * sees; a stream resumes from `Last-Event-ID`; a revision the log no longer keeps gets a hydration; a change made
 * through one instance reaches another's streams as a delta.
 */
let app: TestApp;
let all = '';
let alphaOnly = '';
let segmentId = 0;
const SPEC = { 'unleash-client-spec': '5.2.0' };
const featurePath = (project: string, name: string) => `/api/admin/projects/${project}/features/${name}`;
const envPath = (project: string, name: string) => `${featurePath(project, name)}/environments/development`;

const ok = async <T = any>(reply: Promise<Reply<T>>, status = 200): Promise<T> => {
  const res = await reply;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

/** A delta poll: status, ETag and body. */
async function poll(token: string, etag?: string, base = app) {
  const res = await base.get('/api/client/delta', { token, headers: { ...SPEC, ...(etag ? { 'if-none-match': etag } : {}) } });
  return { status: res.status, etag: res.headers.get('etag') ?? '', body: res.body };
}

/** What each delta event says, in a comparable form. */
const summary = (events: any[]) => events.map((e) => {
  switch (e.type) {
    case 'feature-updated': return [e.type, e.feature.name, e.feature.enabled];
    case 'feature-removed': return [e.type, e.featureName, e.project];
    case 'segment-updated': return [e.type, e.segment.id, e.segment.constraints.length];
    case 'segment-removed': return [e.type, e.segmentId];
    default: return [e.type];
  }
});

const stream = (token: string, headers: Record<string, string> = {}, base: { url: string } = app) =>
  openSse(`${base.url}/api/client/streaming`, { authorization: token, ...SPEC, ...headers });

beforeAll(async () => {
  app = await startTestApp();
  for (const id of ['alpha', 'beta']) await ok(app.post('/api/admin/projects', { id, name: id }), 201);
  segmentId = (await ok(app.post('/api/admin/segments', { name: 'ops', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }] }), 201)).id;
  for (const [project, name] of [['alpha', 'a1'], ['alpha', 'a2'], ['beta', 'b1']]) {
    await ok(app.post(`/api/admin/projects/${project}/features`, { name }), 201);
    await ok(app.post(`${envPath(project, name)}/strategies`, { name: 'default', ...(name === 'a1' ? { segments: [segmentId] } : {}) }));
  }
  const token = async (projects: string[]) => (await ok(app.post('/api/admin/api-tokens', { tokenName: `t-${projects.join('-')}`, type: 'client', environment: 'development', projects }), 201)).secret;
  all = await token(['*']);
  alphaOnly = await token(['alpha']);
});
afterAll(async () => { await app.close(); });

describe('GET /api/client/delta', () => {
  it('gives a hydration with its revision as ETag, then 304 until something the token sees changes, then only that', async () => {
    const first = await poll(all);
    expect(first.status).toBe(200);
    const features = await app.get('/api/client/features', { token: all, headers: SPEC });
    expect(first.body.events).toHaveLength(1);
    const [hydration] = first.body.events;
    expect([hydration.type, hydration.features, hydration.segments]).toEqual(['hydration', features.body.features, features.body.segments]);
    expect(first.etag).toMatch(new RegExp(`^"${hydration.eventId}:`));
    expect((await poll(all, first.etag)).status).toBe(304);

    await ok(app.post(`${envPath('alpha', 'a1')}/on`));
    const alpha = await poll(alphaOnly);
    const changed = await poll(all, first.etag);
    // A poller's segments are not known: a changed flag comes with the segments it uses.
    expect([changed.status, summary(changed.body.events)]).toEqual([200, [['segment-updated', segmentId, 1], ['feature-updated', 'a1', true]]]);
    expect(changed.body.events[1].eventId).toBeGreaterThan(hydration.eventId);
    expect(changed.body.events[1].feature).toEqual((await app.get('/api/client/features/a1', { token: all, headers: SPEC })).body);
    expect((await poll(all, changed.etag)).status).toBe(304);

    // A change of a project the token does not see: 304 for it, the flag for the other.
    await ok(app.post(`${envPath('beta', 'b1')}/on`));
    expect((await poll(alphaOnly, alpha.etag)).status).toBe(304);
    const beta = await poll(all, changed.etag);
    expect(summary(beta.body.events)).toEqual([['feature-updated', 'b1', true]]);

    // Archived: removed; revived: back (off, as a revived flag is).
    await ok(app.del(featurePath('alpha', 'a2')), 202);
    const archived = await poll(alphaOnly, alpha.etag);
    expect(summary(archived.body.events)).toEqual([['feature-removed', 'a2', 'alpha']]);
    await ok(app.post('/api/admin/projects/alpha/revive', { features: ['a2'] }));
    const revived = await poll(alphaOnly, archived.etag);
    expect(summary(revived.body.events)).toEqual([['feature-updated', 'a2', false]]);
    // Both changes at once from before them: the flag as it is now.
    expect(summary((await poll(alphaOnly, alpha.etag)).body.events)).toEqual([['feature-updated', 'a2', false]]);

    // A segment the token's flags use: the segment alone.
    await ok(app.put(`/api/admin/segments/${segmentId}`, { name: 'ops', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }, { contextName: 'appName', operator: 'IN', values: ['x'] }] }), 204);
    const segment = await poll(alphaOnly, revived.etag);
    expect(summary(segment.body.events)).toEqual([['segment-updated', segmentId, 2]]);
  });

  it('answers a hydration for an ETag of another scope, one that is not a revision, or one from the future', async () => {
    const alpha = await poll(alphaOnly);
    for (const etag of [alpha.etag, '"abc"', '"99999999:x"']) {
      const res = await poll(all, etag);
      expect([etag, res.status, res.body.events.map((e: any) => e.type)]).toEqual([etag, 200, ['hydration']]);
    }
  });

  it('takes the same filters and token rules as /api/client/features', async () => {
    const prefixed = await app.get('/api/client/delta?namePrefix=a', { token: all, headers: SPEC });
    expect(prefixed.body.events[0].features.map((f: any) => f.name)).toEqual(['a1', 'a2']);
    const bad = await app.get('/api/client/delta?tag=nocolon', { token: all });
    expect([bad.status, bad.body.name]).toEqual([400, 'ValidationError']);
    const frontend = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'delta-frontend', type: 'frontend', environment: 'development', projects: ['*'] }), 201)).secret;
    expect((await app.get('/api/client/delta', { token: frontend })).status).toBe(403);
    expect((await app.get('/api/client/delta', { token: null })).status).toBe(401);
  });
});

describe('GET /api/client/streaming in the delta form', () => {
  it('resumes from Last-Event-ID with only what it missed, that its token sees; nothing when it is current', async () => {
    const first = await stream(alphaOnly);
    const connected = await first.expectEvent();
    expect([connected.event, connected.data.events.map((e: any) => e.type)]).toEqual(['unleash-connected', ['hydration']]);
    first.close();

    await ok(app.post(`${envPath('alpha', 'a1')}/off`));
    await ok(app.post(`${envPath('beta', 'b1')}/off`));
    const resumed = await stream(alphaOnly, { 'last-event-id': connected.id! });
    const missed = await resumed.expectEvent();
    expect([missed.event, summary(missed.data.events)]).toEqual(['unleash-updated', [['segment-updated', segmentId, 2], ['feature-updated', 'a1', false]]]);
    expect(Number(missed.id)).toBeGreaterThan(Number(connected.id));
    resumed.close();

    const current = await stream(alphaOnly, { 'last-event-id': missed.id! });
    try {
      expect(await current.next(700)).toBe('timeout');
      await ok(app.post(`${envPath('beta', 'b1')}/on`)); // not its project
      expect(await current.next(900)).toBe('timeout');
      await ok(app.post(`${envPath('alpha', 'a2')}/on`));
      const next = await current.expectEvent(2000);
      expect(summary(next.data.events)).toEqual([['feature-updated', 'a2', true]]);
    } finally {
      current.close();
    }
  });

  it('sends a hydration for a Last-Event-ID that is not a revision', async () => {
    const s = await stream(all, { 'last-event-id': '"an-etag-of-before"' });
    try {
      const event = await s.expectEvent();
      expect([event.event, event.data.events.map((e: any) => e.type)]).toEqual(['unleash-connected', ['hydration']]);
    } finally {
      s.close();
    }
  });

  it('one flag switched among many: one small event per stream, the same to every stream of a scope', async () => {
    for (let i = 0; i < 60; i += 1) await ok(app.post('/api/admin/projects/beta/features', { name: `bulk-${i}`, description: 'x'.repeat(100) }), 201);
    const streams = await Promise.all([stream(all), stream(all), stream(alphaOnly)]);
    try {
      for (const s of streams) await s.expectEvent();
      await ok(app.post(`${envPath('beta', 'bulk-7')}/on`));
      const [one, two] = await Promise.all([streams[0].next(2000), streams[1].next(2000)]);
      if (typeof one === 'string' || typeof two === 'string') throw new Error('no delta');
      expect(one).toEqual(two);
      expect(Buffer.byteLength(one.data!)).toBeLessThan(1024);
      expect(summary(JSON.parse(one.data!).events)).toEqual([['feature-updated', 'bulk-7', true]]);
      expect(await streams[2].next(900)).toBe('timeout');
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('a change made through another instance reaches this one\'s streams as a delta, and a stream resumes on it from the other\'s revision', async () => {
    // A second instance in all but the process: its own client door (answer cache, streams) on the same database,
    // and its own event hub, which hears nothing of the first's commits: only its poll of model_version finds them.
    const other = await secondInstance();
    try {
      const here = await stream(all, {}, other);
      const connected = await here.expectEvent();
      await ok(app.put(featurePath('alpha', 'a1'), { description: 'through the first instance' }));
      const delta = await here.expectEvent(2000);
      expect(delta.data.events.map((e: any) => [e.type, e.feature?.name, e.feature?.description])).toEqual([['feature-updated', 'a1', 'through the first instance']]);
      here.close();

      const onFirst = await stream(all);
      const firstId = (await onFirst.expectEvent()).id!;
      onFirst.close();
      await ok(app.put(featurePath('beta', 'b1'), { description: 'while away' }));
      const resumed = await stream(all, { 'last-event-id': firstId }, other);
      const missed = await resumed.expectEvent(2000);
      expect([missed.event, missed.data.events.map((e: any) => [e.type, e.feature?.name])]).toEqual(['unleash-updated', [['feature-updated', 'b1']]]);
      expect(Number(missed.id)).toBeGreaterThan(Number(connected.id));
      resumed.close();
    } finally {
      await other.close();
    }
  });
});

/** The client API's routes served by a door of their own (see the test above), behind an admin token's principal. */
async function secondInstance(): Promise<{ url: string; close(): Promise<void> }> {
  const hub = new EventHub('local');
  const principal: Principal = { kind: 'api-token', name: 'second', userId: null, isAdmin: true, rootRoleId: null, tokenType: 'client', tokenProjects: ['*'], tokenEnvironment: 'development' };
  const mini = express();
  mini.use('/api/client', (req, _res, next) => { (req as any).scope = { principal }; next(); },
    clientFeaturesRouter({ orm: app.orm, logger: createLogger('silent'), eventHub: hub, playgroundCache: new SnapshotCache(), metricsFlushMs: 5000, metricsRetentionHours: 48 },
      { streaming: { pollMs: 200 } }));
  mini.use(errorHandler(createLogger('silent')));
  const server: Server = await new Promise((resolve) => { const s = mini.listen(0, '127.0.0.1', () => resolve(s)); });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      hub.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('segments in deltas', () => {
  it('a segment no flag the client sees uses any more is removed, on a stream and on a poll; used again, it is sent again', async () => {
    const other = (await ok(app.post('/api/admin/segments', { name: 'lonely', constraints: [{ contextName: 'userId', operator: 'IN', values: ['z'] }] }), 201)).id;
    await ok(app.post('/api/admin/projects/alpha/features', { name: 'seg-user' }), 201);
    const strategy = await ok(app.post(`${envPath('alpha', 'seg-user')}/strategies`, { name: 'default', segments: [other] }));
    const live = await stream(alphaOnly);
    const polled = await poll(alphaOnly);
    try {
      const [hydration] = (await live.expectEvent()).data.events;
      expect(hydration.segments.map((s: any) => s.id)).toContain(other);
      // Its only user drops it.
      await ok(app.put(`${envPath('alpha', 'seg-user')}/strategies/${strategy.id}`, { name: 'default', segments: [] }));
      const dropped = await live.expectEvent(2000);
      expect(summary(dropped.data.events)).toEqual([['feature-updated', 'seg-user', false], ['segment-removed', other]]);
      const afterPoll = await poll(alphaOnly, polled.etag);
      expect(summary(afterPoll.body.events)).toEqual([['feature-updated', 'seg-user', false], ['segment-removed', other]]);
      // Used again: sent before the flag that uses it.
      await ok(app.put(`${envPath('alpha', 'seg-user')}/strategies/${strategy.id}`, { name: 'default', segments: [other] }));
      const back = await live.expectEvent(2000);
      expect(summary(back.data.events)).toEqual([['segment-updated', other, 1], ['feature-updated', 'seg-user', false]]);
      // Archived: the flag and its segment go.
      await ok(app.del(featurePath('alpha', 'seg-user')), 202);
      const archived = await live.expectEvent(2000);
      expect(summary(archived.data.events)).toEqual([['feature-removed', 'seg-user', 'alpha'], ['segment-removed', other]]);
      expect(summary((await poll(alphaOnly, afterPoll.etag)).body.events)).toEqual([['feature-removed', 'seg-user', 'alpha'], ['segment-removed', other]]);
    } finally {
      live.close();
    }
  });
});

describe('the revision log', () => {
  const count = async () => Number((await app.orm.em.fork().execute(`select count(*) as n from client_changes`))[0].n);

  it('records nothing for a rolled-back change, and keeps what it must for a committed one', async () => {
    const before = await count();
    await expect(app.orm.em.fork().transactional(async (tx) => {
      await tx.execute(`update features set description = 'rolled back' where name = 'a1'`);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await count()).toBe(before);
    const s = await poll(all);
    // The hydration is large enough to go out gzipped, with the ETag of that representation: it names the revision too.
    expect(s.etag).toMatch(/-gzip"$/);
    await app.orm.em.fork().execute(`update features set description = 'by hand' where name = 'a2'`);
    const delta = await poll(all, s.etag);
    expect(delta.body.events.map((e: any) => [e.type, e.feature?.description])).toEqual([['feature-updated', 'by hand']]);
  });

  it('a revision older than the log keeps is answered with a hydration, on polls and on streams', async () => {
    const polled = await poll(all);
    const live = await stream(all);
    const liveId = (await live.expectEvent()).id!;
    live.close();
    await ok(app.post(`${envPath('alpha', 'a1')}/on`));
    // What the service does every 256 revisions, as if 10,000 more had passed since.
    const [{ version }] = await app.orm.em.fork().execute(`select version from model_version`);
    await app.orm.em.fork().execute(`select client_revisions_prune(?::bigint + 10000)`, [version]);
    expect((await poll(all, polled.etag)).body.events.map((e: any) => e.type)).toEqual(['hydration']);
    const resumed = await stream(all, { 'last-event-id': liveId });
    try {
      const event = await resumed.expectEvent();
      expect([event.event, event.data.events.map((e: any) => e.type)]).toEqual(['unleash-connected', ['hydration']]);
    } finally {
      resumed.close();
    }
    expect(await count()).toBe(0);
  });
});
