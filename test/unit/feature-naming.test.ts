import { describe, expect, it } from '@jest/globals';
import { PatternError, ValidationError } from '../../src/domain/errors';
import { checkFeatureName, matchesFeatureNaming, validateFeatureNaming, type FeatureNamingInput } from '../../src/domain/projects/feature-naming';

function refusal(input: FeatureNamingInput): ValidationError {
  try {
    validateFeatureNaming(input);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

function mismatch(naming: Parameters<typeof checkFeatureName>[0], name: string): PatternError {
  try {
    checkFeatureName(naming, name);
  } catch (err) {
    if (err instanceof PatternError) return err;
    throw err;
  }
  throw new Error('expected a PatternError');
}

describe('validateFeatureNaming: accepted patterns', () => {
  it('keeps a valid pattern with its example and description', () => {
    expect(validateFeatureNaming({ pattern: '[a-z]+-[0-9]+', example: 'checkout-42', description: 'team-number' }))
      .toEqual({ pattern: '[a-z]+-[0-9]+', example: 'checkout-42', description: 'team-number' });
  });

  it('stores a falsy example or description as null when a pattern exists', () => {
    expect(validateFeatureNaming({ pattern: 'feat-.+', example: '', description: '' })).toEqual({ pattern: 'feat-.+', example: null, description: null });
    expect(validateFeatureNaming({ pattern: 'feat-.+' })).toEqual({ pattern: 'feat-.+', example: null, description: null });
  });

  it('clears all three with a null (or empty) pattern', () => {
    expect(validateFeatureNaming({ pattern: null })).toEqual({ pattern: null, example: null, description: null });
    expect(validateFeatureNaming({ pattern: '', example: null, description: '' })).toEqual({ pattern: null, example: null, description: null });
  });

  it('accepts named groups, escapes, classes and bounded repeats', () => {
    for (const pattern of ['(?<team>[a-z]+)\\.[a-z]+', '\\d{3}-[\\w.~-]{1,20}', 'exp_(on|off)', '[^/]+', 'x{2,1000}']) {
      expect(validateFeatureNaming({ pattern }).pattern).toBe(pattern);
    }
  });

  it('takes a pattern of exactly 500 characters, refuses 501', () => {
    expect(validateFeatureNaming({ pattern: 'a'.repeat(500) }).pattern).toHaveLength(500);
    const err = refusal({ pattern: 'a'.repeat(501) });
    expect(err.details).toEqual([{ path: 'featureNaming/pattern', message: expect.stringContaining('at most 500 characters') }]);
  });
});

describe('validateFeatureNaming: refusals', () => {
  it.each([
    ['a space', 'feat name'],
    ['a literal tab', 'feat\tname'],
    ['\\s', 'feat\\sname'],
    ['\\t', 'a\\tb'],
    ['\\n', 'a\\n'],
    ['\\r', 'a\\r'],
    ['\\f', 'a\\f'],
    ['\\v', 'a\\v'],
  ])('refuses whitespace (%s)', (_label, pattern) => {
    const err = refusal({ pattern });
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.name).toBe('ValidationError');
    expect(err.details).toHaveLength(1);
    expect(err.details[0].path).toBe('featureNaming/pattern');
    expect(err.details[0].message).toMatch(/^Feature flag names cannot contain whitespace\./);
  });

  it.each(['[a-z', '(abc', 'a**', '?x', '\\'])('refuses the invalid JavaScript regex %j', (pattern) => {
    const err = refusal({ pattern });
    expect(err.details).toEqual([{ path: 'featureNaming/pattern', message: expect.stringContaining('is not a valid JavaScript regular expression') }]);
  });

  it.each(['(a)\\1', '(?=feat)[a-z]+', '(?!x)[a-z]+', '(?<=a)b', '(?<!a)b', 'x{1001}'])('refuses %j: not matchable in linear time', (pattern) => {
    const err = refusal({ pattern });
    expect(err.details).toEqual([{ path: 'featureNaming/pattern', message: expect.stringContaining('cannot be matched in linear time') }]);
  });

  it.each(['(a+)+b', '(a*)*', '([a-z]+-?)+x', '(\\w+\\.)*end'])('refuses the catastrophically backtracking pattern %j', (pattern) => {
    const err = refusal({ pattern });
    expect(err.details).toEqual([{ path: 'featureNaming/pattern', message: expect.stringContaining('catastrophic backtracking') }]);
  });

  it('refuses (a+)+b with a 40-character example in well under a second', () => {
    const started = performance.now();
    const err = refusal({ pattern: '(a+)+b', example: 'a'.repeat(40) });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(err.details.map((d) => d.path)).toEqual(['featureNaming/pattern']);
  });

  it('refuses an example that does not match, quoting both', () => {
    const err = refusal({ pattern: '[a-z]+-[0-9]+', example: 'Checkout' });
    expect(err.details).toEqual([{
      path: 'featureNaming/example',
      message: 'You\'ve provided a feature flag naming example ("Checkout") that doesn\'t match your feature flag naming pattern ("[a-z]+-[0-9]+"). Please provide an example that matches your chosen pattern.',
    }]);
    expect(err.message).toContain('doesn\'t match your feature flag naming pattern');
  });

  it('refuses an example or a description without a pattern, one detail each', () => {
    const err = refusal({ pattern: null, example: 'x-1', description: 'team-number' });
    expect(err.details.map((d) => d.path)).toEqual(['featureNaming/example', 'featureNaming/description']);
    expect(err.details[0].message).toContain('but no feature flag naming pattern');
    expect(err.details[1].message).toContain('but no feature flag naming pattern');
  });

  it('refuses a missing pattern key, unknown keys and wrong types', () => {
    expect(refusal({ example: 'x' } as never).details[0]).toMatchObject({ path: 'featureNaming/pattern', message: expect.stringContaining('required') });
    expect(refusal({ pattern: 'x', flags: 'i' } as never).details[0].path).toBe('featureNaming/flags');
    expect(refusal({ pattern: 5 } as never).details[0].path).toBe('featureNaming/pattern');
  });
});

describe('anchoring (D8: ^(?:pattern)$)', () => {
  it('treats an alternation as one group', () => {
    expect(matchesFeatureNaming('a|b', 'a')).toBe(true);
    expect(matchesFeatureNaming('a|b', 'b')).toBe(true);
    // Unleash's ^a|b$ would accept both of these:
    expect(matchesFeatureNaming('a|b', 'abc')).toBe(false);
    expect(matchesFeatureNaming('a|b', 'cab')).toBe(false);
  });

  it('matches the whole name only, and tolerates explicit anchors', () => {
    expect(matchesFeatureNaming('feat', 'feature')).toBe(false);
    expect(matchesFeatureNaming('feat.*', 'feature')).toBe(true);
    expect(matchesFeatureNaming('^feat-[0-9]+$', 'feat-12')).toBe(true);
    expect(matchesFeatureNaming('^feat-[0-9]+$', 'xfeat-12')).toBe(false);
  });

  it('validates the example with the same anchoring', () => {
    expect(refusal({ pattern: 'a|b', example: 'ab' }).details[0].path).toBe('featureNaming/example');
    expect(validateFeatureNaming({ pattern: 'a|b', example: 'b' }).example).toBe('b');
  });
});

describe('checkFeatureName', () => {
  it('does nothing without a pattern or for a matching name', () => {
    expect(() => checkFeatureName({ pattern: null, example: null, description: null }, 'Anything Goes')).not.toThrow();
    expect(() => checkFeatureName({ pattern: '[a-z]+-[0-9]+', example: null, description: null }, 'team-7')).not.toThrow();
  });

  it('names the flag and the pattern', () => {
    const err = mismatch({ pattern: '[a-z]+-[0-9]+', example: null, description: null }, 'Team7');
    expect(err.name).toBe('PatternError');
    expect(err.message).toBe('The feature flag name "Team7" does not match the project\'s naming pattern: "[a-z]+-[0-9]+".');
    expect(err.extra()).toEqual({ details: [{ message: 'The flag name does not match the pattern.' }] });
  });

  it('adds the example and the description sentences when set', () => {
    expect(mismatch({ pattern: '[a-z]+-[0-9]+', example: 'team-7', description: 'team, dash, number' }, 'x').message).toBe(
      'The feature flag name "x" does not match the project\'s naming pattern: "[a-z]+-[0-9]+".'
      + ' Here\'s an example of a name that does match the pattern: "team-7".'
      + ' The pattern\'s description is: "team, dash, number".');
    expect(mismatch({ pattern: 'a', example: null, description: 'just a' }, 'b').message).toBe(
      'The feature flag name "b" does not match the project\'s naming pattern: "a". The pattern\'s description is: "just a".');
  });

  it('stays linear even for a backtracking pattern that slipped into storage', () => {
    const started = performance.now();
    const err = mismatch({ pattern: '(a+)+b', example: null, description: null }, 'a'.repeat(5000));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(err.name).toBe('PatternError');
  });

  it('refuses every name for a stored pattern the linear engine cannot run (fails closed)', () => {
    expect(mismatch({ pattern: '(a)\\1', example: null, description: null }, 'aa').name).toBe('PatternError');
  });

  it('keeps working past the compiled-pattern cache bound', () => {
    for (let i = 0; i < 250; i++) {
      const naming = { pattern: `p${i}-[0-9]+`, example: null, description: null };
      expect(() => checkFeatureName(naming, `p${i}-1`)).not.toThrow();
      expect(() => checkFeatureName(naming, `p${i}-x`)).toThrow(PatternError);
    }
  });
});
