import { Router, type Request, type Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../domain/errors';
import { sendError } from './errors';
import { SESSION_COOKIE } from '../domain/access/authenticator';
import { SamlSignIn } from '../domain/access/saml-sign-in';
import type { Logger } from '../logger';
import { formBody } from '../request-guard';
import { readCookie } from './auth.routes';

/**
 * Sign-in requests one client address may start per minute (per instance). Each stores its request id for ten minutes,
 * so an anonymous caller must not be able to fill the table; a person signing in needs one or two.
 */
export const SAML_LOGINS_PER_MINUTE = 60;

/** A SAML response with its certificate chain and attributes is a few kB to a few tens of kB, base64. */
export const SAML_FORM_LIMIT = '256kb';

/**
 * The browser side of SAML sign-in (issue 10), under `/auth`, without credentials: `/auth/config` (the sign-in
 * methods on offer), `/auth/saml/metadata`, `/auth/saml/login`, the assertion consumer service
 * `/auth/saml/callback` (a form post from the IdP: its own form body door, not the JSON one), and single logout.
 */
export function samlRouter(em: EntityManager, publicUrl: string, logger: Logger, onLogout: () => void = () => {}): Router {
  const saml = new SamlSignIn(em, publicUrl, logger);
  const logins = new RateLimiterMemory({ points: SAML_LOGINS_PER_MINUTE, duration: 60 });
  const r = Router();

  r.get('/config', async (_req, res) => {
    res.json(await saml.config());
  });

  r.get('/saml/metadata', async (_req, res) => {
    res.type('application/samlmetadata+xml').send(await saml.metadata());
  });

  r.get('/saml/login', async (req: Request, res: Response) => {
    try {
      await logins.consume(req.ip ?? '');
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const wait = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
      res.setHeader('Retry-After', String(wait));
      return sendError(res, new TooManyRequestsError(`Too many sign-in requests from your address. Try again in ${wait} seconds.`, wait));
    }
    res.redirect(302, await saml.loginUrl(req.query.redirect));
  });

  r.post('/saml/callback', ...formBody(SAML_FORM_LIMIT), async (req: Request, res: Response) => {
    const { login, redirect } = await saml.acceptResponse(req.body as Record<string, unknown>);
    res.cookie(SESSION_COOKIE, login.sessionId, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/', expires: login.expiresAt });
    res.redirect(302, redirect);
  });

  r.get('/saml/logout', async (req: Request, res: Response) => {
    const target = await saml.logout(readCookie(req, SESSION_COOKIE));
    onLogout();
    res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' });
    res.redirect(302, target);
  });

  r.get('/saml/logout/callback', async (req: Request, res: Response) => {
    const q = req.originalUrl.indexOf('?');
    res.redirect(302, await saml.acceptLogoutResponse(req.query as Record<string, unknown>, q === -1 ? '' : req.originalUrl.slice(q + 1)));
  });
  return r;
}
