import { ADMIN, NONE } from './permissions';

/** A permission held by a principal, limited to a project and/or an environment (null means any). */
export interface Grant {
  permission: string;
  project: string | null;
  environment: string | null;
  /**
   * Held through a root role (the user's own or a group's), not a project role. A check that names no project is
   * met only by such a grant: membership of one project must not act on things every project shares.
   */
  root: boolean;
}

export interface Scope {
  project?: string;
  environment?: string;
}

/**
 * Pure RBAC decision: ADMIN passes everything; NONE needs only an authenticated caller. Otherwise a grant of the
 * permission must cover the scope: a scope without a project needs a root-level grant, and a scope without an
 * environment a grant that holds in every environment (a grant is never widened to places the check did not name).
 */
export function isAllowed(grants: readonly Grant[], permission: string, scope: Scope = {}): boolean {
  if (permission === NONE) return true;
  return grants.some((g) =>
    g.permission === ADMIN
    || (g.permission === permission
      && (scope.project === undefined ? g.root : g.project === null || g.project === scope.project)
      && (g.environment === null || g.environment === scope.environment)));
}
