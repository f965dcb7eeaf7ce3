import { describe, expect, it } from '@jest/globals';
import {
  availableActions, requestLabel, countChanges, describeChange, findDraft, isOpen, scheduleInstant, strategyPayload, timeZoneLabel,
  type CurrentEnvironment,
} from '../../web/src/logic/change-requests';

const rollout = {
  id: 's1', name: 'flexibleRollout', title: 'Beta', disabled: false, sortOrder: 0,
  parameters: { rollout: '50', stickiness: 'default', groupId: 'f' },
  constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'], value: null, caseInsensitive: false, inverted: false }],
  segmentIds: [], variants: [],
};
const standard = { id: 's2', name: 'default', title: null, disabled: false, sortOrder: 1, parameters: {}, constraints: [], segmentIds: [], variants: [] };
const current: CurrentEnvironment = {
  enabled: false,
  strategies: [rollout, standard],
  variants: [{ name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', payload: null }, { name: 'red', weight: 500, weightType: 'variable', stickiness: 'default' }],
};

describe('change requests in the UI', () => {
  it('finds the caller\'s Draft for an environment, and counts its changes', () => {
    // Bob's Draft is not the caller's even if they shared a name: the service says whose each request is.
    const requests = [
      { id: 3, state: 'In review', environment: 'production', createdByMe: true },
      { id: 2, state: 'Draft', environment: 'production', createdByMe: false },
      { id: 1, state: 'Draft', environment: 'production', createdByMe: true },
      { id: 4, state: 'Draft', environment: 'development', createdByMe: true },
    ];
    expect(findDraft(requests, 'production')?.id).toBe(1);
    expect(findDraft(requests, 'staging')).toBeUndefined();
    expect(findDraft(requests.filter((r) => r.id !== 1), 'production')).toBeUndefined();
    expect(countChanges({ features: [{ changes: [1, 2] }, { changes: [3] }], segments: [{ changes: [4] }] })).toBe(4);
    expect(isOpen('Scheduled')).toBe(true);
    expect(isOpen('Applied')).toBe(false);
    expect(requestLabel(3, 'Change request #3')).toBe('Change request #3');
    expect(requestLabel(3, 'Faster checkout')).toBe('#3 Faster checkout');
  });

  it('offers only the moves the service would accept from this user', () => {
    const base = { isAuthor: false, canApprove: true, canApply: true, reviewed: false };
    expect(availableActions({ ...base, state: 'Draft', isAuthor: true })).toEqual(['Send to review', 'Cancel request']);
    // A reviewer of someone else's draft has nothing to do yet but may withdraw it (APPLY_CHANGE_REQUEST).
    expect(availableActions({ ...base, state: 'Draft' })).toEqual(['Cancel request']);
    expect(availableActions({ ...base, state: 'Draft', canApply: false })).toEqual([]);
    expect(availableActions({ ...base, state: 'In review' })).toEqual(['Approve', 'Reject', 'Cancel request']);
    // No self-approval, and one review per person.
    expect(availableActions({ ...base, state: 'In review', isAuthor: true })).toEqual(['Cancel request']);
    expect(availableActions({ ...base, state: 'In review', reviewed: true })).toEqual(['Cancel request']);
    expect(availableActions({ ...base, state: 'Approved' })).toEqual(['Reject', 'Apply', 'Schedule', 'Cancel request']);
    expect(availableActions({ ...base, state: 'Approved', canApply: false, canApprove: false })).toEqual([]);
    expect(availableActions({ ...base, state: 'Scheduled', reviewed: true })).toEqual(['Apply', 'Schedule', 'Cancel request']);
    for (const state of ['Applied', 'Cancelled', 'Rejected']) expect(availableActions({ ...base, state, isAuthor: true })).toEqual([]);
  });

  it('describes the switch, and says nothing moves when it is already so', () => {
    expect(describeChange({ action: 'updateEnabled', payload: { enabled: true } }, current, 'production'))
      .toEqual({ summary: 'Switch on in production', rows: [{ path: 'enabled', before: 'false', after: 'true' }] });
    expect(describeChange({ action: 'updateEnabled', payload: { enabled: false } }, current, 'production').rows).toEqual([]);
  });

  it('shows an edited strategy field by field against the current one, constraints as sentences', () => {
    const d = describeChange({
      action: 'updateStrategy',
      payload: { ...rollout, parameters: { ...rollout.parameters, rollout: '75' }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'], caseInsensitive: false, inverted: true }] },
    }, current, 'production');
    expect(d.summary).toBe('Change strategy “Beta”');
    expect(d.rows).toEqual([
      { path: 'constraints.0', before: '"userId is one of a, b"', after: '"userId not is one of a"' },
      { path: 'parameters.rollout', before: '"50"', after: '"75"' },
    ]);
    // A partial payload leaves the rest as it is.
    expect(describeChange({ action: 'updateStrategy', payload: { id: 's2', disabled: true } }, current, 'production').rows)
      .toEqual([{ path: 'disabled', before: 'false', after: 'true' }]);
  });

  it('describes added and deleted strategies, a reorder, and the variants by name', () => {
    const added = describeChange({ action: 'addStrategy', payload: { name: 'userWithId', parameters: { userIds: 'x' }, constraints: [] } }, current, 'production');
    expect(added.summary).toBe('Add strategy “User IDs”');
    expect(added.rows).toContainEqual({ path: 'parameters.userIds', after: '"x"' });
    expect(added.rows.every((r) => r.before === undefined)).toBe(true);

    const deleted = describeChange({ action: 'deleteStrategy', payload: { id: 's1' } }, current, 'production');
    expect(deleted.summary).toBe('Delete strategy “Beta”');
    expect(deleted.rows).toContainEqual({ path: 'parameters.rollout', before: '"50"' });
    // A strategy gone since the change was made: named by its id, nothing to compare.
    expect(describeChange({ action: 'deleteStrategy', payload: { id: 'gone' } }, current, 'production')).toEqual({ summary: 'Delete strategy “gone”', rows: [] });

    expect(describeChange({ action: 'reorderStrategy', payload: [{ id: 's1', sortOrder: 1 }, { id: 's2', sortOrder: 0 }] }, current, 'production').order)
      .toEqual({ before: ['Beta', 'Standard'], after: ['Standard', 'Beta'] });

    const variants = describeChange({
      action: 'patchVariant',
      payload: { variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } }] },
    }, current, 'production');
    expect(variants.rows).toEqual([{ path: 'blue', before: '"50%"', after: '"100% · string b"' }, { path: 'red', before: '"50%"' }]);
  });

  it('sends a strategy as a change payload without null fields', () => {
    expect(strategyPayload(rollout)).toEqual({
      name: 'flexibleRollout', title: 'Beta', disabled: false, parameters: rollout.parameters,
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'], caseInsensitive: false, inverted: false }], segments: [], variants: [],
    });
  });

  it('takes a picked local time as an instant in the future, and names the time zone', () => {
    const now = new Date(2030, 0, 1, 12, 0);
    expect(scheduleInstant('2030-01-02 09:30:00', now)).toEqual({ iso: new Date(2030, 0, 2, 9, 30).toISOString() });
    expect(scheduleInstant('2030-01-01 11:00', now)).toEqual({ error: 'The time must be in the future.' });
    expect(scheduleInstant(null, now)).toEqual({ error: 'Choose a date and time.' });
    expect(scheduleInstant('tomorrow', now)).toEqual({ error: 'Not a date and time.' });
    expect(timeZoneLabel(new Date(), 'Europe/Berlin')).toMatch(/^Europe\/Berlin, UTC[+-]\d\d:\d\d$/);
  });
});
