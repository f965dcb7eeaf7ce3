import { describe, expect, it } from '@jest/globals';
import { parse } from 'graphql';
import { buildSchema } from '../../src/resolvers';
import { BoundedAnswerStore, isCacheable } from '../../src/resolvers/response-cache';

/** Issue 30: what the GraphQL response cache may keep (an allow-list of fields), and how much of it. */
const schema = buildSchema();
const cacheable = (text: string, operationName?: string) => isCacheable(schema, parse(text), operationName);

describe('what may be cached', () => {
  it('queries of features, their environments, strategies, segments and projects\' features: yes', () => {
    expect(cacheable('{ project(id: "p") { id features(first: 10) { pageInfo { hasNextPage } nodes { __typename name environments { name strategies { parameters constraints { values } segments { name } } variants { name } } tags { type } } } } }')).toBe(true);
    expect(cacheable('query Q { features(first: 5) { edges { cursor node { ...F } } } } fragment F on Feature { name ... on Feature { stale } }', 'Q')).toBe(true);
    expect(cacheable('{ segments { id constraints { contextName } } environments { name } featureTypes { id } me { allowed(project: "p") } }')).toBe(true);
  });

  it('anything else: no (a new field stays uncached until it is listed)', () => {
    expect(cacheable('mutation { archiveFeature(project: "p", feature: "f") { name } }')).toBe(false);
    expect(cacheable('subscription { events { id } }')).toBe(false);
    expect(cacheable('{ events(first: 1) { nodes { id } } }')).toBe(false);
    expect(cacheable('{ features(first: 5) { nodes { name lastSeenAt } } }')).toBe(false);
    expect(cacheable('{ features(first: 5) { nodes { name environments { lastSeenAt } } } }')).toBe(false);
    expect(cacheable('{ project(id: "p") { name } }')).toBe(false);
    expect(cacheable('{ features(first: 5) { nodes { ...F } } } fragment F on Feature { events(first: 1) { totalCount } }')).toBe(false);
    expect(cacheable('{ me { user { id } } }')).toBe(false);
    expect(cacheable('{ __schema { types { name } } }')).toBe(false);
    expect(cacheable('{ tags { type } }')).toBe(false);
    expect(cacheable('{ users { id } }')).toBe(false);
  });
});

describe('the store', () => {
  const answer = (n: number) => ({ data: { text: 'x'.repeat(n) } });

  it('keeps at most maxEntries answers, least recently used out first', () => {
    const store = new BoundedAnswerStore({ maxEntries: 2, maxBytes: 1e6 });
    store.set('a', answer(1));
    store.set('b', answer(1));
    expect(store.get('a')).not.toBeNull(); // a is now the most recent
    store.set('c', answer(1));
    expect([store.get('a') !== null, store.get('b') !== null, store.get('c') !== null]).toEqual([true, false, true]);
  });

  it('forgets every answer when the service is idle, and counts bytes from zero again', () => {
    const store = new BoundedAnswerStore({ maxEntries: 100, maxBytes: 250 });
    store.set('a', answer(100));
    store.clear();
    expect([store.size, store.get('a')]).toEqual([0, null]);
    store.set('b', answer(100));
    store.set('c', answer(100));
    expect([store.get('b') !== null, store.get('c') !== null]).toEqual([true, true]); // the cleared answer's bytes no longer count
  });

  it('keeps at most maxBytes of answers, and never one larger than that', () => {
    const store = new BoundedAnswerStore({ maxEntries: 100, maxBytes: 250 });
    store.set('a', answer(100));
    store.set('b', answer(100));
    store.set('c', answer(100));
    expect(store.size).toBe(2);
    expect(store.get('a')).toBeNull();
    store.set('huge', answer(1000));
    expect(store.get('huge')).toBeNull();
    expect(store.size).toBe(2);
  });

  it('drops every answer once a newer model version is read, not for an older one', () => {
    const store = new BoundedAnswerStore();
    store.advance('5');
    store.set('a', answer(1));
    store.advance('4');
    expect(store.get('a')).not.toBeNull();
    store.advance('12');
    expect(store.get('a')).toBeNull();
    expect(store.size).toBe(0);
  });
});
