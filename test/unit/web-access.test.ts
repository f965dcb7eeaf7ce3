import { describe, expect, it } from '@jest/globals';
import {
  accessRows, expiryIn, filterPeople, hasPassed, isCustomRole, isProjectRole, isRootRole, nextMembers, notYetHolding, pageOf, parseMappings,
  personDetail, personLabel, roleName, roleNames, SIGNUP_EXPIRY,
} from '../../web/src/logic/access';

/** The access-control pages' helpers (web/src/logic/access.ts). */
const people = [
  { id: 1, name: 'Ada Lovelace', username: 'ada', email: 'ada@example.com' },
  { id: 2, name: null, username: null, email: 'bob@example.com' },
  { id: 3, name: '  ', username: 'carol', email: null },
];

describe('access logic', () => {
  it('names a person by display name, else username, else email, and details the sign-in names not already shown', () => {
    expect(people.map(personLabel)).toEqual(['Ada Lovelace', 'bob@example.com', 'carol']);
    expect(people.map(personDetail)).toEqual(['ada · ada@example.com', '', '']);
    expect(personLabel({ id: 9 })).toBe('User 9');
  });

  it('finds people by any of their names, whatever the case, and all of them for a blank search', () => {
    expect(filterPeople(people, ' EXAMPLE ').map((p) => p.id)).toEqual([1, 2]);
    expect(filterPeople(people, 'car').map((p) => p.id)).toEqual([3]);
    expect(filterPeople(people, '').map((p) => p.id)).toEqual([1, 2, 3]);
  });

  it('pages a list, keeping the page asked for within the pages there are', () => {
    const items = Array.from({ length: 45 }, (_, i) => i);
    expect(pageOf(items, 1, 20)).toEqual({ items: items.slice(0, 20), pages: 3, page: 1 });
    expect(pageOf(items, 3, 20).items).toEqual([40, 41, 42, 43, 44]);
    expect(pageOf(items, 9, 20).page).toBe(3);
    expect(pageOf([], 1, 20)).toEqual({ items: [], pages: 1, page: 1 });
  });

  it('names roles by id and tells root, project and custom roles apart', () => {
    const roles = [{ id: 1, name: 'Admin', type: 'root' }, { id: 5, name: 'Member', type: 'project' }, { id: 7, name: 'Ops', type: 'root-custom' }, { id: 8, name: 'QA', type: 'custom' }];
    expect(roleName(roles, 7)).toBe('Ops');
    expect(roleName(roles, 99)).toBe('Role 99');
    expect(roleName(roles, null)).toBe('None');
    expect(roleNames(roles, [8, 5, 1])).toBe('Admin, Member, QA');
    expect(roles.filter(isRootRole).map((r) => r.id)).toEqual([1, 7]);
    expect(roles.filter(isProjectRole).map((r) => r.id)).toEqual([5, 8]);
    expect(roles.filter(isCustomRole).map((r) => r.id)).toEqual([7, 8]);
  });

  it('reads SSO group names typed by line or comma, each once', () => {
    expect(parseMappings(' devs, ops\n\nqa ,devs\n')).toEqual(['devs', 'ops', 'qa']);
    expect(parseMappings('  ')).toEqual([]);
  });

  it('adds and removes group members, each once, in the order they joined', () => {
    expect(nextMembers([3, 1], [2, 3], [1])).toEqual([3, 2]);
    expect(nextMembers([], [4, 4])).toEqual([4]);
  });

  it('computes expiries and whether an instant has passed', () => {
    const now = new Date('2026-05-01T12:00:00.000Z');
    expect(expiryIn(30, now)).toBe('2026-05-31T12:00:00.000Z');
    expect(hasPassed('2026-05-01T11:59:59.000Z', now)).toBe(true);
    expect(hasPassed('2026-05-02T00:00:00.000Z', now)).toBe(false);
    expect(hasPassed(null, now)).toBe(false);
    // The service caps a signup link at one month: nothing longer is offered.
    expect(Math.max(...SIGNUP_EXPIRY.map((c) => c.days))).toBeLessThanOrEqual(31);
  });

  it('lists a project\'s holders groups first, then users, each by name, and leaves holders out of those to add', () => {
    const rows = accessRows(
      [{ id: 2, email: 'zed@example.com', roles: [5] }, { id: 1, name: 'Ada', username: 'ada', roles: [4, 9] }],
      [{ id: 7, name: 'Ops', roles: [5], users: [{}, {}] }, { id: 6, name: 'Devs', roles: [4], users: [{}] }],
    );
    expect(rows.map((r) => `${r.kind}:${r.label}:${r.detail}:${r.roles.join('+')}`)).toEqual([
      'group:Devs:1 member:4', 'group:Ops:2 members:5', 'user:Ada:ada:4+9', 'user:zed@example.com::5',
    ]);
    expect(notYetHolding(people, [{ id: 2 }]).map((p) => p.id)).toEqual([1, 3]);
  });
});
