import { describe, expect, it } from '@jest/globals';
import { RE2JS } from 're2js';
import { OPERATORS as SERVICE_OPERATORS } from '../../src/domain/features/constraint.shapes';
import {
  OPERATORS, constraintErrorAt, emptyConstraint, fromConstraint, hasErrors, isSemver, isoToPicker, pickerToIso, regexProblem,
  takesCaseInsensitive, toConstraintInput, validateConstraint, validateConstraints, valueKind, type ConstraintDraft,
} from '../../web/src/logic/constraints';

const draft = (patch: Partial<ConstraintDraft>): ConstraintDraft => ({ ...emptyConstraint('userId'), ...patch });

describe('web constraint editor logic', () => {
  it('offers the 15 operators of the contract and Unleash 8\'s three, each with its kind of value', () => {
    expect([...OPERATORS].sort()).toEqual([
      'DATE_AFTER', 'DATE_BEFORE', 'IN', 'NOT_IN', 'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE', 'REGEX',
      'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_GTE', 'SEMVER_LT', 'SEMVER_LTE', 'STR_CONTAINS', 'STR_ENDS_WITH', 'STR_STARTS_WITH',
    ]);
    // Exactly the operators the service accepts.
    expect([...OPERATORS].sort()).toEqual([...SERVICE_OPERATORS].sort());
    expect(OPERATORS.map((o) => `${o}:${valueKind(o)}`)).toEqual([
      'IN:list', 'NOT_IN:list', 'STR_CONTAINS:list', 'STR_STARTS_WITH:list', 'STR_ENDS_WITH:list', 'REGEX:regex',
      'NUM_EQ:number', 'NUM_GT:number', 'NUM_GTE:number', 'NUM_LT:number', 'NUM_LTE:number',
      'DATE_AFTER:date', 'DATE_BEFORE:date', 'SEMVER_EQ:semver', 'SEMVER_GT:semver', 'SEMVER_GTE:semver', 'SEMVER_LT:semver',
      'SEMVER_LTE:semver',
    ]);
    expect(OPERATORS.filter(takesCaseInsensitive)).toEqual(['STR_CONTAINS', 'STR_STARTS_WITH', 'STR_ENDS_WITH', 'REGEX']);
  });

  it('builds the mutation input with only the value slot the operator uses, and reads a stored constraint back', () => {
    const list = draft({ operator: 'IN', values: [' u1', 'u2', ''], value: 'stale', caseInsensitive: true, inverted: true });
    expect(toConstraintInput(list)).toEqual({ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'], caseInsensitive: true, inverted: true });
    const str = draft({ operator: 'STR_CONTAINS', values: ['a'], caseInsensitive: true });
    expect(toConstraintInput(str)).toEqual({ contextName: 'userId', operator: 'STR_CONTAINS', values: ['a'], caseInsensitive: true, inverted: false });
    const num = draft({ operator: 'NUM_GT', values: ['kept in the editor'], value: ' 4.5 ', caseInsensitive: true });
    expect(toConstraintInput(num)).toEqual({ contextName: 'userId', operator: 'NUM_GT', value: '4.5', caseInsensitive: false, inverted: false });
    const stored = { contextName: 'appName', operator: 'SEMVER_GT', values: [], value: '1.2.3', caseInsensitive: false, inverted: true };
    const back = fromConstraint(stored);
    expect(back).toMatchObject({ contextName: 'appName', operator: 'SEMVER_GT', values: [], value: '1.2.3', inverted: true });
    expect(toConstraintInput(back)).toEqual({ contextName: 'appName', operator: 'SEMVER_GT', value: '1.2.3', caseInsensitive: false, inverted: true });
    expect(fromConstraint({ contextName: 'x', operator: 'IN', values: null, value: null, caseInsensitive: null, inverted: null }))
      .toMatchObject({ values: [], value: '', caseInsensitive: false, inverted: false });
    expect(fromConstraint(stored).key).not.toBe(back.key);
    // A pattern is sent as typed (its spaces match), with its case switch.
    const regex = draft({ operator: 'REGEX', values: ['kept in the editor'], value: ' ^a b$', caseInsensitive: true, inverted: true });
    expect(toConstraintInput(regex)).toEqual({ contextName: 'userId', operator: 'REGEX', value: ' ^a b$', caseInsensitive: true, inverted: true });
    const gte = fromConstraint({ contextName: 'appVersion', operator: 'SEMVER_GTE', values: [], value: '2.0.0', caseInsensitive: false, inverted: false });
    expect(toConstraintInput({ ...gte, value: ' 2.0.0 ' })).toEqual({ contextName: 'appVersion', operator: 'SEMVER_GTE', value: '2.0.0', caseInsensitive: false, inverted: false });
  });

  it('needs at least one value for the list operators, and legal values when the field has them', () => {
    expect(validateConstraint(draft({ operator: 'IN', values: [] }))).toEqual({ values: 'Add at least one value.' });
    expect(validateConstraint(draft({ operator: 'STR_ENDS_WITH', values: ['  '] }))).toEqual({ values: 'Add at least one value.' });
    expect(validateConstraint(draft({ operator: 'IN', values: ['x'.repeat(101)] })).values).toMatch(/100 characters/);
    expect(validateConstraint(draft({ operator: 'IN', values: ['a', 'z'] }), ['a', 'b']).values).toBe('Not a legal value of userId: z.');
    expect(validateConstraint(draft({ operator: 'IN', values: ['a'] }), ['a', 'b'])).toEqual({});
    expect(validateConstraint(draft({ contextName: '' }))).toMatchObject({ contextName: 'Choose a context field.' });
    expect(validateConstraint(draft({ operator: 'IN_CIDR', values: ['a'] })).operator).toBe('Choose an operator.');
  });

  it('checks numbers, dates and semantic versions as the service does', () => {
    const num = (value: string) => validateConstraint(draft({ operator: 'NUM_LTE', value })).value;
    expect([num('1'), num('-2.5'), num('1e3'), num('.5')]).toEqual([undefined, undefined, undefined, undefined]);
    expect(num('')).toBe('Enter a number.');
    expect(num('12abc')).toBe('"12abc" is not a number.');
    expect(num('Infinity')).toMatch(/not a number/);
    const date = (value: string) => validateConstraint(draft({ operator: 'DATE_AFTER', value })).value;
    expect(date('2026-12-01T10:00:00.000Z')).toBeUndefined();
    expect(date('')).toBe('Choose a date and time.');
    expect(date('next tuesday')).toMatch(/not a date/);
    for (const ok of ['1.2.3', '0.0.0', '10.20.30', '1.2.3-beta', '1.2.3-beta.1', '1.0.0-alpha-a.b-c', '1.0.0-0.3.7']) expect([ok, isSemver(ok)]).toEqual([ok, true]);
    for (const bad of ['v1.2.3', '1.2', '1.2.3.4', '01.2.3', '1.2.3+build', '1.2.3-', '1.2.3-01', '=1.2.3', ' 1.2.3', 'x.y.z']) expect([bad, isSemver(bad)]).toEqual([bad, false]);
    expect(validateConstraint(draft({ operator: 'SEMVER_EQ', value: 'v1' })).value).toMatch(/not a semantic version/);
    expect(validateConstraint(draft({ operator: 'SEMVER_EQ', value: '' })).value).toMatch(/Enter a version/);
    expect(validateConstraint(draft({ operator: 'SEMVER_EQ', value: ' 1.2.3 ' }))).toEqual({});
    expect(validateConstraint(draft({ operator: 'SEMVER_GTE', value: '1.2' })).value).toMatch(/not a semantic version/);
    expect(validateConstraint(draft({ operator: 'SEMVER_LTE', value: '' })).value).toMatch(/Enter a version/);
    expect(validateConstraint(draft({ operator: 'SEMVER_LTE', value: '2.0.0-rc.1' }))).toEqual({});
  });

  it('needs a pattern of at most 100 characters for REGEX (a legal value when the field has them), and checks it with RE2', () => {
    const regex = (value: string, legal: string[] = []) => validateConstraint(draft({ operator: 'REGEX', value }), legal);
    expect(regex('^beta-\\d+$')).toEqual({});
    expect(regex('').value).toBe('Enter a regular expression, for example ^beta-.');
    expect(regex('a'.repeat(101)).value).toBe('A pattern is at most 100 characters.');
    expect(regex('a'.repeat(100))).toEqual({});
    expect(regex('^b', ['^a']).value).toBe('Not a legal value of userId: ^b.');
    expect(regex('^a', ['^a'])).toEqual({});
    // The syntax check needs re2js, which the editor row loads on demand; it compiles as the service does.
    expect(regexProblem('^beta-\\d+$', false, RE2JS)).toBeUndefined();
    expect(regexProblem('(?i)^[[:alpha:]]+$', true, RE2JS)).toBeUndefined();
    expect(regexProblem('(regex', false, RE2JS)).toBe('Not a regular expression RE2 accepts: missing closing ): `(regex`.');
    expect(regexProblem('^(?=a)b$', false, RE2JS)).toMatch(/^Not a regular expression RE2 accepts: invalid or unsupported Perl syntax/);
    expect(regexProblem('(a)\\1', true, RE2JS)).toMatch(/invalid escape sequence/);
  });

  it('validates a list against the known context fields and reports whether any has errors', () => {
    const legal = new Map<string, string[]>([['userId', []], ['environment', ['development', 'production']]]);
    const errors = validateConstraints([
      draft({ values: ['u1'] }),
      draft({ contextName: 'environment', values: ['staging'] }),
      draft({ contextName: 'nope', values: ['x'] }),
    ], legal);
    expect(errors).toEqual([{}, { values: 'Not a legal value of environment: staging.' }, { contextName: 'There is no context field named nope.' }]);
    expect(errors.map(hasErrors)).toEqual([false, true, true]);
  });

  it('places a refusal detail on the field its path names', () => {
    expect(constraintErrorAt('constraints/0/value')).toEqual({ index: 0, field: 'value' });
    expect(constraintErrorAt('constraints.2.values')).toEqual({ index: 2, field: 'values' });
    expect(constraintErrorAt('constraints/1/contextName')).toEqual({ index: 1, field: 'contextName' });
    expect(constraintErrorAt('constraints/3')).toEqual({ index: 3, field: 'value' });
    expect(constraintErrorAt('segments/0/constraints/1/value', 'segments/0/constraints')).toEqual({ index: 1, field: 'value' });
    expect(constraintErrorAt('parameters/rollout')).toBeNull();
    expect(constraintErrorAt('constraints')).toBeNull();
  });

  it('turns the date picker value (local time) into ISO 8601 and back', () => {
    const iso = pickerToIso('2026-12-01 10:30:00');
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(iso).getTime()).toBe(new Date(2026, 11, 1, 10, 30, 0).getTime());
    expect(isoToPicker(iso)).toBe('2026-12-01 10:30:00');
    expect(pickerToIso('2026-12-01')).toBe(new Date(2026, 11, 1).toISOString());
    expect([pickerToIso(null), pickerToIso(''), pickerToIso('soon')]).toEqual(['', '', '']);
    expect(isoToPicker('not a date')).toBeNull();
  });
});
