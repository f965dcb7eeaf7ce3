import { describe, expect, it } from '@jest/globals';
import { parse, subscribe, type ExecutionResult } from 'graphql';
import { TooManyRequestsError } from '../../src/domain/errors';
import { EventHub } from '../../src/domain/events/event-hub';
import { EventStream, openStreamCount } from '../../src/domain/events/event-stream';
import type { AuditEvent } from '../../src/domain/events/event.shapes';
import { buildSchema } from '../../src/resolvers';

let nextId = 1;
const event = (type: string, more: Partial<AuditEvent> = {}): AuditEvent => ({
  id: nextId++, type, createdAt: new Date(0).toISOString(), createdBy: 'admin', createdByUserId: -1337,
  project: null, environment: null, featureName: null, data: null, preData: null, tags: [], ...more,
});
const publish = (hub: EventHub, ...events: AuditEvent[]) => hub.publish({ events });

/** Everything a stream holds now, without waiting: the items, and whether it ended. */
async function drain(stream: EventStream): Promise<{ items: unknown[]; ended: boolean }> {
  const items: unknown[] = [];
  for (;;) {
    const next = await Promise.race([stream.next(), new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);
    if (next === 'pending') return { items, ended: false };
    if (next.done) return { items, ended: true };
    items.push(next.value);
  }
}

describe('EventStream', () => {
  it('passes on the matching events of each commit, in order', async () => {
    const hub = new EventHub('local');
    const stream = new EventStream(hub, { types: ['tag-created', 'feature-created'], project: 'default' });
    const a = event('feature-created', { project: 'default' });
    const b = event('feature-created', { project: 'other' });
    const c = event('tag-deleted', { project: 'default' });
    const d = event('tag-created', { project: 'default' });
    publish(hub, a, b);
    publish(hub, c, d);
    expect((await drain(stream)).items).toEqual([a, d]);
    await stream.return();
  });

  it('a pending next() gets the next event, and return() ends it at once', async () => {
    const hub = new EventHub('local');
    const stream = new EventStream(hub, { feature: 'f' });
    const first = stream.next();
    const e = event('feature-updated', { featureName: 'f' });
    publish(hub, e);
    expect(await first).toEqual({ value: e, done: false });
    const pending = stream.next();
    expect(hub.listenerCount).toBe(1);
    await stream.return();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(hub.listenerCount).toBe(0);
    expect(openStreamCount(hub)).toBe(0);
  });

  it('a reader more than maxBacklog behind gets what was kept, then the error, then the end; the hub forgets it', async () => {
    const hub = new EventHub('local', { maxStreams: 10, maxBacklog: 3 });
    const stream = new EventStream(hub, {});
    const events = Array.from({ length: 5 }, () => event('tag-created'));
    publish(hub, ...events);
    expect(hub.listenerCount).toBe(0);
    expect(openStreamCount(hub)).toBe(0);
    publish(hub, event('tag-created')); // not kept: it no longer listens
    const { items, ended } = await drain(stream);
    expect(ended).toBe(true);
    expect(items.slice(0, 3)).toEqual(events.slice(0, 3));
    expect(items).toHaveLength(4);
    expect(items[3]).toBeInstanceOf(TooManyRequestsError);
    expect((items[3] as Error).message).toContain('fell more than 3 events behind');
  });

  it('at most maxStreams at once per hub; a slot is free again once a stream ends', async () => {
    const hub = new EventHub('local', { maxStreams: 2, maxBacklog: 10 });
    const one = new EventStream(hub, {});
    new EventStream(hub, {});
    expect(() => new EventStream(hub, {})).toThrow(TooManyRequestsError);
    expect(openStreamCount(hub)).toBe(2);
    await one.return();
    expect(() => new EventStream(hub, {})).not.toThrow();
    // Another hub (another app instance) counts its own.
    expect(() => new EventStream(new EventHub('local', { maxStreams: 2, maxBacklog: 10 }), {})).not.toThrow();
  });

  it('the hub closing ends every stream after what it holds; a stream opened afterwards ends at once', async () => {
    const hub = new EventHub('local');
    const quiet = new EventStream(hub, { types: ['segment-created'] });
    const waiting = quiet.next();
    const busy = new EventStream(hub, {});
    const e = event('tag-created');
    publish(hub, e);
    hub.close();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(await drain(busy)).toEqual({ items: [e], ended: true });
    expect(hub.listenerCount).toBe(0);
    expect(openStreamCount(hub)).toBe(0);
    const late = new EventStream(hub, {});
    expect(await drain(late)).toEqual({ items: [], ended: true });
    expect(openStreamCount(hub)).toBe(0);
  });

  it('an aborted signal ends the stream', async () => {
    const hub = new EventHub('local');
    const controller = new AbortController();
    const stream = new EventStream(hub, {}, controller.signal);
    const pending = stream.next();
    controller.abort();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(hub.listenerCount).toBe(0);
    const already = new EventStream(hub, {}, controller.signal);
    expect(await already.next()).toEqual({ value: undefined, done: true });
    expect(openStreamCount(hub)).toBe(0);
  });
});

describe('Subscription.events', () => {
  it('sends a stream\'s error as one last result (the field fails, with the error), then ends', async () => {
    const hub = new EventHub('local', { maxStreams: 10, maxBacklog: 2 });
    const context = { services: { events: { stream: () => new EventStream(hub, {}) } } };
    const result = await subscribe({ schema: buildSchema(), document: parse('subscription { events { id type } }'), contextValue: context });
    const iterator = result as AsyncIterableIterator<ExecutionResult>;
    const events = Array.from({ length: 3 }, () => event('tag-created'));
    publish(hub, ...events);
    const results: ExecutionResult[] = [];
    for await (const r of iterator) results.push(r);
    expect(results.slice(0, 2).map((r) => r.data)).toEqual(events.slice(0, 2).map((e) => ({ events: { id: e.id, type: e.type } })));
    expect(results).toHaveLength(3);
    expect(results[2].data).toBeNull();
    expect(results[2].errors?.[0].originalError).toBeInstanceOf(TooManyRequestsError);
    expect(results[2].errors?.[0].path).toEqual(['events']);
  });
});
