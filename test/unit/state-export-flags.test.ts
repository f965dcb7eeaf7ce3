import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../src/domain/errors';
import { exportFlag } from '../../src/domain/import-export/state-export.service';

describe('state export flags (Unleash reading)', () => {
  it.each([
    [undefined, true], [undefined, false],
    [true, true], [false, false], [1, true], [0, false], [-3, true], [Number.NaN, false],
    ['true', true], ['TRUE', true], ['tRuE', true], ['1', true], ['2', true], ['-1', true], ['0.5', true], [' 7 ', true],
    ['0', false], ['0.0', false], ['false', false], ['no', false], ['yes', false], ['', false], [' ', false], ['Infinity', false], [' true', false],
  ])('%j reads as %j', (value, expected) => {
    // Absent gives the fallback; any value given must not fall back, so the fallback is the other answer.
    expect(exportFlag(value, value === undefined ? expected : !expected, 'tags')).toBe(expected);
  });

  it('a list or an object is a ValidationError naming the flag', () => {
    for (const value of [['true', 'false'], { a: 'b' }, null]) {
      let caught: unknown;
      try { exportFlag(value, true, 'download'); } catch (err) { caught = err; }
      expect(caught).toBeInstanceOf(ValidationError);
      expect((caught as ValidationError).details).toEqual([{ path: 'download', message: expect.stringContaining('`download`') }]);
    }
  });
});
