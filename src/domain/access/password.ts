import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ValidationError } from '../errors';

/**
 * Passwords are hashed with scrypt from node:crypto: memory-hard (N = 2^15, r = 8 needs 32 MiB per hash, which is
 * what makes a GPU or ASIC guess expensive), part of Node itself (no native add-on to build on a bare machine, no
 * package to keep patched), and run on libuv's thread pool so a hash does not block the event loop. argon2id would
 * serve as well, but every maintained package for it ships a native binary. The stored form names its parameters,
 * so they can be raised later and old hashes still verify:
 *
 *   scrypt$<log2 N>$<r>$<p>$<salt, base64>$<hash, base64>
 */
const LOG_N = 15;

/**
 * The cost a new hash (and the check of an account without a password) uses: LOG_N, or under NODE_ENV=test the lower
 * FLAGDECK_TEST_PASSWORD_LOG_N (10 to 14) the test suites set: their thousands of sign-ins cost minutes of CPU at the
 * real cost. A hash records its own parameters, so what is checked is unchanged.
 */
function costLog(): number {
  const lowered = process.env.NODE_ENV === 'test' ? Number(process.env.FLAGDECK_TEST_PASSWORD_LOG_N) : Number.NaN;
  return Number.isInteger(lowered) && lowered >= 10 && lowered < LOG_N ? lowered : LOG_N;
}
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
/** Headroom over 128 · N · r bytes, the memory scrypt needs for these parameters. */
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const logN = costLog();
  const key = await derive(password, salt, { N: 2 ** logN, r: R, p: P, maxmem: MAX_MEMORY }, KEY_LENGTH);
  return ['scrypt', logN, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Constant-time comparison of the derived key; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) {
    // Spend the same time as a real check, so a response time does not tell whether the account has a password.
    await derive(password, DUMMY_SALT, { N: 2 ** costLog(), r: R, p: P, maxmem: MAX_MEMORY }, KEY_LENGTH);
    return false;
  }
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const n = Number(logN);
  if (!Number.isInteger(n) || n < 10 || n > 20) return false;
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: 2 ** n, r: Number(r), p: Number(p), maxmem: MAX_MEMORY }, expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const DUMMY_SALT = randomBytes(SALT_BYTES);

/**
 * Tokens (API and personal access tokens, sessions, reset links) are stored as SHA-256 digests: they carry 32+ random
 * bytes, so a fast digest is enough, and a leaked table reveals no token.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * The strength rule (Unleash's, from the OWASP guidelines): 10 to 128 characters with at least one upper-case
 * letter, one lower-case letter, one digit and one other character, and no character repeated three times in a row.
 * Every broken rule is listed in one 400, under `path`.
 */
export function checkPasswordStrength(password: string, path = 'password'): void {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(`be at least ${PASSWORD_MIN_LENGTH} characters long`);
  if (password.length > PASSWORD_MAX_LENGTH) problems.push(`be at most ${PASSWORD_MAX_LENGTH} characters long`);
  if (!/\p{Lu}/u.test(password)) problems.push('contain at least one upper-case letter');
  if (!/\p{Ll}/u.test(password)) problems.push('contain at least one lower-case letter');
  if (!/\p{Nd}/u.test(password)) problems.push('contain at least one number');
  if (!/[^\p{L}\p{Nd}]/u.test(password)) problems.push('contain at least one special character');
  if (/(.)\1\1/u.test(password)) problems.push('not repeat a character three or more times in a row');
  if (problems.length > 0) {
    throw ValidationError.single(path, `The password must ${problems.join(', ')}.`);
  }
}
