import { describe, expect, it } from '@jest/globals';
import { isAllowed, type Grant } from '../../src/domain/access/rbac';

/** A grant of a root role (root-type permissions, and a root role's project permissions, which apply to `default`). */
const g = (permission: string, project: string | null = null, environment: string | null = null): Grant => ({ permission, project, environment, root: true });
/** A grant of a project role held in `project`. */
const inProject = (permission: string, project: string, environment: string | null = null): Grant => ({ permission, project, environment, root: false });

describe('isAllowed', () => {
  it('ADMIN passes every permission in every scope', () => {
    expect(isAllowed([g('ADMIN')], 'DELETE_PROJECT', { project: 'x' })).toBe(true);
    expect(isAllowed([g('ADMIN')], 'CREATE_FEATURE_STRATEGY', { project: 'x', environment: 'production' })).toBe(true);
  });
  it('NONE needs no grant at all', () => {
    expect(isAllowed([], 'NONE')).toBe(true);
  });
  it('matches permission, project and environment', () => {
    const grants = [g('UPDATE_PROJECT', 'default'), g('CREATE_FEATURE_STRATEGY', 'default', 'development'), g('CREATE_CONTEXT_FIELD')];
    expect(isAllowed(grants, 'UPDATE_PROJECT', { project: 'default' })).toBe(true);
    expect(isAllowed(grants, 'UPDATE_PROJECT', { project: 'other' })).toBe(false);
    expect(isAllowed(grants, 'CREATE_FEATURE_STRATEGY', { project: 'default', environment: 'development' })).toBe(true);
    expect(isAllowed(grants, 'CREATE_FEATURE_STRATEGY', { project: 'default', environment: 'production' })).toBe(false);
    expect(isAllowed(grants, 'CREATE_CONTEXT_FIELD')).toBe(true);
    expect(isAllowed(grants, 'DELETE_CONTEXT_FIELD')).toBe(false);
    expect(isAllowed([], 'CREATE_TAG_TYPE')).toBe(false);
  });
  it('a grant without environment covers every environment', () => {
    expect(isAllowed([g('UPDATE_FEATURE_ENVIRONMENT', 'default')], 'UPDATE_FEATURE_ENVIRONMENT', { project: 'default', environment: 'any' })).toBe(true);
  });
  it('a check that names no project is met only by a root-level grant, never by a project role', () => {
    expect(isAllowed([inProject('UPDATE_FEATURE', 'alpha')], 'UPDATE_FEATURE')).toBe(false);
    expect(isAllowed([inProject('UPDATE_FEATURE', 'default')], 'UPDATE_FEATURE')).toBe(false);
    expect(isAllowed([inProject('UPDATE_FEATURE', 'alpha')], 'UPDATE_FEATURE', { project: 'alpha' })).toBe(true);
    expect(isAllowed([inProject('UPDATE_FEATURE', 'alpha')], 'UPDATE_FEATURE', { project: 'beta' })).toBe(false);
    // An Editor's root role holds UPDATE_FEATURE (in `default` when a project is named) at root level.
    expect(isAllowed([g('UPDATE_FEATURE', 'default')], 'UPDATE_FEATURE')).toBe(true);
  });
  it('a grant limited to one environment does not meet a check that names no environment', () => {
    expect(isAllowed([inProject('UPDATE_FEATURE_ENVIRONMENT', 'alpha', 'production')], 'UPDATE_FEATURE_ENVIRONMENT', { project: 'alpha' })).toBe(false);
    expect(isAllowed([inProject('UPDATE_FEATURE_ENVIRONMENT', 'alpha', null)], 'UPDATE_FEATURE_ENVIRONMENT', { project: 'alpha' })).toBe(true);
  });
});
