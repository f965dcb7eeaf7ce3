import { describe, expect, it } from '@jest/globals';
import type { Constraint } from '../../src/domain/features/constraint.shapes';
import { compile, evaluate, evaluateFast } from '../../src/domain/playground/engine';
import type { PlaygroundContext, PlaygroundFeatureInput, PlaygroundStrategyInput } from '../../src/domain/playground/types';

/**
 * The engine looks names up in Maps and reads only own properties of what it is given (issue 8, defect 7): a name
 * that is a member of Object.prototype is an unknown operator or an absent value, never the inherited member.
 */

function strategy(name: string, over: Partial<PlaygroundStrategyInput> = {}): PlaygroundStrategyInput {
  return { id: `s-${name}`, name, title: null, disabled: false, sortOrder: 0, parameters: {}, constraints: [], variants: [], segments: [], ...over };
}
function feature(name: string, strategies: PlaygroundStrategyInput[]): PlaygroundFeatureInput {
  return { name, project: 'default', enabled: true, strategies, variants: [], dependencies: [] };
}
function constraint(contextName: string, operator: string, over: Partial<Constraint> = {}): Constraint {
  return { contextName, operator: operator as Constraint['operator'], values: [], caseInsensitive: false, inverted: false, ...over };
}

/** Whether the feature is enabled for the context, through both paths (they must agree). */
function enabled(input: PlaygroundFeatureInput, context: PlaygroundContext): boolean {
  const snapshot = compile([input], []);
  const detailed = evaluate(snapshot, context, 'production')[0];
  expect(evaluateFast(snapshot, context)[0].isEnabled).toBe(detailed.isEnabled);
  return detailed.isEnabled;
}

/** Runs `body` while Object.prototype carries a non-enumerable string member `name` (what a polluting library would leave). */
function withInherited(name: string, value: string, body: () => void): void {
  Object.defineProperty(Object.prototype, name, { value, configurable: true, writable: true, enumerable: false });
  try {
    body();
  } finally {
    delete (Object.prototype as Record<string, unknown>)[name];
  }
}

describe('names that are members of Object.prototype, in the evaluation engine', () => {
  it('an operator named after an Object.prototype member is unknown: false, inverted or not', () => {
    for (const operator of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__']) {
      for (const inverted of [false, true]) {
        const input = feature('f', [strategy('default', { constraints: [constraint('userId', operator, { values: ['u1'], value: 'u1', inverted })] })]);
        expect([operator, inverted, enabled(input, { appName: 'a', userId: 'u1' })]).toEqual([operator, inverted, false]);
        expect([operator, inverted, enabled(input, { appName: 'a', userId: 'u2' })]).toEqual([operator, inverted, false]);
      }
    }
  });

  it('a context field has only the value the context itself gives, never an inherited one', () => {
    const inField = feature('f', [strategy('default', { constraints: [constraint('region', 'IN', { values: ['eu'] })] })]);
    const sticky = feature('g', [strategy('flexibleRollout', { parameters: { rollout: '100', stickiness: 'region', groupId: 'g' } })]);
    withInherited('region', 'eu', () => {
      expect(enabled(inField, { appName: 'a' })).toBe(false);
      expect(enabled(inField, { appName: 'a', properties: {} })).toBe(false);
      expect(enabled(inField, { appName: 'a', properties: { region: 'eu' } })).toBe(true);
      expect(enabled(inField, { appName: 'a', region: 'eu' })).toBe(true);
      // Stickiness on the field: no value, no rollout.
      expect(enabled(sticky, { appName: 'a' })).toBe(false);
      expect(enabled(sticky, { appName: 'a', region: 'eu' })).toBe(true);
    });
    // Fields named after members of Object.prototype: own properties (as JSON.parse makes them, `__proto__` too) only.
    const proto = feature('f', [strategy('default', { constraints: [constraint('__proto__', 'IN', { values: ['yes'] })] })]);
    const ctor = feature('g', [strategy('default', { constraints: [constraint('constructor', 'NOT_IN', { values: ['no'] })] })]);
    expect(enabled(proto, JSON.parse('{"appName":"a","__proto__":"yes"}'))).toBe(true);
    expect(enabled(proto, JSON.parse('{"appName":"a","properties":{"__proto__":"yes"}}'))).toBe(true);
    expect(enabled(proto, JSON.parse('{"appName":"a","properties":{"__proto__":"no"}}'))).toBe(false);
    expect(enabled(proto, { appName: 'a' })).toBe(false);
    expect(enabled(ctor, { appName: 'a' })).toBe(true);
    expect(enabled(ctor, JSON.parse('{"appName":"a","properties":{"constructor":"no"}}'))).toBe(false);
  });

  it('a strategy parameter is one the strategy has, never an inherited one', () => {
    // Without a rollout of its own, flexibleRollout enables nobody; without userIds, userWithId matches nobody.
    const rollout = feature('f', [strategy('flexibleRollout', { parameters: { stickiness: 'default', groupId: 'f' } })]);
    const users = feature('g', [strategy('userWithId', { parameters: {} })]);
    withInherited('rollout', '100', () => {
      withInherited('userIds', 'u1', () => {
        expect(enabled(rollout, { appName: 'a', userId: 'u1' })).toBe(false);
        expect(enabled(users, { appName: 'a', userId: 'u1' })).toBe(false);
      });
    });
  });
});
