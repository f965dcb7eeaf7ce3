import { describe, expect, it } from '@jest/globals';
import {
  defaultParameters, joinList, parameterErrorAt, parametersFromJson, splitList, stickinessChoices, toParameters, validateParameters, type ParameterDefinition,
} from '../../web/src/logic/strategy-parameters';

const rollout: ParameterDefinition[] = [
  { name: 'rollout', type: 'percentage', required: false },
  { name: 'stickiness', type: 'string', required: true },
  { name: 'groupId', type: 'string', required: true },
];
const custom: ParameterDefinition[] = [
  { name: 'tenants', type: 'list', required: true },
  { name: 'share', type: 'percentage', required: false },
  { name: 'limit', type: 'number', required: false },
  { name: 'beta', type: 'boolean', required: false },
  { name: 'note', type: 'string', required: false },
];

describe('web strategy parameter logic', () => {
  it('offers the built-in stickiness choices, then the stickiness-enabled context fields', () => {
    const fields = [{ name: 'userId', stickiness: false }, { name: 'tenant', stickiness: true }, { name: 'region', stickiness: false }, { name: 'sessionId', stickiness: true }];
    expect(stickinessChoices(fields)).toEqual(['default', 'userId', 'sessionId', 'random', 'tenant']);
    expect(stickinessChoices([], 'gone')).toEqual(['default', 'userId', 'sessionId', 'random', 'gone']);
  });

  it('starts a gradual rollout at 100% with the project stickiness and the flag as group id; others empty', () => {
    expect(defaultParameters('flexibleRollout', rollout, { featureName: 'f1', stickiness: 'userId' })).toEqual({ rollout: '100', stickiness: 'userId', groupId: 'f1' });
    expect(defaultParameters('flexibleRollout', [], { featureName: 'f1', stickiness: '' })).toEqual({ rollout: '100', stickiness: 'default', groupId: 'f1' });
    expect(defaultParameters('mine', custom, { featureName: 'f1', stickiness: 'default' })).toEqual({ tenants: '', share: '100', limit: '', beta: 'false', note: '' });
    expect(defaultParameters('default', [], { featureName: 'f1', stickiness: 'default' })).toEqual({});
  });

  it('checks required parameters, percentages, numbers and booleans', () => {
    expect(validateParameters(rollout, { rollout: '40', stickiness: 'default', groupId: 'f' })).toEqual({});
    expect(validateParameters(rollout, { rollout: '101', stickiness: '', groupId: ' ' })).toEqual({ rollout: 'A whole number from 0 to 100.', stickiness: 'Required.', groupId: 'Required.' });
    expect(validateParameters(rollout, { rollout: '4.5', stickiness: 'x', groupId: 'g' }).rollout).toBe('A whole number from 0 to 100.');
    expect(validateParameters(custom, { tenants: ' , ', limit: 'ten', beta: 'yes' })).toEqual({ tenants: 'Add at least one value.', limit: '"ten" is not a number.', beta: 'true or false.' });
    expect(validateParameters(custom, { tenants: 'a', limit: '', share: '' })).toEqual({});
  });

  it('sends every declared parameter as a string, lists comma-separated, keeping parameters the definition no longer declares', () => {
    expect(splitList(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
    expect(joinList(['a ', '', 'b'])).toBe('a,b');
    expect(toParameters(custom, { tenants: 'a , b', note: ' hi ', legacy: 'kept' })).toEqual({ tenants: 'a,b', share: '', limit: '', beta: 'false', note: 'hi', legacy: 'kept' });
    expect(parametersFromJson({ rollout: 40, beta: true, groupId: 'g', nested: { x: 1 } })).toEqual({ rollout: '40', beta: 'true', groupId: 'g' });
    expect(parametersFromJson(null)).toEqual({});
    expect([parameterErrorAt('parameters/rollout'), parameterErrorAt('parameters.groupId'), parameterErrorAt('constraints/0/value')]).toEqual(['rollout', 'groupId', null]);
  });
});
