import { z } from 'zod';
import { resetSchema } from '../../../domain/access/password-reset.service';
import { TokenUser } from '../../../domain/access/password-reset.shapes';
import { loginSchema } from '../../../domain/access/session.service';
import { AuthConfig } from '../../../domain/access/sign-in.shapes';
import { signupSchema } from '../../../domain/access/signup-token.service';
import { User } from '../../../domain/access/user.shapes';
import type { RouteDocs } from '../describe';

const auth = 'Authentication';
const saml = 'SAML';
const signup = 'Signup tokens';

const SESSION_SET = 'Sets the session cookie `unleash-session` (HttpOnly, SameSite=Lax, two days; Secure when the request came over HTTPS, behind a proxy as TRUST_PROXY decides)';
const redirect = (where: string) => ({ description: 'Found: the browser goes on', headers: { Location: where } });

/**
 * The form the identity provider posts to the assertion consumer service. The route reads it without zod
 * (SamlSignIn.acceptResponse checks `SAMLResponse` itself); this describes what it accepts.
 */
const samlCallbackForm = z.object({
  SAMLResponse: z.string().describe('The base64 SAML response'),
  RelayState: z.string().optional().describe('The path to go to after sign-in, as given to /auth/saml/login'),
});

/** Sign-in, sign-out and password reset links under /auth, without credentials (src/rest/auth.routes.ts, saml.routes.ts). */
export const AUTH_DOCS: RouteDocs = {
  'GET /auth/config': { tag: auth, auth: 'public', summary: 'Which sign-in methods are on offer', responses: { 200: AuthConfig } },
  'POST /auth/simple/login': {
    tag: auth, auth: 'public', summary: 'Sign in with a username (or email) and password',
    description: 'Repeated failures for one account or from one address are refused for 15 minutes (429, with Retry-After).',
    body: loginSchema,
    responses: { 200: { description: `The signed-in user. ${SESSION_SET}.`, schema: User, headers: { 'Set-Cookie': SESSION_SET } } },
    errors: ['AuthenticationRequired', 'TooManyRequestsError'],
  },
  'POST /auth/logout': {
    tag: auth, auth: 'public', summary: 'Sign out', description: 'Ends the session of the `unleash-session` cookie (if any) and clears the cookie.',
    responses: { 200: z.object({}) },
  },
  'GET /auth/reset/validate': {
    tag: auth, auth: 'public', summary: 'Check a password reset or invite link',
    description: 'Answers the user the link\'s token belongs to. A token that is missing, unknown, expired or used is 401 InvalidTokenError.',
    query: z.object({ token: z.string().describe('The token of the link') }),
    // A body of another media type than JSON is refused (415) here too, as the spec lists for this route.
    responses: { 200: TokenUser }, errors: ['InvalidTokenError', 'UsedTokenError', 'ContentTypeerror'],
  },
  'POST /auth/reset/password': {
    tag: auth, auth: 'public', summary: 'Set a password with a reset or invite link',
    description: 'Uses the token up, ends every session of the user and their other links.',
    body: resetSchema, responses: { 200: null }, errors: ['InvalidTokenError', 'UsedTokenError'],
  },

  'GET /auth/saml/metadata': {
    tag: saml, auth: 'public', summary: 'The service provider metadata to set the identity provider up with',
    responses: { 200: { description: 'SAML 2.0 metadata (XML)', contentType: 'application/samlmetadata+xml', schema: z.string() } },
  },
  'GET /auth/saml/login': {
    tag: saml, auth: 'public', summary: 'Start SAML sign-in',
    description: 'Redirects to the identity provider with a signed request. 404 while SAML sign-in is not enabled; 429 (with Retry-After) when one address starts too many.',
    query: z.object({ redirect: z.string().optional().describe('A path of this service to go to after sign-in') }),
    responses: { 302: redirect('The identity provider\'s sign-on URL with the signed request') }, errors: ['NotFoundError', 'TooManyRequestsError'],
  },
  'POST /auth/saml/callback': {
    tag: saml, auth: 'public', summary: 'Receive the identity provider\'s answer (assertion consumer service)',
    description: 'Verifies the signed assertion and signs its user in (found by email; created when `autoCreate` allows). 401 for a response that fails a check, 403 for a user who may not sign in, 404 while SAML sign-in is not enabled.',
    body: samlCallbackForm, bodyContentType: 'application/x-www-form-urlencoded',
    responses: { 302: { description: `Signed in: on to the RelayState path or the start page. ${SESSION_SET}.`, headers: { Location: 'Where the browser goes next', 'Set-Cookie': SESSION_SET } } },
    errors: ['AuthenticationRequired', 'ForbiddenError', 'NotFoundError'],
  },
  'GET /auth/saml/logout': {
    tag: saml, auth: 'public', summary: 'Sign out, and out of the identity provider',
    description: 'Ends the session and clears its cookie; a session SAML opened goes on to the identity provider\'s sign-out URL (when set) with a signed request.',
    responses: { 302: redirect('The identity provider\'s sign-out URL, or the start page') },
  },
  'GET /auth/saml/logout/callback': {
    tag: saml, auth: 'public', summary: 'Receive the identity provider\'s sign-out answer',
    description: 'The signed LogoutResponse (HTTP-Redirect binding) must verify (401 otherwise).',
    query: z.object({
      SAMLResponse: z.string(), SigAlg: z.string(), Signature: z.string(), RelayState: z.string().optional(),
    }),
    responses: { 302: redirect('The start page') }, errors: ['AuthenticationRequired', 'NotFoundError'],
  },
};

/** The public side of signup tokens (src/rest/invite.routes.ts). */
export const INVITE_DOCS: RouteDocs = {
  'GET /invite/:secret/validate': {
    tag: signup, auth: 'public', summary: 'Check that an invite link can be used',
    description: '200 while the link is enabled and not expired; 400 ValidationError otherwise.',
    params: { secret: { description: 'The signup token\'s secret' } }, responses: { 200: null },
  },
  'POST /invite/:secret/signup': {
    tag: signup, auth: 'public', summary: 'Sign up with an invite link',
    description: 'Creates a user with the token\'s root role. 400 when the link cannot be used.',
    params: { secret: { description: 'The signup token\'s secret' } }, body: signupSchema, responses: { 201: User }, errors: ['NameExistsError'],
  },
};
