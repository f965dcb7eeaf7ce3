import { describe, expect, it } from '@jest/globals';
import { applyChanges, type PreviewChange, type PreviewWorld } from '../../src/domain/change-requests/change-request-preview';
import type { PlaygroundFeatureInput, PlaygroundStrategyInput } from '../../src/domain/playground/types';

/** The in-memory apply of a change request (no database): the rules the e2e tests cannot reach through the API. */

const strategy = (id: string, more: Partial<PlaygroundStrategyInput> = {}): PlaygroundStrategyInput => ({
  id, name: 'default', title: null, disabled: false, sortOrder: 0, parameters: {}, constraints: [], variants: [], segments: [], ...more,
});
const feature = (name: string, more: Partial<PlaygroundFeatureInput> = {}): PlaygroundFeatureInput => ({
  name, project: 'p', enabled: false, strategies: [], variants: [], dependencies: [], ...more,
});
const world = (features: PlaygroundFeatureInput[], more: Partial<PreviewWorld> = {}): PreviewWorld => ({
  project: 'p', environment: 'production', features, segments: [{ id: 1, name: 'one', constraints: [] }],
  segmentProjects: new Map([[1, null]]), segmentUseElsewhere: new Map(), strategyNames: new Set(['default', 'flexibleRollout', 'userWithId']),
  defaultStrategy: null, defaultStickiness: 'default',
  creationRank: new Map(features.flatMap((f) => f.strategies.map((s) => s.id)).map((id, i) => [id, i])), ...more,
});
let nextId = 1;
/** A change as the service hands it over (validated by changeSchema there; written loosely here). */
const change = (c: { action: PreviewChange['action']; feature?: string; payload?: unknown }): PreviewChange => ({ ...c, id: nextId++ } as PreviewChange);

describe('applyChanges', () => {
  it('never changes its input', () => {
    const input = feature('f', { enabled: true, strategies: [strategy('s1')] });
    const frozen = JSON.stringify(input);
    const out = applyChanges(world([input]), [change({ action: 'deleteStrategy', feature: 'f', payload: { id: 's1' } })]);
    expect(JSON.stringify(input)).toBe(frozen);
    expect(out.features[0]).toMatchObject({ enabled: false, strategies: [] });
  });

  it('updateStrategy merges like PUT: absent properties kept, disabled null is false, an unchanged strategy does not switch the environment off', () => {
    const f = feature('f', { enabled: true, strategies: [strategy('s1', { title: 'T', disabled: true, parameters: { a: '1' } })] });
    const [merged] = applyChanges(world([f]), [change({ action: 'updateStrategy', feature: 'f', payload: { id: 's1', disabled: null } })]).features;
    expect(merged.strategies[0]).toMatchObject({ title: 'T', disabled: false, parameters: { a: '1' } });
    // An enabled environment whose only strategy is disabled stays on when an update changes nothing (as modify()).
    const [same] = applyChanges(world([f]), [change({ action: 'updateStrategy', feature: 'f', payload: { id: 's1', title: 'T' } })]).features;
    expect(same.enabled).toBe(true);
    const [other] = applyChanges(world([f]), [change({ action: 'updateStrategy', feature: 'f', payload: { id: 's1', title: 'U' } })]).features;
    expect(other.enabled).toBe(false);
  });

  it("enabling without an active strategy adds the project environment's default strategy, groupId replaced by the feature name", () => {
    const configured = { name: 'flexibleRollout', title: 'Default', parameters: { rollout: '30', stickiness: 'userId', groupId: 'whatever' }, segments: [1, 1], constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] };
    const [f] = applyChanges(world([feature('constructor', { strategies: [strategy('s1', { disabled: true, sortOrder: 4 })] })], { defaultStrategy: configured }),
      [change({ action: 'updateEnabled', feature: 'constructor', payload: { enabled: true } })]).features;
    expect(f.enabled).toBe(true);
    expect(f.strategies.map((s) => [s.name, s.sortOrder, s.title, s.parameters, s.segments])).toEqual([
      ['default', 4, null, {}, []],
      ['flexibleRollout', 5, 'Default', { rollout: '30', stickiness: 'userId', groupId: 'constructor' }, [1]],
    ]);
    expect(f.strategies[1].constraints).toEqual([{ contextName: 'userId', operator: 'IN', values: ['a'], caseInsensitive: false, inverted: false }]);
  });

  it('reorders with the database tie-break: equal sort orders keep creation order', () => {
    const f = feature('f', { strategies: [strategy('late', { sortOrder: 0 }), strategy('early', { sortOrder: 1 })] });
    const w = world([f], { creationRank: new Map([['early', 0], ['late', 1]]) });
    const [out] = applyChanges(w, [change({ action: 'reorderStrategy', feature: 'f', payload: [{ id: 'late', sortOrder: 3 }, { id: 'early', sortOrder: 3 }] })]).features;
    expect(out.strategies.map((s) => s.id)).toEqual(['early', 'late']);
  });

  it('refusals become warnings and leave the rest applied', () => {
    const parent = feature('parent', { dependencies: [{ feature: 'grand', enabled: true }] });
    const out = applyChanges(world([feature('f'), parent, feature('grand')]), [
      change({ action: 'addStrategy', feature: 'f', payload: { name: 'flexibleRollout', parameters: { rollout: '120' } } }),
      change({ action: 'addStrategy', feature: 'f', payload: { name: 'nope' } }),
      change({ action: 'addStrategy', feature: 'f', payload: { name: 'default', segments: [9] } }),
      change({ action: 'patchVariant', feature: 'f', payload: { variants: [{ name: 'a', weightType: 'fix', weight: 100 }] } }),
      change({ action: 'addDependency', feature: 'f', payload: { feature: 'parent' } }),
      change({ action: 'addDependency', feature: 'f', payload: { feature: 'f' } }),
      change({ action: 'updateStrategy', feature: 'f', payload: { id: 'missing' } }),
      change({ action: 'deleteStrategy', feature: 'gone', payload: { id: 'x' } }),
      change({ action: 'addStrategy', feature: 'f', payload: { name: 'default' } }),
    ]);
    expect(out.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('`rollout` parameter must be a number from 0 to 100'),
      'Could not find strategy type with name nope',
      'There is no segment with id 9.',
      expect.stringContaining('There must be at least one "variable" variant'),
      expect.stringContaining('depends on other features, so it cannot be a parent'),
      'A feature cannot depend on itself.',
      expect.stringContaining('Could not find strategy with id missing'),
      'Could not find feature toggle with name gone',
    ]);
    expect(out.features[0].strategies.map((s) => s.name)).toEqual(['default']);
  });

  it('archives together: a parent goes only with its children; segments in use cannot be deleted', () => {
    const features = [feature('parent'), feature('child', { dependencies: [{ feature: 'parent', enabled: true }] }), feature('user', { strategies: [strategy('s', { segments: [1] })] })];
    const alone = applyChanges(world(features), [change({ action: 'archiveFeature', feature: 'parent' }), change({ action: 'deleteSegment', payload: { id: 1 } })]);
    expect(alone.features.map((f) => f.name)).toEqual(['parent', 'child', 'user']);
    expect(alone.warnings.map((w) => w.action)).toEqual(['archiveFeature', 'deleteSegment']);
    const both = applyChanges(world(features), [change({ action: 'archiveFeature', feature: 'child' }), change({ action: 'archiveFeature', feature: 'parent' })]);
    expect(both.features.map((f) => f.name)).toEqual(['user']);
    expect([...both.archived]).toEqual(['child', 'parent']);
  });

  it('a segment change marks every feature using it, and the features depending on those', () => {
    const features = [feature('__proto__', { strategies: [strategy('s', { segments: [1] })] }), feature('child', { dependencies: [{ feature: '__proto__', enabled: true }] }), feature('other')];
    const out = applyChanges(world(features), [change({ action: 'updateSegment', payload: { id: 1, name: 'one', constraints: [{ contextName: 'userId', operator: 'IN', values: ['x'] }] } })]);
    expect([...out.affected].map(([name, reasons]) => [name, [...reasons]])).toEqual([['__proto__', ['segment']], ['child', ['parent']]]);
    expect(out.segments[0].constraints).toEqual([{ contextName: 'userId', operator: 'IN', values: ['x'], caseInsensitive: false, inverted: false }]);
  });
});
