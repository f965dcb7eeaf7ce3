import { describe, expect, it } from '@jest/globals';
import {
  constraintSentence, movedSortOrder, parameterSummary, strategyHeading, strategyMoveName, weightPercent,
} from '../../web/src/logic/flag-summary';

describe('the flag page summaries', () => {
  it('says what each built-in strategy does', () => {
    expect(parameterSummary('flexibleRollout', { rollout: '50', stickiness: 'userId', groupId: 'checkout' })).toBe('50% of userId, group id checkout');
    expect(parameterSummary('flexibleRollout', {})).toBe('100% of default');
    expect(parameterSummary('default', {})).toBe('On for everyone');
    expect(parameterSummary('userWithId', { userIds: 'a, b,,c' })).toBe('Users: a, b, c');
    expect(parameterSummary('remoteAddress', { IPs: '10.0.0.1' })).toBe('IPs: 10.0.0.1');
    expect(parameterSummary('gradualRolloutUserId', { percentage: 20, groupId: 'g' })).toBe('20% of userId, group id g');
    expect(parameterSummary('myCustom', { region: 'eu', n: 3 })).toBe('region: eu; n: 3');
    expect(parameterSummary('myCustom', null)).toBe('No parameters');
  });

  it('names a strategy by its title, else by its type', () => {
    expect(strategyHeading({ name: 'flexibleRollout', title: ' Beta users ' })).toBe('Beta users');
    expect(strategyHeading({ name: 'flexibleRollout', title: null })).toBe('Gradual rollout');
    expect(strategyMoveName({ name: 'flexibleRollout', title: '' })).toBe('flexibleRollout');
  });

  it('reads a constraint as a sentence, inverted and case-insensitive included', () => {
    expect(constraintSentence({ contextName: 'userId', operator: 'IN', values: ['a', 'b'], caseInsensitive: false, inverted: false })).toBe('userId is one of a, b');
    expect(constraintSentence({ contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@x.io'], caseInsensitive: true, inverted: true }))
      .toBe('email not ends with @x.io (case-insensitive)');
    expect(constraintSentence({ contextName: 'appVersion', operator: 'SEMVER_GT', values: [], value: '1.2.3', caseInsensitive: false, inverted: false }))
      .toBe('appVersion is a version after 1.2.3');
    expect(constraintSentence({ contextName: 'appVersion', operator: 'SEMVER_GTE', values: [], value: '1.2.3', caseInsensitive: false, inverted: false }))
      .toBe('appVersion is at least version 1.2.3');
    expect(constraintSentence({ contextName: 'appVersion', operator: 'SEMVER_LTE', values: [], value: '2.0.0', caseInsensitive: false, inverted: false }))
      .toBe('appVersion is at most version 2.0.0');
    expect(constraintSentence({ contextName: 'email', operator: 'REGEX', values: [], value: '@example\\.com$', caseInsensitive: true, inverted: false }))
      .toBe('email matches the pattern @example\\.com$ (case-insensitive)');
    const many = Array.from({ length: 12 }, (_, i) => `u${i}`);
    expect(constraintSentence({ contextName: 'userId', operator: 'IN', values: many, caseInsensitive: false, inverted: false })).toMatch(/u9 and 2 more$/);
  });

  it('shows weights as percentages', () => {
    expect(weightPercent(1000)).toBe('100%');
    expect(weightPercent(333)).toBe('33.3%');
  });

  it('moves a strategy up or down, renumbering the order, and refuses a move off the list', () => {
    expect(movedSortOrder(['a', 'b', 'c'], 1, -1)).toEqual([{ id: 'b', sortOrder: 0 }, { id: 'a', sortOrder: 1 }, { id: 'c', sortOrder: 2 }]);
    expect(movedSortOrder(['a', 'b', 'c'], 1, 1)).toEqual([{ id: 'a', sortOrder: 0 }, { id: 'c', sortOrder: 1 }, { id: 'b', sortOrder: 2 }]);
    expect(movedSortOrder(['a', 'b'], 0, -1)).toBeNull();
    expect(movedSortOrder(['a', 'b'], 1, 1)).toBeNull();
  });
});
