import { Router, type Request, type Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SESSION_COOKIE } from '../domain/access/authenticator';
import { SamlSignIn } from '../domain/access/saml-sign-in';
import type { Logger } from '../logger';
import { formBody } from '../request-guard';
import { readCookie } from './auth.routes';

/** A SAML response with its certificate chain and attributes is a few kB to a few tens of kB, base64. */
export const SAML_FORM_LIMIT = '256kb';

/**
 * The browser side of SAML sign-in (issue 10), under `/auth`, without credentials: `/auth/config` (the sign-in
 * methods on offer), `/auth/saml/metadata`, `/auth/saml/login`, the assertion consumer service
 * `/auth/saml/callback` (a form post from the IdP: its own form body door, not the JSON one), and single logout.
 */
export function samlRouter(em: EntityManager, publicUrl: string, logger: Logger, onLogout: () => void = () => {}): Router {
  const saml = new SamlSignIn(em, publicUrl, logger);
  const r = Router();

  r.get('/config', async (_req, res) => {
    res.json(await saml.config());
  });

  r.get('/saml/metadata', async (_req, res) => {
    res.type('application/samlmetadata+xml').send(await saml.metadata());
  });

  r.get('/saml/login', async (req: Request, res: Response) => {
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
