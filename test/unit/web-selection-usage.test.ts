import { describe, expect, it } from '@jest/globals';
import { byProject, shownState, stillListed, toggled, withShown } from '../../web/src/logic/selection';
import { onShare, usageRows } from '../../web/src/logic/usage';

describe('a multi-selection', () => {
  it('ticks and unticks one row without changing the set it was given', () => {
    const before = new Set(['a']);
    expect([...toggled(before, 'b', true)]).toEqual(['a', 'b']);
    expect([...toggled(before, 'a', false)]).toEqual([]);
    expect([...before]).toEqual(['a']);
  });

  it('says whether the shown rows are all, some or none selected, and selects or clears only them', () => {
    const selected = new Set(['a', 'hidden']);
    expect(shownState(['a', 'b'], selected)).toBe('some');
    expect(shownState(['a'], selected)).toBe('all');
    expect(shownState(['b'], selected)).toBe('none');
    expect(shownState([], selected)).toBe('none');
    expect([...withShown(selected, ['a', 'b'], true)].sort()).toEqual(['a', 'b', 'hidden']);
    expect([...withShown(selected, ['a', 'b'], false)]).toEqual(['hidden']);
    expect([...stillListed(selected, ['a', 'b'])]).toEqual(['a']);
  });

  it('groups selected rows by project for the bulk mutations', () => {
    const rows = [{ name: 'a', project: 'p' }, { name: 'b', project: 'q' }, { name: 'c', project: 'p' }, { name: 'd', project: 'q' }];
    expect(byProject(rows, new Set(['a', 'b', 'c']))).toEqual([{ project: 'p', features: ['a', 'c'] }, { project: 'q', features: ['b'] }]);
    expect(byProject(rows, new Set())).toEqual([]);
  });
});

describe('a flag\'s usage', () => {
  it('sums the last hour and the last day per environment, in the project\'s order, with environments only metrics know last', () => {
    const rows = usageRows(
      [{ name: 'development', lastSeenAt: '2026-01-01T10:00:00.000Z' }, { name: 'production', lastSeenAt: null }],
      [{ environment: 'development', yes: 3, no: 1 }],
      [
        { environment: 'development', yes: 3, no: 1 }, { environment: 'development', yes: 5, no: 0 },
        { environment: 'staging', yes: 0, no: 2 },
      ],
    );
    expect(rows).toEqual([
      { environment: 'development', lastSeenAt: '2026-01-01T10:00:00.000Z', hour: { yes: 3, no: 1 }, day: { yes: 8, no: 1 } },
      { environment: 'production', lastSeenAt: null, hour: { yes: 0, no: 0 }, day: { yes: 0, no: 0 } },
      { environment: 'staging', lastSeenAt: null, hour: { yes: 0, no: 0 }, day: { yes: 0, no: 2 } },
    ]);
  });

  it('gives the share of evaluations that were on', () => {
    expect(onShare({ yes: 3, no: 1 })).toBe('75% on');
    expect(onShare({ yes: 0, no: 0 })).toBe('—');
  });
});
