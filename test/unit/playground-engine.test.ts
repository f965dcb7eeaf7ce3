import { describe, expect, it, jest } from '@jest/globals';
import { RE2JS } from 're2js';
import { Strategy as SdkStrategy } from 'unleash-client/lib/strategy/strategy';
import type { Constraint } from '../../src/domain/features/constraint.shapes';
import type { FeatureVariant, StrategyVariant } from '../../src/domain/features/variant.shapes';
import {
  compile, evaluate, evaluateFast, evaluateFeatureFast, normalizedValue, VARIANT_SEED,
} from '../../src/domain/playground/engine';
import type { EvaluationOptions, PlaygroundContext, PlaygroundFeatureInput, PlaygroundSegmentInput, PlaygroundStrategyInput } from '../../src/domain/playground/types';
import type { PlaygroundFeatureEvaluation } from '../../src/domain/playground/playground.shapes';

// ---- builders -------------------------------------------------------------------------------------------------

let strategyCounter = 0;
function strategy(name: string, over: Partial<PlaygroundStrategyInput> = {}): PlaygroundStrategyInput {
  strategyCounter += 1;
  return {
    id: `s-${strategyCounter}`, name, title: null, disabled: false, sortOrder: 0, parameters: {}, constraints: [], variants: [], segments: [],
    ...over,
  };
}

function feature(name: string, over: Partial<PlaygroundFeatureInput> = {}): PlaygroundFeatureInput {
  return { name, project: 'default', enabled: true, strategies: [strategy('default')], variants: [], dependencies: [], ...over };
}

function constraint(contextName: string, operator: string, over: Partial<Constraint> = {}): Constraint {
  return { contextName, operator: operator as Constraint['operator'], values: [], caseInsensitive: false, inverted: false, ...over };
}

function variant(name: string, weight: number, over: Partial<FeatureVariant> = {}): FeatureVariant {
  return { name, weight, weightType: 'variable', stickiness: 'default', overrides: [], ...over };
}

function strategyVariant(name: string, weight: number, over: Partial<StrategyVariant> = {}): StrategyVariant {
  return { name, weight, weightType: 'variable', stickiness: 'default', ...over };
}

/** A deterministic random source cycling through the given values. */
function fixedRandom(...values: number[]): EvaluationOptions['random'] {
  let i = 0;
  return () => values[i++ % values.length];
}

function one(input: PlaygroundFeatureInput, context: PlaygroundContext, options?: EvaluationOptions, segments: PlaygroundSegmentInput[] = []): PlaygroundFeatureEvaluation {
  const snapshot = compile([input], segments);
  const [detailed] = evaluate(snapshot, context, 'production', options);
  return detailed;
}

/** Whether a single constraint passes, through both paths (they must agree). */
function passes(c: Constraint, context: PlaygroundContext, options?: EvaluationOptions): boolean {
  const input = feature('c', { strategies: [strategy('default', { constraints: [c] })] });
  const snapshot = compile([input], []);
  const detailed = evaluate(snapshot, context, 'production', options)[0];
  const fast = evaluateFast(snapshot, context, options)[0];
  expect(fast.isEnabled).toBe(detailed.isEnabled);
  expect(detailed.strategies.data[0].constraints[0].result).toBe(detailed.isEnabled);
  return detailed.isEnabled;
}

const ctx = (extra: Partial<PlaygroundContext> = {}): PlaygroundContext => ({ appName: 'test', ...extra });

// ---- hashing ----------------------------------------------------------------------------------------------------

describe('hashing (reference §3.3)', () => {
  it('reproduces the reference bucket values', () => {
    expect(normalizedValue('1', 'f1', 100, 0)).toBe(39);
    expect(normalizedValue('9', 'f1', 100, 0)).toBe(29);
    expect(normalizedValue('1', 'f1', 1000, VARIANT_SEED)).toBe(200);
    expect(VARIANT_SEED).toBe(86028157);
  });

  it('is murmurhash3 x86 32-bit of "groupId:id": hash32("a:b", 0) = 2722392131', () => {
    // With a normalizer of 2^32 the bucket is the raw hash plus one.
    expect(normalizedValue('b', 'a', 2 ** 32, 0)).toBe(2722392131 + 1);
  });

  it('reads only the low byte of each UTF-16 code unit, like the murmurhash3js package', () => {
    // "š" is U+0161: its low byte is 0x61, "a". A UTF-8 murmur would hash the two differently.
    expect(normalizedValue('š', 'g', 2 ** 32)).toBe(normalizedValue('a', 'g', 2 ** 32));
    expect(normalizedValue('b', 'a', 2 ** 32)).not.toBe(normalizedValue('c', 'a', 2 ** 32));
  });
});

// ---- constraint operators -----------------------------------------------------------------------------------

describe('constraint operators (reference §3.4)', () => {
  it('IN / NOT_IN: trimmed values, empty ones removed, missing context makes NOT_IN true', () => {
    const c = constraint('region', 'IN', { values: [' eu ', '', 'us'] });
    expect(passes(c, ctx({ properties: { region: 'eu' } }))).toBe(true);
    expect(passes(c, ctx({ properties: { region: 'us' } }))).toBe(true);
    expect(passes(c, ctx({ properties: { region: 'EU' } }))).toBe(false);
    expect(passes(c, ctx())).toBe(false);
    const notIn = constraint('region', 'NOT_IN', { values: ['eu'] });
    expect(passes(notIn, ctx({ properties: { region: 'eu' } }))).toBe(false);
    expect(passes(notIn, ctx({ properties: { region: 'us' } }))).toBe(true);
    expect(passes(notIn, ctx())).toBe(true);
    expect(passes(constraint('region', 'IN', { values: [] }), ctx({ properties: { region: '' } }))).toBe(false);
  });

  it('IN / NOT_IN with caseInsensitive lower-cases both sides', () => {
    expect(passes(constraint('region', 'IN', { values: ['Eu'], caseInsensitive: true }), ctx({ properties: { region: 'eU' } }))).toBe(true);
    expect(passes(constraint('region', 'NOT_IN', { values: ['Eu'], caseInsensitive: true }), ctx({ properties: { region: 'EU' } }))).toBe(false);
  });

  it('STR_STARTS_WITH / STR_ENDS_WITH / STR_CONTAINS: any value matches; missing context is false', () => {
    const email = ctx({ properties: { email: 'Someone@Example.com' } });
    expect(passes(constraint('email', 'STR_STARTS_WITH', { values: ['x', 'Some'] }), email)).toBe(true);
    expect(passes(constraint('email', 'STR_STARTS_WITH', { values: ['some'] }), email)).toBe(false);
    expect(passes(constraint('email', 'STR_STARTS_WITH', { values: ['some'], caseInsensitive: true }), email)).toBe(true);
    expect(passes(constraint('email', 'STR_ENDS_WITH', { values: ['.com'] }), email)).toBe(true);
    expect(passes(constraint('email', 'STR_ENDS_WITH', { values: ['EXAMPLE.COM'], caseInsensitive: true }), email)).toBe(true);
    expect(passes(constraint('email', 'STR_CONTAINS', { values: ['@Ex'] }), email)).toBe(true);
    expect(passes(constraint('email', 'STR_CONTAINS', { values: ['@ex'] }), email)).toBe(false);
    expect(passes(constraint('email', 'STR_CONTAINS', { values: ['@ex'], caseInsensitive: true }), email)).toBe(true);
    expect(passes(constraint('email', 'STR_CONTAINS', { values: ['a'] }), ctx())).toBe(false);
    expect(passes(constraint('email', 'STR_CONTAINS', { values: ['a'], caseInsensitive: true }), ctx())).toBe(false);
  });

  it('NUM_*: Number() of both sides, NaN on either side is false', () => {
    const n = (v: string) => ctx({ properties: { n: v } });
    expect(passes(constraint('n', 'NUM_EQ', { value: '5' }), n('5.0'))).toBe(true);
    expect(passes(constraint('n', 'NUM_EQ', { value: '5' }), n('6'))).toBe(false);
    expect(passes(constraint('n', 'NUM_GT', { value: '5' }), n('6'))).toBe(true);
    expect(passes(constraint('n', 'NUM_GT', { value: '5' }), n('5'))).toBe(false);
    expect(passes(constraint('n', 'NUM_GTE', { value: '5' }), n('5'))).toBe(true);
    expect(passes(constraint('n', 'NUM_LT', { value: '5' }), n('4.9'))).toBe(true);
    expect(passes(constraint('n', 'NUM_LT', { value: '5' }), n('5'))).toBe(false);
    expect(passes(constraint('n', 'NUM_LTE', { value: '5' }), n('5'))).toBe(true);
    expect(passes(constraint('n', 'NUM_LTE', { value: '5' }), n('abc'))).toBe(false);
    expect(passes(constraint('n', 'NUM_LT', { value: 'x' }), n('1'))).toBe(false);
    expect(passes(constraint('n', 'NUM_LT', { value: '5' }), ctx())).toBe(false);
    // A missing value is NaN, so even an inverted comparison is only the negation of false.
    expect(passes(constraint('n', 'NUM_LT', { value: '5', inverted: true }), ctx())).toBe(true);
  });

  it('DATE_AFTER / DATE_BEFORE compare currentTime (or now), strictly, whatever the contextName', () => {
    const after = constraint('anything', 'DATE_AFTER', { value: '2024-01-01T00:00:00.000Z' });
    const before = constraint('anything', 'DATE_BEFORE', { value: '2024-01-01T00:00:00.000Z' });
    expect(passes(after, ctx({ currentTime: '2024-01-01T00:00:00.001Z' }))).toBe(true);
    expect(passes(after, ctx({ currentTime: '2024-01-01T00:00:00.000Z' }))).toBe(false);
    expect(passes(before, ctx({ currentTime: '2023-12-31T23:59:59.999Z' }))).toBe(true);
    expect(passes(before, ctx({ currentTime: '2024-01-01T00:00:00.000Z' }))).toBe(false);
    const now = Date.parse('2030-06-01T00:00:00.000Z');
    expect(passes(after, ctx(), { now: () => now })).toBe(true);
    expect(passes(before, ctx(), { now: () => now })).toBe(false);
    expect(passes(constraint('currentTime', 'DATE_AFTER', { value: 'not a date' }), ctx({ currentTime: '2024-01-02T00:00:00Z' }))).toBe(false);
  });

  it('SEMVER_EQ / SEMVER_GT / SEMVER_LT: node-semver order; missing or invalid is false', () => {
    const v = (version: string) => ctx({ properties: { version } });
    expect(passes(constraint('version', 'SEMVER_EQ', { value: '1.2.3' }), v('1.2.3'))).toBe(true);
    expect(passes(constraint('version', 'SEMVER_EQ', { value: '1.2.3' }), v('1.2.4'))).toBe(false);
    expect(passes(constraint('version', 'SEMVER_GT', { value: '1.2.3' }), v('1.10.0'))).toBe(true);
    expect(passes(constraint('version', 'SEMVER_GT', { value: '1.2.3' }), v('1.2.3-beta'))).toBe(false);
    expect(passes(constraint('version', 'SEMVER_LT', { value: '1.2.3' }), v('1.2.3-beta'))).toBe(true);
    expect(passes(constraint('version', 'SEMVER_LT', { value: '1.2.3' }), v('2.0.0'))).toBe(false);
    expect(passes(constraint('version', 'SEMVER_EQ', { value: '1.2.3' }), v('not-semver'))).toBe(false);
    expect(passes(constraint('version', 'SEMVER_EQ', { value: '1.2.3' }), v('v1.2.3'))).toBe(false);
    expect(passes(constraint('version', 'SEMVER_EQ', { value: 'v1.2.3' }), v('1.2.3'))).toBe(false);
    expect(passes(constraint('version', 'SEMVER_LT', { value: '1.2.3' }), ctx())).toBe(false);
    expect(passes(constraint('version', 'SEMVER_LT', { value: '1.2.3', inverted: true }), ctx())).toBe(true);
  });

  it('SEMVER_GTE / SEMVER_LTE: node-semver order, equal included; missing or invalid is false', () => {
    const v = (version: string) => ctx({ properties: { version } });
    const gte = constraint('version', 'SEMVER_GTE', { value: '1.2.3' });
    const lte = constraint('version', 'SEMVER_LTE', { value: '1.2.3' });
    expect([passes(gte, v('1.2.3')), passes(gte, v('1.10.0')), passes(gte, v('1.2.2')), passes(gte, v('1.2.3-beta'))]).toEqual([true, true, false, false]);
    expect([passes(lte, v('1.2.3')), passes(lte, v('1.2.3-beta')), passes(lte, v('1.2.4')), passes(lte, v('0.9.0'))]).toEqual([true, true, false, true]);
    expect([passes(gte, v('v1.2.3')), passes(gte, v('not-semver')), passes(gte, ctx())]).toEqual([false, false, false]);
    expect(passes(constraint('version', 'SEMVER_GTE', { value: 'v1.0.0' }), v('2.0.0'))).toBe(false);
    expect(passes(constraint('version', 'SEMVER_LTE', { value: '1.2.3', inverted: true }), v('1.2.3'))).toBe(false);
    expect(passes(constraint('version', 'SEMVER_LTE', { value: '1.2.3', inverted: true }), ctx())).toBe(true);
  });

  it('REGEX: an unanchored RE2 search of the value; caseInsensitive as RE2\'s flag; missing value is false', () => {
    const u = (userId: string) => ctx({ userId });
    const contains = constraint('userId', 'REGEX', { value: 'cat' });
    expect([passes(contains, u('a cat b')), passes(contains, u('concatenate')), passes(contains, u('Cat'))]).toEqual([true, true, false]);
    const whole = constraint('userId', 'REGEX', { value: '^user\\d{3}$' });
    expect([passes(whole, u('user123')), passes(whole, u('user1234')), passes(whole, u('xuser123'))]).toEqual([true, false, false]);
    const ci = constraint('userId', 'REGEX', { value: '^abc$', caseInsensitive: true });
    expect([passes(ci, u('AbC')), passes(ci, u('zAbC'))]).toEqual([true, false]);
    expect(passes(constraint('userId', 'REGEX', { value: '(?i)^abc$' }), u('ABC'))).toBe(true);
    expect(passes(constraint('userId', 'REGEX', { value: '^[[:alpha:]]+$' }), u('Alpha'))).toBe(true);
    // A missing (or empty) value is false, so inverted it is true, as in SDKs.
    expect([passes(contains, ctx()), passes(constraint('userId', 'REGEX', { value: '^$' }), u(''))]).toEqual([false, false]);
    expect(passes(constraint('userId', 'REGEX', { value: 'cat', inverted: true }), ctx())).toBe(true);
    expect(passes(constraint('userId', 'REGEX', { value: 'cat', inverted: true }), u('cat'))).toBe(false);
    // Read from properties like any field.
    expect(passes(constraint('email', 'REGEX', { value: '@example\\.com$' }), ctx({ properties: { email: 'a@example.com' } }))).toBe(true);
  });

  it('REGEX: a pattern RE2 refuses (stored before the save-time check) or no pattern is false, as SDKs evaluate it', () => {
    for (const value of ['(regex', '^(?=a)b$', '(a)\\1', undefined]) {
      expect([value, passes(constraint('userId', 'REGEX', value === undefined ? {} : { value }), ctx({ userId: 'ab' }))]).toEqual([value, false]);
    }
    // `inverted` negates the operator's false, as unleash-client's checkConstraint does.
    expect(passes(constraint('userId', 'REGEX', { value: '(regex', inverted: true }), ctx({ userId: 'ab' }))).toBe(true);
  });

  it('REGEX runs in linear time: a pattern that backtracks catastrophically in a JavaScript engine answers at once', () => {
    const c = constraint('userId', 'REGEX', { value: '^(a+)+$' });
    expect(passes(c, ctx({ userId: `${'a'.repeat(50_000)}!` }))).toBe(false);
    expect(passes(c, ctx({ userId: 'a'.repeat(50_000) }))).toBe(true);
  });

  it('REGEX: each distinct pattern is compiled once, reused by later snapshots, and never compiled during evaluation', () => {
    const compileSpy = jest.spyOn(RE2JS, 'compile');
    try {
      // A pattern no other test compiles (compiled patterns outlive their snapshot).
      const shared = constraint('userId', 'REGEX', { value: '^u\\d+$|^only-in-this-test$' });
      const input = [
        feature('a', { strategies: [strategy('default', { constraints: [shared] }), strategy('default', { constraints: [{ ...shared }] })] }),
        feature('b', { strategies: [strategy('default', { segments: [1] })] }),
        feature('c', { strategies: [strategy('default', { constraints: [{ ...shared, caseInsensitive: true }] })] }),
      ];
      const snapshot = compile(input, [{ id: 1, name: 's', constraints: [{ ...shared }] }]);
      // One for the pattern, one more for it with the case-insensitive flag.
      expect(compileSpy).toHaveBeenCalledTimes(2);
      const [first, second] = snapshot.features[0].strategies.map((s) => s.constraints[0].regex);
      expect(first).toBeInstanceOf(RE2JS);
      expect(second).toBe(first);
      expect(snapshot.features[1].strategies[0].segments[0].constraints[0].regex).toBe(first);
      compileSpy.mockClear();
      for (let i = 0; i < 50; i++) {
        const context = ctx({ userId: `u${i}` });
        expect(evaluateFast(snapshot, context).map((d) => d.isEnabled)).toEqual([true, true, true]);
        expect(evaluate(snapshot, context, 'production').map((d) => d.isEnabled)).toEqual([true, true, true]);
      }
      expect(compileSpy).not.toHaveBeenCalled();
      // The next snapshot (after a change elsewhere) reuses the compiled patterns.
      const next = compile([...input, feature('d')], [{ id: 1, name: 's', constraints: [{ ...shared }] }]);
      expect(compileSpy).not.toHaveBeenCalled();
      expect(next.features[0].strategies[0].constraints[0].regex).toBe(first);
    } finally {
      compileSpy.mockRestore();
    }
  });

  it('REGEX, SEMVER_GTE and SEMVER_LTE agree with the official Node SDK (unleash-client) on every case', () => {
    const sdk = new SdkStrategy('default', true);
    const patterns = ['cat', '^cat$', '^(foo|fo)$', 'a.*?b', '(?m)^foo$', '(?s)a.b', '\\bcat\\b', '^[^@]+@[^@]+$', '(regex', '^(?=a)', 'ÄB', '^$', '.'];
    const inputs = [undefined, 'cat', 'CAT', 'a cat', 'concatenate', 'foo', 'fo', 'x\nfoo\ny', 'a\nb', 'a@b', 'äb', 'ÄB', '1'];
    const versions = [undefined, '1.2.3', '1.2.3-rc.1', '1.2.4', '0.1.0', 'v1.2.3', 'junk'];
    const cases: Array<{ c: Constraint; context: PlaygroundContext }> = [];
    for (const inverted of [false, true]) {
      for (const caseInsensitive of [false, true]) {
        for (const value of patterns) for (const userId of inputs) {
          cases.push({ c: constraint('userId', 'REGEX', { value, caseInsensitive, inverted }), context: ctx(userId === undefined ? {} : { userId }) });
        }
      }
      for (const operator of ['SEMVER_GTE', 'SEMVER_LTE']) {
        for (const version of versions) {
          cases.push({ c: constraint('version', operator, { value: '1.2.3', inverted }), context: ctx(version === undefined ? {} : { properties: { version } }) });
        }
      }
    }
    const disagreements = cases.filter(({ c, context }) => passes(c, context) !== sdk.isEnabledWithConstraints({}, context as never, [c].values() as never));
    expect(disagreements).toEqual([]);
    expect(cases.length).toBeGreaterThan(600);
  });

  it('inverted negates every operator', () => {
    expect(passes(constraint('region', 'IN', { values: ['eu'], inverted: true }), ctx({ properties: { region: 'eu' } }))).toBe(false);
    expect(passes(constraint('region', 'NOT_IN', { values: ['eu'], inverted: true }), ctx())).toBe(false);
    expect(passes(constraint('email', 'STR_CONTAINS', { values: ['@'], inverted: true }), ctx())).toBe(true);
    expect(passes(constraint('x', 'DATE_AFTER', { value: '2000-01-01T00:00:00Z', inverted: true }), ctx({ currentTime: '2024-01-01T00:00:00Z' }))).toBe(false);
  });

  it('an operator outside the 18 is false, inverted or not', () => {
    for (const operator of ['IN_CIDR', 'STR_MATCHES', 'constructor']) {
      expect(passes(constraint('x', operator, { values: ['a'] }), ctx({ properties: { x: 'a' } }))).toBe(false);
      expect(passes(constraint('x', operator, { values: ['a'], inverted: true }), ctx({ properties: { x: 'a' } }))).toBe(false);
    }
  });

  it('looks a field up at the top level when truthy, else in properties; an empty string is missing', () => {
    const c = constraint('userId', 'IN', { values: ['top'] });
    expect(passes(c, ctx({ userId: 'top', properties: { userId: 'prop' } }))).toBe(true);
    expect(passes(constraint('userId', 'IN', { values: ['prop'] }), ctx({ userId: '', properties: { userId: 'prop' } }))).toBe(true);
    expect(passes(constraint('tenant', 'IN', { values: ['acme'] }), ctx({ tenant: 'acme' }))).toBe(true);
    expect(passes(constraint('tenant', 'NOT_IN', { values: ['acme'] }), ctx({ tenant: '', properties: { tenant: '' } }))).toBe(true);
    // Inherited object members are not context values.
    expect(passes(constraint('constructor', 'STR_CONTAINS', { values: ['function'] }), ctx())).toBe(false);
  });

  it('environment is the context\'s own field, defaulting to "default" (the selected environment is not injected)', () => {
    const c = constraint('environment', 'IN', { values: ['production'] });
    expect(passes(c, ctx())).toBe(false);
    expect(passes(c, ctx({ environment: 'production' }))).toBe(true);
    expect(passes(constraint('environment', 'IN', { values: ['default'] }), ctx())).toBe(true);
  });
});

// ---- strategies -------------------------------------------------------------------------------------------------

describe('built-in strategies (reference §3.3)', () => {
  const enabled = (s: PlaygroundStrategyInput, context: PlaygroundContext, options?: EvaluationOptions) => one(feature('f1', { strategies: [s] }), context, options).isEnabled;

  it('default is always on', () => {
    expect(enabled(strategy('default'), ctx())).toBe(true);
  });

  it('userWithId matches the list split on commas with surrounding spaces', () => {
    const s = strategy('userWithId', { parameters: { userIds: 'alice,  bob ,carol' } });
    expect(enabled(s, ctx({ userId: 'bob' }))).toBe(true);
    expect(enabled(s, ctx({ userId: 'carol' }))).toBe(true);
    expect(enabled(s, ctx({ userId: 'dave' }))).toBe(false);
    expect(enabled(s, ctx())).toBe(false);
    // Only the top-level userId counts.
    expect(enabled(s, ctx({ properties: { userId: 'alice' } }))).toBe(false);
  });

  it('flexibleRollout buckets the stickiness id within groupId, boundary included', () => {
    // Bucket of user "1" in group "f1" is 39, of user "9" is 29.
    const at = (rollout: string, context: PlaygroundContext) => enabled(strategy('flexibleRollout', { parameters: { rollout, stickiness: 'default', groupId: 'f1' } }), context);
    expect(at('39', ctx({ userId: '1' }))).toBe(true);
    expect(at('38', ctx({ userId: '1' }))).toBe(false);
    expect(at('29', ctx({ userId: '9' }))).toBe(true);
    expect(at('28', ctx({ userId: '9' }))).toBe(false);
    expect(at('0', ctx({ userId: '1' }))).toBe(false);
    expect(at('100', ctx({ userId: '1' }))).toBe(true);
    // Default stickiness falls back to the sessionId.
    expect(at('39', ctx({ sessionId: '1' }))).toBe(true);
    expect(at('38', ctx({ sessionId: '1' }))).toBe(false);
  });

  it('flexibleRollout default stickiness without ids, and random stickiness, hash a random "1".."101"', () => {
    const bucketOf = (id: string) => normalizedValue(id, 'g', 100);
    // random() = 0.5 → "51"; the strategy is on exactly when the rollout reaches that bucket.
    for (const stickiness of ['default', 'random']) {
      const s = (rollout: number) => strategy('flexibleRollout', { parameters: { rollout: String(rollout), stickiness, groupId: 'g' } });
      expect(enabled(s(bucketOf('51')), ctx(), { random: fixedRandom(0.5) })).toBe(true);
      expect(enabled(s(bucketOf('51') - 1), ctx(), { random: fixedRandom(0.5) })).toBe(false);
    }
    // Random stickiness ignores the userId: user "51" is inside the rollout, the random id "1" is not.
    const rollout = bucketOf('1') - 1;
    expect(bucketOf('51')).toBeLessThanOrEqual(rollout);
    const s = (stickiness: string) => strategy('flexibleRollout', { parameters: { rollout: String(rollout), stickiness, groupId: 'g' } });
    expect(enabled(s('random'), ctx({ userId: '51' }), { random: fixedRandom(0) })).toBe(false);
    expect(enabled(s('default'), ctx({ userId: '51' }), { random: fixedRandom(0) })).toBe(true);
  });

  it('flexibleRollout custom stickiness uses that field and is off when it is missing', () => {
    const s = (rollout: number) => strategy('flexibleRollout', { parameters: { rollout: String(rollout), stickiness: 'tenant', groupId: 'g' } });
    const b = normalizedValue('acme', 'g', 100);
    expect(enabled(s(b), ctx({ properties: { tenant: 'acme' } }))).toBe(true);
    expect(enabled(s(b - 1), ctx({ properties: { tenant: 'acme' } }))).toBe(false);
    expect(enabled(s(100), ctx({ userId: '1' }))).toBe(false);
  });

  it('flexibleRollout without a groupId uses the context\'s featureToggle, else ""', () => {
    const s = (rollout: number) => strategy('flexibleRollout', { parameters: { rollout: String(rollout), stickiness: 'userId' } });
    expect(enabled(s(normalizedValue('7', '', 100)), ctx({ userId: '7' }))).toBe(true);
    expect(enabled(s(normalizedValue('7', '', 100) - 1), ctx({ userId: '7' }))).toBe(false);
    expect(enabled(s(normalizedValue('7', 'ft', 100)), ctx({ userId: '7', featureToggle: 'ft' }))).toBe(true);
    expect(enabled(s(normalizedValue('7', 'ft', 100) - 1), ctx({ userId: '7', featureToggle: 'ft' }))).toBe(false);
  });

  it('gradualRolloutUserId / gradualRolloutSessionId bucket their id and are off without it', () => {
    const user = (percentage: string) => strategy('gradualRolloutUserId', { parameters: { percentage, groupId: 'f1' } });
    expect(enabled(user('39'), ctx({ userId: '1' }))).toBe(true);
    expect(enabled(user('38'), ctx({ userId: '1' }))).toBe(false);
    expect(enabled(user('100'), ctx({ sessionId: '1' }))).toBe(false);
    const session = (percentage: string) => strategy('gradualRolloutSessionId', { parameters: { percentage, groupId: 'f1' } });
    expect(enabled(session('29'), ctx({ sessionId: '9' }))).toBe(true);
    expect(enabled(session('28'), ctx({ sessionId: '9' }))).toBe(false);
    expect(enabled(session('100'), ctx({ userId: '9' }))).toBe(false);
    expect(enabled(session('0'), ctx({ sessionId: '9' }))).toBe(false);
  });

  it('gradualRolloutRandom is on when percentage ≥ a random 1..100', () => {
    const s = strategy('gradualRolloutRandom', { parameters: { percentage: '50' } });
    expect(enabled(s, ctx(), { random: fixedRandom(0.49) })).toBe(true); // 50
    expect(enabled(s, ctx(), { random: fixedRandom(0.5) })).toBe(false); // 51
    expect(enabled(strategy('gradualRolloutRandom', { parameters: { percentage: '0' } }), ctx(), { random: fixedRandom(0) })).toBe(false);
    expect(enabled(strategy('gradualRolloutRandom', { parameters: { percentage: '100' } }), ctx(), { random: fixedRandom(0.999) })).toBe(true);
  });

  it('remoteAddress matches exactly or by IPv4 CIDR; invalid entries and IPv6 ranges never match by range', () => {
    const s = (IPs: string) => strategy('remoteAddress', { parameters: { IPs } });
    expect(enabled(s('10.0.0.1, 192.168.0.0/16'), ctx({ remoteAddress: '192.168.44.3' }))).toBe(true);
    expect(enabled(s('10.0.0.1, 192.168.0.0/16'), ctx({ remoteAddress: '10.0.0.1' }))).toBe(true);
    expect(enabled(s('10.0.0.1, 192.168.0.0/16'), ctx({ remoteAddress: '192.169.0.1' }))).toBe(false);
    expect(enabled(s('10.0.0.0/8'), ctx({ remoteAddress: '10.255.1.1' }))).toBe(true);
    expect(enabled(s('10.0.0.0/8'), ctx({ remoteAddress: '11.0.0.1' }))).toBe(false);
    expect(enabled(s('0.0.0.0/0'), ctx({ remoteAddress: '8.8.8.8' }))).toBe(true);
    expect(enabled(s('192.invalid, 10.1.2.3/32'), ctx({ remoteAddress: '10.1.2.3' }))).toBe(true);
    expect(enabled(s('192.invalid'), ctx({ remoteAddress: '192.invalid' }))).toBe(true);
    expect(enabled(s('10.0.0.0/8'), ctx({ remoteAddress: 'not-an-ip' }))).toBe(false);
    expect(enabled(s('::1'), ctx({ remoteAddress: '::1' }))).toBe(true);
    expect(enabled(s('2001:db8::/32'), ctx({ remoteAddress: '2001:db8::1' }))).toBe(false);
    expect(enabled(s('10.0.0.0/8'), ctx({ remoteAddress: '::ffff:10.0.0.1' }))).toBe(false);
    expect(enabled(s('10.0.0.0/8'), ctx())).toBe(false);
    expect(enabled(strategy('remoteAddress'), ctx({ remoteAddress: '10.0.0.1' }))).toBe(false);
  });

  it('applicationHostname and custom strategies are incomplete: unknown when constraints pass, else false', () => {
    for (const name of ['applicationHostname', 'myCustomStrategy']) {
      const r = one(feature('f', { strategies: [strategy(name, { parameters: { hostNames: 'a' } })] }), ctx());
      expect(r.strategies.data[0].result).toEqual({ enabled: 'unknown', evaluationStatus: 'incomplete' });
      expect(r.strategies.result).toBe('unknown');
      expect(r.isEnabled).toBe(false);
      const failing = one(feature('f', { strategies: [strategy(name, { constraints: [constraint('x', 'IN', { values: ['1'] })] })] }), ctx());
      expect(failing.strategies.data[0].result).toEqual({ enabled: false, evaluationStatus: 'incomplete' });
      expect(failing.strategies.result).toBe(false);
    }
  });

  it('a disabled strategy is unevaluated/unknown whatever its constraints, which are still listed', () => {
    const r = one(feature('f1', {
      strategies: [
        strategy('flexibleRollout', { sortOrder: 0, parameters: { rollout: '28', stickiness: 'default', groupId: 'f1' } }),
        strategy('default', { sortOrder: 1, disabled: true, constraints: [constraint('region', 'IN', { values: ['eu'] })] }),
      ],
    }), ctx({ userId: '9' }));
    expect(r.strategies.data[1].result).toEqual({ enabled: 'unknown', evaluationStatus: 'unevaluated' });
    expect(r.strategies.data[1].disabled).toBe(true);
    expect(r.strategies.data[1].constraints[0].result).toBe(false);
    expect(r.strategies.result).toBe('unknown');
    expect(r.isEnabled).toBe(false);
    expect(r.variant).toEqual({ name: 'disabled', enabled: false });
  });

  it('is true when any complete strategy is on, even next to unknown ones', () => {
    const r = one(feature('f', { strategies: [strategy('applicationHostname', { sortOrder: 0 }), strategy('default', { sortOrder: 1, disabled: true }), strategy('default', { sortOrder: 2 })] }), ctx());
    expect(r.strategies.result).toBe(true);
    expect(r.isEnabled).toBe(true);
  });

  it('evaluates strategies in sortOrder, and strategies even when the environment is off', () => {
    const r = one(feature('f', {
      enabled: false,
      strategies: [strategy('userWithId', { id: 'b', sortOrder: 2 }), strategy('default', { id: 'a', sortOrder: 1 }), strategy('default', { id: 'c', sortOrder: 3 })],
    }), ctx());
    expect(r.strategies.data.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(r.strategies.result).toBe(true);
    expect(r.isEnabledInCurrentEnvironment).toBe(false);
    expect(r.isEnabled).toBe(false);
  });

  it('without strategies, the result is the environment flag', () => {
    expect(one(feature('f', { strategies: [] }), ctx())).toMatchObject({ strategies: { result: true, data: [] }, isEnabled: true });
    expect(one(feature('f', { strategies: [], enabled: false }), ctx())).toMatchObject({ strategies: { result: false, data: [] }, isEnabled: false });
  });
});

// ---- segments -----------------------------------------------------------------------------------------------------

describe('segments (reference §3.2)', () => {
  const segments: PlaygroundSegmentInput[] = [
    { id: 1, name: 'eu-users', constraints: [constraint('region', 'IN', { values: ['eu'] })] },
    { id: 2, name: 'beta', constraints: [constraint('beta', 'IN', { values: ['yes'] }), constraint('version', 'SEMVER_GT', { value: '1.0.0' })] },
  ];

  it('all segments must pass; each lists its constraints with results', () => {
    const f = feature('f', { strategies: [strategy('default', { segments: [1, 2] })] });
    const on = one(f, ctx({ properties: { region: 'eu', beta: 'yes', version: '1.2.0' } }), undefined, segments);
    expect(on.isEnabled).toBe(true);
    expect(on.strategies.data[0].segments.map((s) => [s.id, s.name, s.result])).toEqual([[1, 'eu-users', true], [2, 'beta', true]]);
    const off = one(f, ctx({ properties: { region: 'eu', beta: 'yes', version: '0.9.0' } }), undefined, segments);
    expect(off.isEnabled).toBe(false);
    expect(off.strategies.data[0].result).toEqual({ enabled: false, evaluationStatus: 'complete' });
    expect(off.strategies.data[0].segments[1].result).toBe(false);
    expect(off.strategies.data[0].segments[1].constraints.map((c) => c.result)).toEqual([true, false]);
  });

  it('drops unknown segment ids silently', () => {
    const r = one(feature('f', { strategies: [strategy('default', { segments: [404, 1] })] }), ctx({ properties: { region: 'eu' } }), undefined, segments);
    expect(r.strategies.data[0].segments.map((s) => s.id)).toEqual([1]);
    expect(r.isEnabled).toBe(true);
    const onlyUnknown = one(feature('f', { strategies: [strategy('default', { segments: [404] })] }), ctx(), undefined, segments);
    expect(onlyUnknown.strategies.data[0].segments).toEqual([]);
    expect(onlyUnknown.isEnabled).toBe(true);
  });

  it('a failing segment makes an incomplete strategy false rather than unknown', () => {
    const r = one(feature('f', { strategies: [strategy('applicationHostname', { segments: [1] })] }), ctx(), undefined, segments);
    expect(r.strategies.data[0].result).toEqual({ enabled: false, evaluationStatus: 'incomplete' });
  });
});

// ---- variants -----------------------------------------------------------------------------------------------------

describe('variants (reference §3.5)', () => {
  it('picks by cumulative weight against the variant bucket (feature name as group id)', () => {
    // Bucket of user "1" in group "f1" over 1000 with the variant seed is 200.
    const pick = (firstWeight: number) => one(feature('f1', { variants: [variant('a', firstWeight), variant('b', 1000 - firstWeight)] }), ctx({ userId: '1' })).variant.name;
    expect(pick(200)).toBe('a');
    expect(pick(199)).toBe('b');
  });

  it('skips variants of weight 0 and gives none when the total weight is 0', () => {
    const zero = one(feature('f1', { variants: [variant('a', 0), variant('b', 1000)] }), ctx({ userId: '1' }));
    expect(zero.variant).toEqual({ name: 'b', enabled: true });
    const none = one(feature('f1', { variants: [variant('a', 0)] }), ctx({ userId: '1' }));
    expect(none.variant).toEqual({ name: 'disabled', enabled: false });
    expect(none.variants).toEqual([variant('a', 0)]);
  });

  it('returns the payload, and no payload key when the variant has none', () => {
    const r = one(feature('f1', { variants: [variant('a', 1000, { payload: { type: 'json', value: '{"x":1}' } })] }), ctx());
    expect(r.variant).toEqual({ name: 'a', enabled: true, payload: { type: 'json', value: '{"x":1}' } });
    const bare = one(feature('f1', { variants: [variant('a', 1000)] }), ctx());
    expect(Object.keys(bare.variant)).toEqual(['name', 'enabled']);
  });

  it('applies overrides first (exact, case-sensitive, top level then properties)', () => {
    const variants = [variant('a', 500), variant('b', 500, { overrides: [{ contextName: 'userId', values: ['1'] }, { contextName: 'tenant', values: ['acme'] }] })];
    // Without the override user "1" lands in bucket 200 → "a".
    expect(one(feature('f1', { variants: [variant('a', 500), variant('b', 500)] }), ctx({ userId: '1' })).variant.name).toBe('a');
    expect(one(feature('f1', { variants }), ctx({ userId: '1' })).variant.name).toBe('b');
    expect(one(feature('f1', { variants }), ctx({ userId: '2', properties: { tenant: 'acme' } })).variant.name).toBe('b');
    const upper = [variant('a', 1000), variant('b', 0, { overrides: [{ contextName: 'tenant', values: ['ACME'] }] })];
    expect(one(feature('f1', { variants: upper }), ctx({ properties: { tenant: 'acme' } })).variant.name).toBe('a');
  });

  it('uses the first variant\'s stickiness: a field, or userId/sessionId/remoteAddress, or a random "0".."100000"', () => {
    const withStickiness = (stickiness: string) => [variant('a', 500, { stickiness }), variant('b', 500, { stickiness })];
    const expected = (seed: string) => (normalizedValue(seed, 'f1', 1000, VARIANT_SEED) <= 500 ? 'a' : 'b');
    for (const tenant of ['t1', 't2', 't3', 't4', 't5', 't6']) {
      expect(one(feature('f1', { variants: withStickiness('tenant') }), ctx({ userId: 'u', properties: { tenant } })).variant.name).toBe(expected(tenant));
    }
    for (const remoteAddress of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']) {
      expect(one(feature('f1', { variants: withStickiness('default') }), ctx({ remoteAddress })).variant.name).toBe(expected(remoteAddress));
      expect(one(feature('f1', { variants: withStickiness('default') }), ctx({ sessionId: 's', remoteAddress })).variant.name).toBe(expected('s'));
    }
    // A missing stickiness field: random 0.42 → "42000".
    expect(one(feature('f1', { variants: withStickiness('tenant') }), ctx({ userId: 'u' }), { random: fixedRandom(0.42) }).variant.name).toBe(expected('42000'));
    expect(one(feature('f1', { variants: withStickiness('default') }), ctx(), { random: fixedRandom(0.42) }).variant.name).toBe(expected('42000'));
  });

  it('a strategy variant of the first enabling strategy wins over feature variants; its groupId is the parameter', () => {
    const strategyVariants = [strategyVariant('sa', 500, { payload: { type: 'string', value: 'x' } }), strategyVariant('sb', 500)];
    const f = feature('f1', {
      strategies: [
        strategy('userWithId', { sortOrder: 0, parameters: { userIds: 'nobody' }, variants: [strategyVariant('never', 1000)] }),
        strategy('flexibleRollout', { sortOrder: 1, parameters: { rollout: '100', stickiness: 'default', groupId: 'grp' }, variants: strategyVariants }),
      ],
      variants: [variant('feature-variant', 1000)],
    });
    for (const userId of ['1', '2', '3', '4', '5']) {
      const r = one(f, ctx({ userId }));
      const name = normalizedValue(userId, 'grp', 1000, VARIANT_SEED) <= 500 ? 'sa' : 'sb';
      expect(r.variant.name).toBe(name);
      expect(r.variants).toEqual(strategyVariants);
      expect(r.strategies.data[1].result).toEqual({
        enabled: true, evaluationStatus: 'complete', variant: name === 'sa' ? { name: 'sa', enabled: true, payload: { type: 'string', value: 'x' } } : { name: 'sb', enabled: true }, variants: strategyVariants,
      });
      expect(r.strategies.data[0].result).toEqual({ enabled: false, evaluationStatus: 'complete' });
    }
  });

  it('falls back to the feature variants when the enabling strategy has none; lists them even when disabled', () => {
    const featureVariants = [variant('fv', 1000)];
    const r = one(feature('f1', { variants: featureVariants }), ctx());
    expect(r.variant).toEqual({ name: 'fv', enabled: true });
    expect(r.variants).toEqual(featureVariants);
    const off = one(feature('f1', { enabled: false, variants: featureVariants }), ctx());
    expect(off.variant).toEqual({ name: 'disabled', enabled: false });
    expect(off.variants).toEqual(featureVariants);
    expect(one(feature('f1'), ctx()).variants).toEqual([]);
  });
});

// ---- dependencies -------------------------------------------------------------------------------------------------

describe('dependencies (reference §3.6)', () => {
  const parentOn = feature('parent-on');
  const parentOff = feature('parent-off', { enabled: false });
  const parentVariant = feature('parent-variant', { variants: [variant('blue', 1000)] });
  const parentRollout = feature('parent-rollout', { strategies: [strategy('userWithId', { parameters: { userIds: 'u1' } })] });
  const child = (dependencies: PlaygroundFeatureInput['dependencies'], over: Partial<PlaygroundFeatureInput> = {}) => feature('child', { dependencies, ...over });

  function run(childInput: PlaygroundFeatureInput, context: PlaygroundContext = ctx(), extra: PlaygroundFeatureInput[] = []) {
    const snapshot = compile([childInput, parentOn, parentOff, parentVariant, parentRollout, ...extra], []);
    const detailed = evaluate(snapshot, context, 'production').find((f) => f.name === 'child')!;
    const fast = evaluateFast(snapshot, context).find((f) => f.name === 'child')!;
    expect(fast.isEnabled).toBe(detailed.isEnabled);
    expect(fast.variant).toEqual(detailed.variant);
    expect(evaluateFeatureFast(snapshot, 'child', context)).toEqual(fast);
    return detailed;
  }

  it('needs the parent on (enabled defaults to true)', () => {
    expect(run(child([{ feature: 'parent-on', enabled: true }]))).toMatchObject({ isEnabled: true, hasUnsatisfiedDependency: false });
    expect(run(child([{ feature: 'parent-off', enabled: true }]))).toMatchObject({ isEnabled: false, hasUnsatisfiedDependency: true, variant: { name: 'disabled', enabled: false } });
    expect(run(child([{ feature: 'parent-rollout', enabled: true }]), ctx({ userId: 'u1' })).isEnabled).toBe(true);
    expect(run(child([{ feature: 'parent-rollout', enabled: true }]), ctx({ userId: 'u2' })).hasUnsatisfiedDependency).toBe(true);
  });

  it('enabled: false needs the parent off', () => {
    expect(run(child([{ feature: 'parent-off', enabled: false }])).isEnabled).toBe(true);
    expect(run(child([{ feature: 'parent-on', enabled: false }])).hasUnsatisfiedDependency).toBe(true);
  });

  it('variants: the parent\'s resolved variant must be listed', () => {
    expect(run(child([{ feature: 'parent-variant', enabled: true, variants: ['blue', 'red'] }])).isEnabled).toBe(true);
    expect(run(child([{ feature: 'parent-variant', enabled: true, variants: ['red'] }])).hasUnsatisfiedDependency).toBe(true);
    expect(run(child([{ feature: 'parent-on', enabled: true, variants: ['disabled'] }])).isEnabled).toBe(true);
    expect(run(child([{ feature: 'parent-off', enabled: true, variants: ['disabled'] }])).isEnabled).toBe(false);
  });

  it('every parent must be satisfied; a missing parent or one with its own dependencies never is', () => {
    expect(run(child([{ feature: 'parent-on', enabled: true }, { feature: 'parent-off', enabled: false }])).isEnabled).toBe(true);
    expect(run(child([{ feature: 'parent-on', enabled: true }, { feature: 'parent-off', enabled: true }])).isEnabled).toBe(false);
    expect(run(child([{ feature: 'nowhere', enabled: true }])).hasUnsatisfiedDependency).toBe(true);
    const middle = feature('middle', { dependencies: [{ feature: 'parent-on', enabled: true }] });
    expect(run(child([{ feature: 'middle', enabled: true }]), ctx(), [middle]).hasUnsatisfiedDependency).toBe(true);
  });

  it('a child switched on in the environment still reports its strategies; the flag shows the dependency', () => {
    const r = run(child([{ feature: 'parent-off', enabled: true }], { variants: [variant('v', 1000)] }));
    expect(r).toMatchObject({ isEnabledInCurrentEnvironment: true, hasUnsatisfiedDependency: true, isEnabled: false, strategies: { result: true } });
    expect(r.variant).toEqual({ name: 'disabled', enabled: false });
  });
});

// ---- result shape -------------------------------------------------------------------------------------------------

describe('the detailed result (spec: Playground evaluation result)', () => {
  it('has exactly the spec\'s fields, links.edit, constraint and segment results, and title only when set', () => {
    const input = feature('checkout', {
      project: 'shop',
      strategies: [
        strategy('flexibleRollout', {
          id: 'st-1', title: 'Half of Europe', sortOrder: 0,
          parameters: { rollout: '100', stickiness: 'default', groupId: 'checkout' },
          constraints: [constraint('region', 'IN', { values: ['eu'] }), constraint('version', 'SEMVER_LT', { value: '2.0.0', inverted: true })],
          segments: [7],
        }),
        strategy('default', { id: 'st-2', sortOrder: 1 }),
      ],
    });
    const segments = [{ id: 7, name: 'beta', constraints: [constraint('beta', 'IN', { values: ['yes'] })] }];
    const [result] = evaluate(compile([input], segments), ctx({ properties: { region: 'eu', version: '1.0.0' } }), 'production');
    expect(result).toEqual({
      name: 'checkout',
      projectId: 'shop',
      strategies: {
        result: true,
        data: [
          {
            name: 'flexibleRollout', id: 'st-1', title: 'Half of Europe', disabled: false,
            parameters: { rollout: '100', stickiness: 'default', groupId: 'checkout' },
            result: { enabled: false, evaluationStatus: 'complete' },
            constraints: [
              { contextName: 'region', operator: 'IN', values: ['eu'], caseInsensitive: false, inverted: false, result: true },
              { contextName: 'version', operator: 'SEMVER_LT', values: [], caseInsensitive: false, inverted: true, value: '2.0.0', result: false },
            ],
            segments: [{ id: 7, name: 'beta', result: false, constraints: [{ contextName: 'beta', operator: 'IN', values: ['yes'], caseInsensitive: false, inverted: false, result: false }] }],
            links: { edit: '/projects/shop/features/checkout/strategies/edit?environmentId=production&strategyId=st-1' },
          },
          {
            name: 'default', id: 'st-2', disabled: false, parameters: {},
            result: { enabled: true, evaluationStatus: 'complete' },
            constraints: [], segments: [],
            links: { edit: '/projects/shop/features/checkout/strategies/edit?environmentId=production&strategyId=st-2' },
          },
        ],
      },
      hasUnsatisfiedDependency: false,
      isEnabledInCurrentEnvironment: true,
      isEnabled: true,
      variant: { name: 'disabled', enabled: false },
      variants: [],
    });
    expect('title' in result.strategies.data[1]).toBe(false);
  });

  it('builds links for the environment passed, and keeps snapshot order', () => {
    const snapshot = compile([feature('b'), feature('a', { strategies: [strategy('default', { id: 'x' })] })], []);
    const results = evaluate(snapshot, ctx(), 'development');
    expect(results.map((r) => r.name)).toEqual(['b', 'a']);
    expect(results[1].strategies.data[0].links.edit).toBe('/projects/default/features/a/strategies/edit?environmentId=development&strategyId=x');
    expect(evaluate(snapshot, ctx(), 'production')[1].strategies.data[0].links.edit).toContain('environmentId=production&');
  });

  it('shares context-independent parts frozen, so a caller cannot corrupt the snapshot', () => {
    const snapshot = compile([feature('f', { strategies: [strategy('default', { constraints: [constraint('x', 'NOT_IN', { values: ['1'] })] })] })], []);
    const [r] = evaluate(snapshot, ctx(), 'production');
    expect(Object.isFrozen(r.strategies.data[0].constraints[0])).toBe(true);
    expect(Object.isFrozen(r.strategies.data[0].parameters)).toBe(true);
    expect(Object.isFrozen(r.variant)).toBe(true);
  });
});

// ---- fast path ------------------------------------------------------------------------------------------------------

describe('fast path', () => {
  it('agrees with the detailed result on isEnabled and variant across many contexts', () => {
    const features: PlaygroundFeatureInput[] = [];
    for (let i = 0; i < 40; i++) {
      features.push(feature(`f${i}`, {
        enabled: i % 5 !== 0,
        strategies: [
          strategy('flexibleRollout', {
            sortOrder: 0, disabled: i % 7 === 0,
            parameters: { rollout: String((i * 13) % 101), stickiness: i % 3 === 0 ? 'tenant' : 'default', groupId: `f${i}` },
            constraints: [constraint('region', i % 2 ? 'IN' : 'NOT_IN', { values: ['eu', 'us'] }), constraint('n', 'NUM_GT', { value: String(i % 10) })],
            variants: i % 4 === 0 ? [strategyVariant('on', 500), strategyVariant('off', 500)] : [],
          }),
          strategy(i % 6 === 0 ? 'applicationHostname' : 'userWithId', { sortOrder: 1, parameters: { userIds: 'u1,u3,u5' }, segments: i % 2 ? [1] : [] }),
        ],
        variants: i % 2 === 0 ? [variant('blue', 300), variant('green', 700, { overrides: [{ contextName: 'tenant', values: ['t2'] }] })] : [],
        dependencies: i % 9 === 8 ? [{ feature: `f${i - 1}`, enabled: true }] : [],
      }));
    }
    const segments = [{ id: 1, name: 's', constraints: [constraint('n', 'NUM_LT', { value: '8' })] }];
    const snapshot = compile(features, segments);
    for (let u = 0; u < 200; u++) {
      const context = ctx({ userId: `u${u}`, properties: { region: ['eu', 'us', 'ap'][u % 3], n: String(u % 12), tenant: `t${u % 4}` } });
      const detailed = evaluate(snapshot, context, 'production');
      const fast = evaluateFast(snapshot, context);
      expect(fast.map((d) => [d.name, d.isEnabled, d.variant])).toEqual(detailed.map((d) => [d.name, d.isEnabled, d.variant]));
    }
  });

  it('returns undefined for an unknown feature', () => {
    expect(evaluateFeatureFast(compile([feature('a')], []), 'b', ctx())).toBeUndefined();
  });
});
