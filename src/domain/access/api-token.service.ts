import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiTokenSchema } from './api-token.entity';
import { SYSTEM_USER_ID, type Principal } from './principal';

/** Tokens are stored as SHA-256 digests: they carry 32+ random bytes, so a fast digest is enough, and a leaked table reveals no token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateAdminToken(): string {
  return `*:*.${randomBytes(32).toString('hex')}`;
}

interface CachedPrincipal {
  principal: Principal | null;
  expires: number;
}

/**
 * Resolves Authorization headers to principals. Lookups go by digest through the unique index, and the
 * stored digest is compared with `timingSafeEqual`; results are cached for a few seconds so a busy client
 * costs one query per TTL, not one per request.
 */
export class TokenResolver {
  private readonly cache = new Map<string, CachedPrincipal>();

  constructor(private readonly em: EntityManager, private readonly ttlMs = 10_000, private readonly maxEntries = 10_000) {}

  async resolve(header: string | undefined): Promise<Principal | null> {
    if (!header) return null;
    const token = header.replace(/^Bearer\s+/i, '').trim();
    if (!token || token.length > 512) return null;
    const digest = hashToken(token);
    const now = Date.now();
    const hit = this.cache.get(digest);
    if (hit && hit.expires > now) return hit.principal;
    const principal = await this.lookup(digest);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(digest, { principal, expires: now + this.ttlMs });
    return principal;
  }

  invalidate(): void {
    this.cache.clear();
  }

  private async lookup(digest: string): Promise<Principal | null> {
    const row = await this.em.fork().findOne(ApiTokenSchema, { secretHash: digest });
    if (!row) return null;
    const expected = Buffer.from(row.secretHash, 'hex');
    const given = Buffer.from(digest, 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    if (row.type !== 'admin') return null; // client and frontend tokens do not open the admin API
    return { kind: 'api-token', name: row.tokenName, userId: SYSTEM_USER_ID, isAdmin: true, rootRoleId: null };
  }
}

/**
 * Start-up: create each configured admin token that is absent; if no admin token exists at all, create one
 * and return its secret so the caller can print it once.
 */
export async function ensureAdminTokens(em: EntityManager, initTokens: string[]): Promise<{ created: string | null }> {
  const fork = em.fork();
  for (const token of initTokens) {
    const digest = hashToken(token);
    if (!(await fork.findOne(ApiTokenSchema, { secretHash: digest }))) {
      fork.create(ApiTokenSchema, { secretHash: digest, tokenName: 'admin', type: 'admin', projects: ['*'], environment: '*' });
    }
  }
  await fork.flush();
  if ((await fork.count(ApiTokenSchema, { type: 'admin' })) > 0) return { created: null };
  const secret = generateAdminToken();
  fork.create(ApiTokenSchema, { secretHash: hashToken(secret), tokenName: 'admin', type: 'admin', projects: ['*'], environment: '*' });
  await fork.flush();
  return { created: secret };
}
