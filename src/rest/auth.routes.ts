import { Router, type Request, type Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SESSION_COOKIE } from '../domain/access/authenticator';
import { PasswordResetService } from '../domain/access/password-reset.service';
import { SessionService } from '../domain/access/session.service';
import { TooManyRequestsError } from '../domain/errors';
import { sendError } from './errors';

/** Failed logins allowed per account and per client address in a window, before login is refused for a while. */
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_FAILURES_PER_ADDRESS = 50;
const WINDOW_SECONDS = 15 * 60;

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * `/auth`: password login and logout (issue 9), and the password reset and invite links (issue 10, D10): checking a
 * link's token and setting a password with it need no credentials (an Authorization header is not read).
 * Repeated login failures are refused with 429 by rate-limiter-flexible (in memory, per instance: an account, by user
 * id whatever name spells it, gets LOGIN_FAILURES_PER_ACCOUNT failures per 15 minutes on each instance, an address
 * LOGIN_FAILURES_PER_ADDRESS; an attempt takes its point before the password is checked and a success gives it back);
 * `loginAttempts` counts failures in the database for every instance. The links need no limiter: a token is 32
 * random bytes, and a password is hashed only for a valid one.
 */
export function authRouter(em: EntityManager, onCredentialsRevoked: () => void = () => {}): Router {
  const perAccount = new RateLimiterMemory({ points: LOGIN_FAILURES_PER_ACCOUNT, duration: WINDOW_SECONDS, blockDuration: WINDOW_SECONDS });
  const perAddress = new RateLimiterMemory({ points: LOGIN_FAILURES_PER_ADDRESS, duration: WINDOW_SECONDS, blockDuration: WINDOW_SECONDS });
  const sessions = new SessionService(em);
  const resets = new PasswordResetService(em, onCredentialsRevoked);
  const r = Router();

  /**
   * Takes this attempt's point from the account's and the address's limits before the password is checked, so N
   * attempts at once cannot all pass a limit they would together exceed; a refused attempt is a 429.
   */
  const reserve = async (account: string, address: string): Promise<void> => {
    const outcomes = await Promise.allSettled([perAccount.consume(account), perAddress.consume(address)]);
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    if (refused.length === 0) return;
    const other = refused.find((x) => !(x instanceof RateLimiterRes));
    if (other) throw other;
    const wait = Math.max(1, ...refused.map((x: RateLimiterRes) => Math.ceil(x.msBeforeNext / 1000)));
    throw new TooManyRequestsError(`Too many failed logins. Try again in ${wait} seconds.`, wait);
  };

  r.post('/simple/login', async (req: Request, res: Response) => {
    const address = `a:${req.ip ?? ''}`;
    try {
      // The account is the user the name resolves to (by id: every spelling of one account shares its limit); a name
      // no user has is limited by itself.
      const login = await sessions.login(req.body, (account) => reserve(account, address));
      // A successful attempt gives its point back: only failures count.
      await Promise.all([perAccount.reward(login.account, 1), perAddress.reward(address, 1)]);
      res.cookie(SESSION_COOKIE, login.sessionId, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/', expires: login.expiresAt });
      res.json(login.user);
    } catch (err) {
      if (err instanceof TooManyRequestsError) {
        res.setHeader('Retry-After', String(err.retryAfterSeconds));
        return sendError(res, err);
      }
      throw err;
    }
  });

  r.post('/logout', async (req: Request, res: Response) => {
    await sessions.logout(readCookie(req, SESSION_COOKIE));
    onCredentialsRevoked();
    res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' });
    res.status(200).json({});
  });

  // Spec endpoint 18: the token in the query string (a repeated or absent `token` is not a token: 401).
  r.get('/reset/validate', async (req: Request, res: Response) => {
    res.json(await resets.validate(req.query.token));
  });
  // Unleash answers 200 with an empty body.
  r.post('/reset/password', async (req: Request, res: Response) => {
    await resets.reset(req.body);
    res.status(200).end();
  });
  return r;
}
