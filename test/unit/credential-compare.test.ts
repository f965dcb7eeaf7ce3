import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { sameDigest } from '../../src/domain/access/authenticator';
import { hashPassword, hashToken, verifyPassword } from '../../src/domain/access/password';

/**
 * Issue 9, security: a credential is compared in constant time. Tokens and session ids are looked up by their
 * SHA-256 digest (a client controls the token, never the digest it is compared with) and the stored digest is then
 * compared with timingSafeEqual; a password's scrypt key likewise. The spies prove every comparison goes through it.
 */
// The module object itself (an `import * as` namespace would be a copy the code under test never calls through).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const crypto: typeof import('node:crypto') = require('node:crypto');
afterEach(() => { jest.restoreAllMocks(); });

describe('constant-time comparison of credentials', () => {
  it('token and session digests: timingSafeEqual decides, whether they match, differ in the first or in the last byte', () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    const digest = hashToken('*:*.secret-one');
    const first = (digest[0] === '0' ? '1' : '0') + digest.slice(1);
    const last = digest.slice(0, -1) + (digest.endsWith('0') ? '1' : '0');
    expect(sameDigest(digest, digest)).toBe(true);
    expect(sameDigest(digest, first)).toBe(false);
    expect(sameDigest(digest, last)).toBe(false);
    expect(spy).toHaveBeenCalledTimes(3);
    // A digest of another length (a corrupted row) is refused without comparing.
    expect(sameDigest(digest, digest.slice(2))).toBe(false);
  });

  it('passwords: the derived key is compared with timingSafeEqual; a wrong password and a user without one are refused', async () => {
    // The suites' lower cost (FLAGDECK_TEST_PASSWORD_LOG_N) holds only under NODE_ENV=test: a service never takes it.
    const saved = { cost: process.env.FLAGDECK_TEST_PASSWORD_LOG_N, mode: process.env.NODE_ENV };
    process.env.FLAGDECK_TEST_PASSWORD_LOG_N = '10';
    process.env.NODE_ENV = 'production';
    let stored: string;
    try {
      stored = await hashPassword('Correct-Horse-42');
    } finally {
      process.env.NODE_ENV = saved.mode;
      if (saved.cost === undefined) delete process.env.FLAGDECK_TEST_PASSWORD_LOG_N;
      else process.env.FLAGDECK_TEST_PASSWORD_LOG_N = saved.cost;
    }
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    expect(await verifyPassword('Correct-Horse-42', stored)).toBe(true);
    expect(await verifyPassword('Correct-Horse-43', stored)).toBe(false);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(await verifyPassword('Correct-Horse-42', null)).toBe(false);
    expect(stored).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(stored).not.toContain('Correct-Horse-42');
  });
});
