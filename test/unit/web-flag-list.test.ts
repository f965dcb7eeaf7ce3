import { describe, expect, it } from '@jest/globals';
import { filterFlags, idFromName, lastSeen, projectIdProblem, relativeTime, sortFlags, tagsOf, type FlagListItem } from '../../web/src/logic/flag-list';

/** The flag list's filtering, sorting and time display (web/src/logic/flag-list.ts). */
const flag = (name: string, over: Partial<FlagListItem> = {}): FlagListItem => ({
  name, type: 'release', stale: false, createdAt: '2026-01-01T00:00:00.000Z', tags: [], environments: [{ name: 'development', enabled: false }], ...over,
});

const flags = [
  flag('beta', { type: 'experiment', tags: [{ type: 'simple', value: 'web' }], environments: [{ name: 'development', enabled: true, lastSeenAt: '2026-02-01T00:00:00.000Z' }] }),
  flag('Alpha', { stale: true, createdAt: '2026-03-01T00:00:00.000Z' }),
  flag('gamma', { tags: [{ type: 'simple', value: 'api' }, { type: 'team', value: 'core' }], environments: [
    { name: 'development', enabled: false, lastSeenAt: '2026-01-05T00:00:00.000Z' }, { name: 'production', enabled: true, lastSeenAt: '2026-02-03T00:00:00.000Z' }] }),
];
const none = { search: '', type: null, tag: null, state: 'all' as const };

describe('flag list logic', () => {
  it('filters by name (case-insensitive), type, tag and state, all together', () => {
    const names = (f: Parameters<typeof filterFlags>[1]) => filterFlags(flags, f).map((x) => x.name);
    expect(names(none)).toEqual(['beta', 'Alpha', 'gamma']);
    expect(names({ ...none, search: ' ALP ' })).toEqual(['Alpha']);
    expect(names({ ...none, type: 'release' })).toEqual(['Alpha', 'gamma']);
    expect(names({ ...none, tag: 'team:core' })).toEqual(['gamma']);
    expect(names({ ...none, state: 'enabled' })).toEqual(['beta', 'gamma']);
    expect(names({ ...none, state: 'stale' })).toEqual(['Alpha']);
    expect(names({ ...none, state: 'enabled', type: 'release', search: 'a' })).toEqual(['gamma']);
  });

  it('filters by lifecycle stage when the flags carry it', () => {
    const staged = flags.map((f, i) => ({ ...f, lifecycle: { stage: ['live', 'initial', 'live'][i] } }));
    expect(filterFlags(staged, { ...none, lifecycle: 'live' }).map((x) => x.name)).toEqual(['beta', 'gamma']);
    expect(filterFlags(staged, { ...none, lifecycle: null }).map((x) => x.name)).toEqual(['beta', 'Alpha', 'gamma']);
  });

  it('sorts by name, type, creation and last seen (never seen last either way), ties by name', () => {
    const names = (k: Parameters<typeof sortFlags>[1], d: 'asc' | 'desc') => sortFlags(flags, k, d).map((x) => x.name);
    expect(names('name', 'asc')).toEqual(['Alpha', 'beta', 'gamma']);
    expect(names('name', 'desc')).toEqual(['gamma', 'beta', 'Alpha']);
    expect(names('type', 'asc')).toEqual(['beta', 'Alpha', 'gamma']);
    expect(names('createdAt', 'desc')).toEqual(['Alpha', 'beta', 'gamma']);
    expect(names('lastSeen', 'desc')).toEqual(['gamma', 'beta', 'Alpha']);
    expect(names('lastSeen', 'asc')).toEqual(['beta', 'gamma', 'Alpha']);
    expect(flags.map((f) => f.name)).toEqual(['beta', 'Alpha', 'gamma']);
  });

  it('reads the last-seen time over environments, and the tags of the list once each', () => {
    expect(lastSeen(flags[2])).toBe('2026-02-03T00:00:00.000Z');
    expect(lastSeen(flags[1])).toBeNull();
    expect(tagsOf([...flags, flags[0]])).toEqual([{ type: 'simple', value: 'api' }, { type: 'simple', value: 'web' }, { type: 'team', value: 'core' }]);
  });

  it('writes times relative to now', () => {
    const now = Date.parse('2026-11-26T12:00:00.000Z');
    expect(relativeTime(null, now)).toBe('never');
    expect(relativeTime('2026-11-26T11:59:50.000Z', now)).toBe('just now');
    expect(relativeTime('2026-11-26T11:57:00.000Z', now)).toBe('3 minutes ago');
    expect(relativeTime('2026-11-25T12:00:00.000Z', now)).toBe('yesterday');
    expect(relativeTime('2026-11-12T12:00:00.000Z', now)).toBe('2 weeks ago');
  });

  it('checks a project id as the service does, and offers one from a name', () => {
    expect(projectIdProblem('')).toMatch(/id/);
    expect(projectIdProblem('a b')).toMatch(/Only/);
    expect(projectIdProblem('x'.repeat(101))).toMatch(/100/);
    expect(projectIdProblem('checkout_v2.~-')).toBeNull();
    expect(idFromName('  My Shop: Checkout! ')).toBe('my-shop-checkout');
  });
});
