import { describe, expect, it } from '@jest/globals';
import { filterChoices, filterFlags, stageDuration, type EveryFlagFilters, type FilterableFlag } from '../../web/src/logic/every-flag';
import { groupUnknownFlags } from '../../web/src/logic/unknown-flags';
import { rankPalette, type PaletteItem } from '../../web/src/logic/palette';

const none: EveryFlagFilters = { q: null, project: null, type: null, tag: null, state: null, lifecycle: null, stale: null };
const flag = (name: string, over: Partial<FilterableFlag> = {}): FilterableFlag => ({
  name, project: 'default', type: 'release', description: null, stale: false, potentiallyStale: false, enabled: false, tags: [], stage: 'initial', ...over,
});
const flags = [
  flag('checkout-v2', { project: 'shop', enabled: true, stage: 'live', tags: [{ type: 'team', value: 'pay' }] }),
  flag('new-banner', { description: 'Spring campaign', type: 'experiment', potentiallyStale: true, stage: 'preLive' }),
  flag('old-search', { stale: true, potentiallyStale: true, stage: 'completed' }),
];
const names = (f: Partial<EveryFlagFilters>) => filterFlags(flags, { ...none, ...f }).map((x) => x.name);

describe('the Flags page filters', () => {
  it('search every word in the name, project or description, ignoring case', () => {
    expect(names({ q: 'CHECK' })).toEqual(['checkout-v2']);
    expect(names({ q: 'shop v2' })).toEqual(['checkout-v2']);
    expect(names({ q: 'spring banner' })).toEqual(['new-banner']);
    expect(names({ q: 'spring shop' })).toEqual([]);
  });

  it('filter by project, type, tag, state, lifecycle and staleness, together', () => {
    expect(names({ project: 'shop' })).toEqual(['checkout-v2']);
    expect(names({ type: 'experiment' })).toEqual(['new-banner']);
    expect(names({ tag: 'team:pay' })).toEqual(['checkout-v2']);
    expect(names({ state: 'on' })).toEqual(['checkout-v2']);
    expect(names({ state: 'off' })).toEqual(['new-banner', 'old-search']);
    expect(names({ lifecycle: 'preLive' })).toEqual(['new-banner']);
    expect(names({ stale: 'stale' })).toEqual(['old-search']);
    expect(names({ stale: 'potentially' })).toEqual(['new-banner']);
    expect(names({ stale: 'fresh' })).toEqual(['checkout-v2']);
    expect(names({ state: 'off', lifecycle: 'completed' })).toEqual(['old-search']);
    expect(names({})).toHaveLength(3);
  });

  it('offer as choices what the flags have', () => {
    expect(filterChoices(flags)).toEqual({ projects: ['default', 'shop'], types: ['experiment', 'release'], tags: ['team:pay'] });
  });
});

describe('the unknown-flags page', () => {
  it('groups the rows by name, the most recently reported first', () => {
    const rows = [
      { name: 'typo', appName: 'web', environment: 'production', seenAt: '2026-01-01T10:00:00.000Z' },
      { name: 'gone', appName: 'api', environment: 'development', seenAt: '2026-01-01T11:00:00.000Z' },
      { name: 'typo', appName: 'api', environment: 'development', seenAt: '2026-01-01T12:00:00.000Z' },
    ];
    expect(groupUnknownFlags(rows)).toEqual([
      { name: 'typo', appNames: ['api', 'web'], environments: ['development', 'production'], seenAt: '2026-01-01T12:00:00.000Z' },
      { name: 'gone', appNames: ['api'], environments: ['development'], seenAt: '2026-01-01T11:00:00.000Z' },
    ]);
  });
});

describe('the command palette', () => {
  const items: PaletteItem[] = [
    { kind: 'page', label: 'Flags', to: '/flags' },
    { kind: 'project', label: 'Checkout', to: '/projects/checkout' },
    { kind: 'flag', label: 'checkout-v2', detail: 'shop', to: '/projects/shop/features/checkout-v2' },
    { kind: 'flag', label: 'new-checkout-flow', detail: 'web', to: '/projects/web/features/new-checkout-flow' },
    { kind: 'flag', label: 'legacycheckout', detail: 'web', to: '/projects/web/features/legacycheckout' },
  ];
  const labels = (typed: string, limit?: number) => rankPalette(items, typed, limit).map((i) => i.label);

  it('finds by a fragment: the label’s start first, then a word’s start, then inside a word', () => {
    expect(labels('checkout')).toEqual(['Checkout', 'checkout-v2', 'new-checkout-flow', 'legacycheckout']);
    expect(labels('flow')).toEqual(['new-checkout-flow']);
  });

  it('needs every word, in the label or the detail (a flag’s project), and keeps to the limit', () => {
    expect(labels('checkout web')).toEqual(['new-checkout-flow', 'legacycheckout']);
    expect(labels('nothing')).toEqual([]);
    expect(labels('', 2)).toEqual(['Flags', 'Checkout']);
  });
});

describe('lifecycle stage lengths', () => {
  it('are told in their largest whole unit', () => {
    expect(stageDuration(30_000)).toBe('< 1 minute');
    expect(stageDuration(60_000)).toBe('1 minute');
    expect(stageDuration(3 * 3_600_000 + 59 * 60_000)).toBe('3 hours');
    expect(stageDuration(12 * 86_400_000)).toBe('12 days');
  });
});
