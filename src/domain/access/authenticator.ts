import { timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { apiTokenByDigest, personalTokenUser, sessionUser, type UserPrincipalRow } from './credential.store';
import { currentOrKept, type LastKnownPolicy } from '../last-known';
import { hashToken } from './password';
import { SYSTEM_USER_ID, type Principal } from './principal';

export { CREDENTIAL_LOOKUP } from './credential.store';

/** The session cookie's name (Unleash's, so a browser extension or script that knows it keeps working). */
export const SESSION_COOKIE = 'unleash-session';
/** Personal access tokens start with this, so the header tells which table to look in. */
export const PAT_PREFIX = 'user:';
/** Longer header values are not looked up: no secret flagdeck makes is near this long. */
export const MAX_TOKEN_LENGTH = 512;

/** The token of an Authorization header value: an optional `Bearer ` prefix (any case) and surrounding spaces dropped. */
export const tokenOf = (header: string): string => header.replace(/^Bearer\s+/i, '').trim();

interface Cached {
  principal: Principal | null;
  expires: number;
  /** When the database last said this credential is valid (API tokens only: what an outage's grace counts from). */
  verifiedAt?: number;
}

/**
 * API tokens through a database outage (issue 42): a token the database said is valid within `graceMs` keeps working
 * while the database is away, as the SDK doors' answers do (`policy`: src/domain/last-known.ts), so SDKs go on being
 * served from the last known state. A token never verified, or verified longer ago, gets the outage's 503.
 */
export interface CredentialGrace {
  graceMs: number;
  policy: LastKnownPolicy;
}

/**
 * Resolves credentials to principals: an API token or a personal access token in the Authorization header, or a
 * session id in the session cookie. Every secret is looked up by its SHA-256 digest through a unique index, and the
 * stored digest is compared with `timingSafeEqual`. Results are cached for `ttlMs` (default 1 s): a busy client costs
 * one query per second, and a token revoked or a user deleted on any instance stops working on every instance
 * within that second (the instance that revoked it forgets it at once).
 */
export class Authenticator {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly em: EntityManager, private readonly ttlMs = 1_000, private readonly maxEntries = 10_000,
    private readonly grace?: CredentialGrace,
  ) {}

  /** The principal of an Authorization header value, or null when it is absent or not valid now. */
  fromHeader(header: string | undefined): Promise<Principal | null> {
    if (!header) return Promise.resolve(null);
    const token = tokenOf(header);
    if (!token || token.length > MAX_TOKEN_LENGTH) return Promise.resolve(null);
    return token.startsWith(PAT_PREFIX)
      ? this.cached(`pat ${hashToken(token)}`, (digest) => this.personalToken(digest))
      : this.cached(`api ${hashToken(token)}`, (digest) => this.apiToken(digest), this.grace);
  }

  /** The principal of a session id from the cookie, or null. */
  fromSession(sessionId: string | undefined): Promise<Principal | null> {
    if (!sessionId || sessionId.length > 200) return Promise.resolve(null);
    return this.cached(`session ${hashToken(sessionId)}`, (digest) => this.session(digest));
  }

  /** Forget every cached principal (after a revocation on this instance). */
  invalidate(): void {
    this.cache.clear();
  }

  private async cached(key: string, lookup: (digest: string) => Promise<Principal | null>, grace?: CredentialGrace): Promise<Principal | null> {
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.expires > now) return hit.principal;
    const graced = grace && hit?.principal && hit.verifiedAt !== undefined && now - hit.verifiedAt < grace.graceMs ? hit : undefined;
    const served = await currentOrKept(grace?.policy, undefined, () => lookup(key.slice(key.indexOf(' ') + 1)),
      () => (graced ? { value: graced.principal, confirmedAt: graced.verifiedAt! } : undefined));
    // Kept through an outage: not cached again, so the grace still counts from the last real check.
    if (served.staleSince) return served.value;
    const principal = served.value;
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(key, { principal, expires: now + this.ttlMs, verifiedAt: grace && principal ? now : undefined });
    return principal;
  }

  private async apiToken(digest: string): Promise<Principal | null> {
    const row = await apiTokenByDigest(this.em.fork(), digest);
    if (!row || !sameDigest(row.secret_hash, digest)) return null;
    const tokenType = row.type === 'admin' ? 'admin' : row.type === 'frontend' ? 'frontend' : 'client';
    const tokenProjects = row.projects && row.projects.length ? row.projects : ['*'];
    return { kind: 'api-token', name: row.token_name, userId: SYSTEM_USER_ID, isAdmin: tokenType === 'admin', rootRoleId: null, tokenId: row.id, tokenType, tokenProjects, tokenEnvironment: row.environment };
  }

  private async personalToken(digest: string): Promise<Principal | null> {
    // Marks the token seen (at most once per cache period) in the statement that checks it.
    const row = await personalTokenUser(this.em.fork(), digest);
    if (!row || !sameDigest(row.secret_hash, digest)) return null;
    return userPrincipal(row);
  }

  private async session(digest: string): Promise<Principal | null> {
    const row = await sessionUser(this.em.fork(), digest);
    if (!row || !sameDigest(row.sid_hash, digest)) return null;
    return { ...userPrincipal(row), sessionHash: digest };
  }
}

/** A signed-in user's principal: named by username, else e-mail; rights from the current root role and grants. */
export const userPrincipal = (r: UserPrincipalRow): Principal => ({ kind: 'user', name: r.username ?? r.email ?? String(r.id), userId: r.id, isAdmin: false, rootRoleId: r.root_role_id });

/** Compares two hex digests in time that does not depend on where they differ (timingSafeEqual). */
export function sameDigest(stored: string, given: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
