import { ADMIN, NONE } from './permissions';

/** A permission held by a principal, limited to a project and/or an environment (null means any). */
export interface Grant {
  permission: string;
  project: string | null;
  environment: string | null;
}

export interface Scope {
  project?: string;
  environment?: string;
}

/** Pure RBAC decision: ADMIN passes everything; NONE needs only an authenticated caller. */
export function isAllowed(grants: readonly Grant[], permission: string, scope: Scope = {}): boolean {
  if (permission === NONE) return true;
  return grants.some((g) =>
    g.permission === ADMIN
    || (g.permission === permission
      && (g.project === null || scope.project === undefined || g.project === scope.project)
      && (g.environment === null || scope.environment === undefined || g.environment === scope.environment)));
}
