import { describe, expect, it } from '@jest/globals';
import {
  byOrder, groupSegmentUses, legalValueProblems, moveUpdates, nameProblem, newLegalValue, newParameter, parameterProblems,
  toLegalValuesInput, toParametersInput,
} from '../../web/src/logic/definitions';

/** Applies sort order updates to a list and returns the names in the service's order. */
const apply = (list: Array<{ name: string; sortOrder: number }>, updates: Array<{ name: string; sortOrder: number }>) =>
  byOrder(list.map((e) => updates.find((u) => u.name === e.name) ?? e)).map((e) => e.name);

describe('web definitions logic', () => {
  it('checks URL-friendly names as the service does, with the tag types\' 2..50 bounds', () => {
    expect(nameProblem('staging')).toBeNull();
    expect(nameProblem('a.b~c_d-9')).toBeNull();
    expect(nameProblem('')).toMatch(/name/);
    expect(nameProblem('has space')).toMatch(/Only letters/);
    expect(nameProblem('..')).toMatch(/Not "."/);
    expect(nameProblem('x'.repeat(101))).toMatch(/At most 100/);
    expect(nameProblem('x', 2, 50)).toMatch(/At least 2/);
    expect(nameProblem('x'.repeat(51), 2, 50)).toMatch(/At most 50/);
  });

  it('orders by sort order, ties by name', () => {
    expect(byOrder([{ name: 'b', sortOrder: 1 }, { name: 'a', sortOrder: 1 }, { name: 'c', sortOrder: 0 }]).map((e) => e.name)).toEqual(['c', 'a', 'b']);
  });

  it('moves an environment by swapping two distinct sort orders', () => {
    const list = [{ name: 'development', sortOrder: 2 }, { name: 'production', sortOrder: 3 }, { name: 'staging', sortOrder: 9 }];
    const up = moveUpdates(list, 'staging', -1);
    expect(up).toEqual([{ name: 'staging', sortOrder: 3 }, { name: 'production', sortOrder: 9 }]);
    expect(apply(list, up)).toEqual(['development', 'staging', 'production']);
    expect(apply(list, moveUpdates(list, 'development', 1))).toEqual(['production', 'development', 'staging']);
  });

  it('renumbers when ties make a swap meaningless, sending only the entries that change', () => {
    const list = [{ name: 'a', sortOrder: 0 }, { name: 'b', sortOrder: 0 }, { name: 'c', sortOrder: 0 }];
    const down = moveUpdates(list, 'a', 1);
    expect(apply(list, down)).toEqual(['b', 'a', 'c']);
    expect(down).toEqual([{ name: 'a', sortOrder: 1 }, { name: 'c', sortOrder: 2 }]);
    expect(apply(list, moveUpdates(list, 'c', -1))).toEqual(['a', 'c', 'b']);
  });

  it('does not move past either end, nor an unknown name', () => {
    const list = [{ name: 'a', sortOrder: 1 }, { name: 'b', sortOrder: 2 }];
    expect(moveUpdates(list, 'a', -1)).toEqual([]);
    expect(moveUpdates(list, 'b', 1)).toEqual([]);
    expect(moveUpdates(list, 'zzz', 1)).toEqual([]);
  });

  it('finds blank, long and repeated legal values, and sends them trimmed', () => {
    const values = [newLegalValue(' eu ', ' Europe '), newLegalValue('us'), newLegalValue('eu'), newLegalValue(''), newLegalValue('x'.repeat(101))];
    expect(legalValueProblems(values)).toEqual([undefined, undefined, '"eu" is already in the list.', 'Enter a value, or remove this row.', 'At most 100 characters.']);
    expect(toLegalValuesInput(values.slice(0, 2))).toEqual([{ value: 'eu', description: 'Europe' }, { value: 'us' }]);
  });

  it('finds blank and repeated parameter names, and sends parameters trimmed', () => {
    const params = [newParameter({ name: ' region ', type: 'list', required: true, description: ' where ' }), newParameter({ name: 'region' }), newParameter()];
    expect(parameterProblems(params)).toEqual([undefined, '"region" is declared twice.', 'Give the parameter a name, or remove it.']);
    expect(toParametersInput(params.slice(0, 1))).toEqual([{ name: 'region', type: 'list', description: 'where', required: true }]);
  });

  it('groups the strategies that use a segment by project and feature, each environment once', () => {
    expect(groupSegmentUses([
      { featureName: 'b', project: 'web', environment: 'production' },
      { featureName: 'a', project: 'web', environment: 'development' },
      { featureName: 'b', project: 'web', environment: 'development' },
      { featureName: 'b', project: 'web', environment: 'development' },
      { featureName: 'z', project: 'app', environment: 'production' },
    ])).toEqual([
      { project: 'app', features: [{ name: 'z', environments: ['production'] }] },
      { project: 'web', features: [{ name: 'a', environments: ['development'] }, { name: 'b', environments: ['development', 'production'] }] },
    ]);
    expect(groupSegmentUses([])).toEqual([]);
  });
});
