/** Who is calling. Resolved once per request from the Authorization header or the session cookie and passed to every service call. */
export interface Principal {
  kind: 'api-token' | 'user' | 'system';
  /** Written as `createdBy` on audit events: the token name, the username or email. */
  name: string;
  /** Written as `createdByUserId`; admin tokens use the system id -1337, as Unleash v5.8 does. */
  userId: number | null;
  /** Admin API tokens hold ADMIN and pass every permission check. */
  isAdmin: boolean;
  /** Root role of a user; permissions are read from it, its project roles and its groups' roles. */
  rootRoleId: number | null;
  /** API tokens: their type. Client and frontend tokens are refused on the admin API (403). */
  tokenType?: 'admin' | 'client' | 'frontend';
  /** API tokens: the token's row id (who acts, by id: see `actorKey`). */
  tokenId?: number;
  /** API tokens: the projects it reads (`['*']`: every project) and its environment (`*` for admin tokens). */
  tokenProjects?: string[];
  tokenEnvironment?: string;
  /** Users logged in with a session: the digest of its id (to keep this session when the password changes). */
  sessionHash?: string;
}

export const SYSTEM_USER_ID = -1337;

/**
 * Who acts, by id: `user:<id>` for a user (session or personal access token), `token:<id>` for an API token, `system`
 * for the service itself. Every "is this the same person" decision (author, reviewer, scheduler) compares these,
 * never display names, which another account may share or which may change.
 */
export function actorKey(p: Principal): string {
  if (p.kind === 'user' && p.userId !== null) return `user:${p.userId}`;
  if (p.kind === 'api-token' && p.tokenId !== undefined) return `token:${p.tokenId}`;
  return 'system';
}

export const systemPrincipal: Principal = { kind: 'system', name: 'unleash_system_user', userId: SYSTEM_USER_ID, isAdmin: true, rootRoleId: null };

/**
 * What an API token reads on the SDK doors (issue 14): a client or frontend token its own environment and projects
 * (`*`: all); an admin token, for every environment, the one the request names, else `default` (Unleash's choice; a
 * fresh database has no such environment, so an admin caller names one).
 */
export function tokenReadScope(principal: Principal, requestedEnvironment: string | undefined): { environment: string; projects: readonly string[] | '*' } {
  const tokenEnvironment = principal.tokenEnvironment;
  const environment = tokenEnvironment && tokenEnvironment !== '*' ? tokenEnvironment : (requestedEnvironment ?? 'default');
  const tokenProjects = principal.tokenProjects ?? ['*'];
  return { environment, projects: tokenProjects.includes('*') ? '*' : tokenProjects };
}
