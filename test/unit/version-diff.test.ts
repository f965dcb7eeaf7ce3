import { describe, expect, it } from '@jest/globals';
import type { FeatureState, StrategyState } from '../../src/domain/history/feature-state';
import { planRevert } from '../../src/domain/history/revert-plan';
import { diffStates, valueAt, withValueAt } from '../../src/domain/history/version-diff';

const strategy = (id: string, over: Partial<StrategyState> = {}): StrategyState => ({
  id, name: 'default', title: null, disabled: false, sortOrder: 0, parameters: {}, constraints: [], variants: [], segments: [], ...over,
});

const state = (over: Partial<FeatureState> = {}): FeatureState => ({
  name: 'f', project: 'default', type: 'release', description: null, stale: false, impressionData: false,
  createdAt: '2026-01-01T00:00:00.000000Z', archivedAt: null, tags: [], dependencies: [],
  environments: [
    { name: 'development', configured: true, enabled: false, variants: [], strategies: [] },
    { name: 'production', configured: true, enabled: true, variants: [], strategies: [strategy('s1')] },
  ],
  ...over,
});

describe('diffStates', () => {
  it('names each changed field by a JSON Pointer, strategies by id, in a fixed order', () => {
    const before = state();
    const after = state({
      description: 'now',
      environments: [
        { name: 'development', configured: true, enabled: true, variants: [], strategies: [strategy('s2')] },
        { name: 'production', configured: true, enabled: true, variants: [], strategies: [strategy('s1', { parameters: { rollout: '5' } })] },
      ],
    });
    expect(diffStates(before, after)).toEqual([
      { path: '/description', before: null, after: 'now' },
      { path: '/environments/development/enabled', before: false, after: true },
      { path: '/environments/development/strategies/s2', before: null, after: strategy('s2') },
      { path: '/environments/production/strategies/s1/parameters', before: {}, after: { rollout: '5' } },
    ]);
    expect(diffStates(before, before)).toEqual([]);
  });

  it('reports a flag that appeared or went as one entry at the root', () => {
    expect(diffStates(null, state())).toEqual([{ path: '', before: null, after: state() }]);
    expect(diffStates(state(), null)).toEqual([{ path: '', before: state(), after: null }]);
    expect(diffStates(null, null)).toEqual([]);
  });

  it('escapes environment names in paths (RFC 6901), and any name is safe', () => {
    const odd = (enabled: boolean) => state({ environments: [{ name: 'a/b~c', configured: true, enabled, variants: [], strategies: [] }, { name: 'constructor', configured: true, enabled, variants: [], strategies: [] }] });
    const diff = diffStates(odd(false), odd(true));
    expect(diff.map((d) => d.path)).toEqual(['/environments/a~1b~0c/enabled', '/environments/constructor/enabled']);
    expect(valueAt(odd(true), diff[0].path)).toBe(true);
    expect(valueAt(withValueAt(odd(true), diff[0].path, false), diff[0].path)).toBe(false);
  });

  it('withValueAt puts a strategy back in its place by sort order and removes one with null', () => {
    const s = state({ environments: [{ name: 'production', configured: true, enabled: true, variants: [], strategies: [strategy('a', { sortOrder: 0 }), strategy('c', { sortOrder: 2 })] }] });
    const put = withValueAt(s, '/environments/production/strategies/b', strategy('b', { sortOrder: 1 }));
    expect(put.environments[0].strategies.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(withValueAt(put, '/environments/production/strategies/a', null).environments[0].strategies.map((x) => x.id)).toEqual(['b', 'c']);
    expect(s.environments[0].strategies).toHaveLength(2);
  });
});

describe('planRevert', () => {
  it('adds and updates strategies before switching on, removes before switching off, and sets variants last', () => {
    const current = state({ environments: [{ name: 'production', configured: true, enabled: false, variants: [], strategies: [strategy('old')] }] });
    const target = state({ environments: [{ name: 'production', configured: true, enabled: true, variants: [{ name: 'v', weight: 1000 }] as never, strategies: [strategy('new', { name: 'flexibleRollout' })] }] });
    expect(planRevert(current, target).map((s) => s.action)).toEqual(['addStrategy', 'updateEnabled', 'deleteStrategy', 'patchVariant']);
  });

  it('leaves switching off to the removal of the last active strategy, which does it', () => {
    const current = state();
    const target = state({ environments: [state().environments[0], { name: 'production', configured: true, enabled: false, variants: [], strategies: [] }] });
    expect(planRevert(current, target)).toEqual([{ action: 'deleteStrategy', environment: 'production', payload: { id: 's1' } }]);
  });

  it('creates a deleted flag, revives an archived one and moves one back', () => {
    expect(planRevert(null, state())[0]).toMatchObject({ action: 'createFeature', project: 'default' });
    expect(planRevert(state({ archivedAt: '2026-02-01T00:00:00.000000Z', project: 'other' }), state()).map((s) => s.action).slice(0, 2)).toEqual(['reviveFeature', 'moveFeature']);
  });

  it('pairs a strategy brought back under a new id with the target one: a second revert changes nothing', () => {
    const target = state();
    const current = state({ environments: [target.environments[0], { ...target.environments[1], strategies: [strategy('s1-again')] }] });
    expect(planRevert(current, target)).toEqual([]);
  });

  it('limits itself to the environments asked for', () => {
    const current = state({ description: 'changed', environments: [{ ...state().environments[0], enabled: true }, { ...state().environments[1], enabled: false }] });
    expect(planRevert(current, state(), new Set(['development']))).toEqual([{ action: 'updateEnabled', environment: 'development', payload: { enabled: false } }]);
  });
});
