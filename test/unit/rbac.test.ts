import { describe, expect, it } from '@jest/globals';
import { isAllowed, type Grant } from '../../src/domain/access/rbac';

const g = (permission: string, project: string | null = null, environment: string | null = null): Grant => ({ permission, project, environment });

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
});
