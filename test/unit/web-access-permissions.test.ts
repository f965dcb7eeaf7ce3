import { describe, expect, it } from '@jest/globals';
import {
  groupState, keepOffered, permissionKey, permissionSummary, pickerGroups, selectionOf, toggleGroup, toggleKey, toPermissionInput, type PermissionListingLike,
} from '../../web/src/logic/access-permissions';

/** The custom role's permission picker (web/src/logic/access-permissions.ts). */
const env = (name: string) => ({
  name,
  permissions: [
    { id: 25, name: 'CREATE_FEATURE_STRATEGY', displayName: 'Create activation strategies', type: 'environment', environment: name },
    { id: 28, name: 'UPDATE_FEATURE_ENVIRONMENT', displayName: 'Enable/disable toggles', type: 'environment', environment: name },
  ],
});
const listing: PermissionListingLike = {
  root: [{ id: 3, name: 'CREATE_STRATEGY', displayName: 'Create activation strategies', type: 'root' }, { id: 20, name: 'READ_ROLE', displayName: 'Read roles', type: 'root' }],
  project: [{ id: 2, name: 'CREATE_FEATURE', displayName: 'Create feature toggles', type: 'project' }],
  environments: [env('development'), env('production')],
};

describe('permission picker logic', () => {
  it('offers a root role the root permissions, and a project role project permissions and each environment\'s', () => {
    expect(pickerGroups(listing, 'root-custom').map((g) => [g.title, g.items.length])).toEqual([['Root permissions', 2]]);
    expect(pickerGroups(listing, 'custom').map((g) => g.id)).toEqual(['project', 'env:development', 'env:production']);
    expect(pickerGroups(listing, 'custom')[2].items.map((i) => i.key)).toEqual(['CREATE_FEATURE_STRATEGY|production', 'UPDATE_FEATURE_ENVIRONMENT|production']);
  });

  it('shows the "every environment" group only for a role that holds an environment permission without an environment', () => {
    const held = selectionOf([{ id: 28, name: 'UPDATE_FEATURE_ENVIRONMENT', displayName: 'Enable/disable toggles', type: 'environment', environment: null }], 'custom');
    expect([...held]).toEqual(['UPDATE_FEATURE_ENVIRONMENT|']);
    expect(pickerGroups(listing, 'custom', held).map((g) => g.id)).toEqual(['project', 'env:*', 'env:development', 'env:production']);
  });

  it('reads a role\'s permissions as keys and writes them back as the role body takes them', () => {
    const held = selectionOf([
      { id: 2, name: 'CREATE_FEATURE', displayName: 'x', type: 'project', environment: null },
      { id: 25, name: 'CREATE_FEATURE_STRATEGY', displayName: 'x', type: 'environment', environment: 'production' },
    ], 'custom');
    expect(toPermissionInput(held)).toEqual([{ name: 'CREATE_FEATURE' }, { name: 'CREATE_FEATURE_STRATEGY', environment: 'production' }]);
    // A root role's permissions carry no environment.
    expect([...selectionOf([{ id: 25, name: 'CREATE_FEATURE_STRATEGY', displayName: 'x', type: 'environment', environment: 'production' }], 'root-custom')])
      .toEqual(['CREATE_FEATURE_STRATEGY|']);
  });

  it('toggles one permission and a whole group, and says how much of a group is chosen', () => {
    const [project, dev] = pickerGroups(listing, 'custom');
    let s = toggleKey(new Set(), permissionKey('CREATE_FEATURE_STRATEGY', 'development'));
    expect(groupState(dev, s)).toBe('some');
    s = toggleGroup(s, dev);
    expect(groupState(dev, s)).toBe('all');
    expect(groupState(project, s)).toBe('none');
    s = toggleGroup(s, dev);
    expect(s.size).toBe(0);
    expect(toggleKey(toggleKey(new Set(), 'A|'), 'A|').size).toBe(0);
  });

  it('drops what the groups no longer offer when the role\'s type changes', () => {
    const s = new Set([permissionKey('READ_ROLE'), permissionKey('CREATE_FEATURE')]);
    expect([...keepOffered(pickerGroups(listing, 'custom'), s)]).toEqual(['CREATE_FEATURE|']);
    expect([...keepOffered(pickerGroups(listing, 'root-custom'), s)]).toEqual(['READ_ROLE|']);
  });

  it('summarises a role\'s permissions in one line', () => {
    expect(permissionSummary([])).toBe('No permissions');
    expect(permissionSummary([...env('dev').permissions, { id: 2, name: 'CREATE_FEATURE', displayName: 'Create feature toggles', type: 'project' }], 2))
      .toBe('Create activation strategies (dev), Enable/disable toggles (dev) and 1 more');
  });
});
