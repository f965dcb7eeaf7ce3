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
 * Repeated login failures are refused with 429 by rate-limiter-flexible (in memory, per instance: an account gets
 * LOGIN_FAILURES_PER_ACCOUNT failures per 15 minutes on each instance, an address LOGIN_FAILURES_PER_ADDRESS);
 * `loginAttempts` counts failures in the database for every instance. The links need no limiter: a token is 32
 * random bytes, and a password is hashed only for a valid one.
 */
export function authRouter(em: EntityManager, onCredentialsRevoked: () => void = () => {}): Router {
  const perAccount = new RateLimiterMemory({ points: LOGIN_FAILURES_PER_ACCOUNT, duration: WINDOW_SECONDS, blockDuration: WINDOW_SECONDS });
  const perAddress = new RateLimiterMemory({ points: LOGIN_FAILURES_PER_ADDRESS, duration: WINDOW_SECONDS, blockDuration: WINDOW_SECONDS });
  const sessions = new SessionService(em);
  const resets = new PasswordResetService(em, onCredentialsRevoked);
  const r = Router();

  const refusedFor = async (account: string, address: string): Promise<number> => {
    const [a, b] = await Promise.all([perAccount.get(account), perAddress.get(address)]);
    const blocked = [a && a.consumedPoints >= LOGIN_FAILURES_PER_ACCOUNT ? a : null, b && b.consumedPoints >= LOGIN_FAILURES_PER_ADDRESS ? b : null].filter((x): x is RateLimiterRes => x !== null);
    return blocked.length ? Math.max(...blocked.map((x) => Math.ceil(x.msBeforeNext / 1000))) : 0;
  };

  r.post('/simple/login', async (req: Request, res: Response) => {
    const account = typeof req.body?.username === 'string' ? `u:${req.body.username.toLowerCase().slice(0, 254)}` : 'u:';
    const address = `a:${req.ip ?? ''}`;
    const wait = await refusedFor(account, address);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return sendError(res, new TooManyRequestsError(`Too many failed logins. Try again in ${wait} seconds.`, wait));
    }
    try {
      const login = await sessions.login(req.body);
      await perAccount.delete(account);
      res.cookie(SESSION_COOKIE, login.sessionId, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/', expires: login.expiresAt });
      res.json(login.user);
    } catch (err) {
      if ((err as { name?: string }).name === 'AuthenticationRequired') {
        await Promise.all([perAccount.penalty(account, 1), perAddress.penalty(address, 1)]);
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
