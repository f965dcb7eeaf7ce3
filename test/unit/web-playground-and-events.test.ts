import { describe, expect, it } from '@jest/globals';
import { jsonChanges } from '../../web/src/logic/json-diff';
import { addableFields, combinationsPerFlag, splitValues, toContextInput } from '../../web/src/logic/playground-context';
import { explain, resultWord, strategyBlocker, type WhyFeature, type WhyStrategy } from '../../web/src/logic/playground-why';

describe('the playground context form as GraphQL input', () => {
  it('puts the service\'s own fields at the top level, others in properties, and leaves blanks out', () => {
    expect(toContextInput(' app ', [
      { name: 'userId', value: 'alice' }, { name: 'sessionId', value: ' ' }, { name: 'region', value: 'eu ' }, { name: 'currentTime', value: '2024-01-01T00:00:00Z' },
    ])).toEqual({ appName: 'app', userId: 'alice', currentTime: '2024-01-01T00:00:00Z', properties: { region: 'eu' } });
    expect(toContextInput('a', [])).toEqual({ appName: 'a' });
    expect(toContextInput('a, b', [{ name: 'userId', value: 'alice, bob,' }, { name: 'tenant', value: ' , ' }], true)).toEqual({ appName: 'a,b', userId: 'alice,bob' });
  });

  it('splits comma-separated values and counts the combinations the advanced form asks for', () => {
    expect(splitValues('a, b,,a , c')).toEqual(['a', 'b', 'c']);
    expect(combinationsPerFlag(2, 'app', [{ name: 'userId', value: 'a,b,c' }, { name: 'region', value: 'eu,us' }, { name: 'x', value: '' }])).toBe(12);
  });

  it('offers only the context fields not on the form yet', () => {
    expect(addableFields(['appName', 'userId', 'region', 'tenant'], [{ name: 'userId', value: '' }])).toEqual(['region', 'tenant']);
  });
});

const strategy = (over: Partial<WhyStrategy> = {}): WhyStrategy => ({
  name: 'flexibleRollout', disabled: false, result: { enabled: true, evaluationStatus: 'complete' }, constraints: [], segments: [], ...over,
});
const feature = (over: Partial<WhyFeature> = {}): WhyFeature => ({
  isEnabled: true, isEnabledInCurrentEnvironment: true, hasUnsatisfiedDependency: false, strategies: { result: true, data: [strategy()] }, ...over,
});

describe('why a flag evaluated as it did', () => {
  it('names the environment switch, the dependency, the enabling strategy', () => {
    expect(explain(feature({ isEnabled: false, isEnabledInCurrentEnvironment: false }), 'production')).toBe('Disabled: the flag is switched off in production.');
    expect(explain(feature({ isEnabled: false, hasUnsatisfiedDependency: true }), 'dev')).toMatch(/parent flag/);
    expect(explain(feature(), 'dev')).toBe('Enabled by strategy 1. flexibleRollout.');
  });

  it('names the failed constraint, the segment, the rollout, and unknown results', () => {
    const failing = strategy({ result: { enabled: false, evaluationStatus: 'complete' }, constraints: [{ contextName: 'userId', operator: 'IN', inverted: false, result: false }] });
    expect(strategyBlocker(failing)).toBe('constraint userId IN failed');
    expect(explain(feature({ isEnabled: false, strategies: { result: false, data: [failing] } }), 'dev')).toBe('Disabled: no strategy enabled it (1. flexibleRollout: constraint userId IN failed).');
    expect(strategyBlocker(strategy({ result: { enabled: false, evaluationStatus: 'complete' }, segments: [{ name: 'beta', result: false }] }))).toBe('segment beta did not match');
    expect(strategyBlocker(strategy({ result: { enabled: false, evaluationStatus: 'complete' } }))).toMatch(/rollout/);
    expect(strategyBlocker(strategy({ disabled: true }))).toBe('the strategy is disabled');
    expect(explain(feature({ isEnabled: false, strategies: { result: 'unknown', data: [strategy({ result: { enabled: 'unknown', evaluationStatus: 'incomplete' } })] } }), 'dev')).toMatch(/^Unknown/);
    expect(explain(feature({ isEnabled: false, strategies: { result: false, data: [strategy({ disabled: true })] } }), 'dev')).toBe('Disabled: every strategy is disabled.');
    expect([resultWord(true), resultWord(false), resultWord('unknown')]).toEqual(['true', 'false', 'unknown']);
  });
});

describe('what an event changed', () => {
  it('lists the paths that differ, added and removed ones included', () => {
    expect(jsonChanges({ name: 'f', enabled: true, strategies: [{ id: 1 }], gone: 1 }, { name: 'f', enabled: false, strategies: [{ id: 1 }, { id: 2 }] })).toEqual([
      { path: 'enabled', before: 'true', after: 'false' },
      { path: 'gone', before: '1' },
      { path: 'strategies.1.id', after: '2' },
    ]);
    expect(jsonChanges(null, { a: {} })).toEqual([{ path: 'a', after: '{}' }]);
    expect(jsonChanges('x', 'y')).toEqual([{ path: '(root)', before: '"x"', after: '"y"' }]);
  });
});
