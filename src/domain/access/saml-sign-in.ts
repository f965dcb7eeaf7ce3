import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import type { CacheItem, CacheProvider, Profile } from '@node-saml/node-saml';
import type * as NodeSamlModule from '@node-saml/node-saml';
import type * as XmldomModule from '@xmldom/xmldom';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';
import { change } from '../change';
import { AuthenticationRequired, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { hashToken } from './password';
import { systemPrincipal } from './principal';
import { readSamlSettings, type StoredSamlSettings } from './saml-settings.read-model';
import type { AuthConfig } from './sign-in.shapes';
import { certificatePem, emailDomainList, SAML_PATHS, serviceProviderUrls, spSigningKey } from './saml-settings.service';
import {
  findSamlSession, insertRequestId, insertSamlSession, removeRequestId, requestIdValue, sweepExpiredMessageIds, useAssertionId,
} from './saml-sign-in.store';
import type { SigningKeyPair } from './self-signed';
import { startSession, SessionService, type Login } from './session.service';
import { userEventData } from './user.read-model';
import { rootRoleId } from './user.service';
import { insertUser, lockUserByEmail } from './user.store';

/**
 * node-saml and xmldom (with xml-crypto, xpath and xmlbuilder: tens of milliseconds of start-up and a few MiB of heap)
 * are loaded by the first SAML exchange, not at start: most installations never sign in with SAML.
 */
let libraries: { saml: typeof NodeSamlModule; xmldom: typeof XmldomModule } | undefined;
const samlLibraries = () => (libraries ??= {
  saml: require('@node-saml/node-saml') as typeof NodeSamlModule,
  xmldom: require('@xmldom/xmldom') as typeof XmldomModule,
});

/**
 * SAML 2.0 sign-in for the browser (issue 10), with @node-saml/node-saml doing the XML and the signatures.
 *
 * - Login: `GET /auth/saml/login` answers 302 to the IdP's `signOnUrl` with an AuthnRequest signed with the SP key
 *   (HTTP-Redirect binding). Its id is stored in `saml_message_ids` (kind `request`, 10 minutes), so the answer can
 *   arrive at any instance.
 * - Assertion consumer service: `POST /auth/saml/callback`. node-saml checks the assertion's signature against the
 *   settings' `certificate` (the assertion must be signed; a signed Response alone is not enough), the audience (the
 *   SP entity id), the time window (NotBefore/NotOnOrAfter, at most MAX_ASSERTION_AGE_MS after IssueInstant, with
 *   CLOCK_SKEW_MS of skew) and the Response's InResponseTo when present (it must name a request of ours, once). Here,
 *   for what node-saml reads but does not compare: the issuer of the assertion and of the Response must be the
 *   settings' `entityId`; the Response's Destination and every SubjectConfirmationData Recipient, when present, must
 *   be our ACS URL exactly (an assertion the IdP made for another SP must not sign anyone in here); an InResponseTo in
 *   the assertion's subject confirmation must be the Response's (which node-saml checked). The assertion id is
 *   recorded (kind `assertion`) for as long as the assertion could be valid: the same assertion is refused on every
 *   instance afterwards.
 * - The user is found by email, case-insensitively: the email attribute (`email`, `mail`, the urn:oid or the
 *   claims URI) or else an email NameID. An unknown user is created only when `autoCreate` is on and the email's
 *   domain is one of `emailDomains`, with `defaultRootRole` (event user-created, by the system user).
 * - Refusals: sign-in not enabled (or never configured): 404 NotFoundError; a response that fails a check:
 *   401 AuthenticationRequired saying which; a verified user who may not sign in: 403 ForbiddenError.
 * - Single logout: `GET /auth/saml/logout` ends the session here and, for a session SAML opened when `signOutUrl` is
 *   set, redirects to the IdP with a signed LogoutRequest; the IdP's LogoutResponse comes back to
 *   `GET /auth/saml/logout/callback` and must carry a valid signature, and a Destination, when present, that is that URL.
 *
 * Nothing here logs or records a SAML message, a session id or a key: log lines carry the refusal reason only.
 */

export { SAML_PATHS };

/** Skew accepted between our clock and the IdP's. */
export const CLOCK_SKEW_MS = 30_000;
/** An assertion older than this (from its IssueInstant) is refused whatever its NotOnOrAfter says. */
export const MAX_ASSERTION_AGE_MS = 60 * 60 * 1000;
/** How long an AuthnRequest or LogoutRequest of ours may be answered. */
export const REQUEST_TTL_MS = 10 * 60 * 1000;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const MAX_ID = 256;

const email = z.string().trim().max(254).pipe(z.email());
const EMAIL_ATTRIBUTES = ['email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const NAME_ATTRIBUTES = ['displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname', 'urn:oid:2.16.840.1.113730.3.1.241'];

/** A same-origin path to go to after sign-in (`/`, `/projects/x?y=1`), or undefined for anything else. */
export function safeRelayPath(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 1024 && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) && !value.includes('\\') ? value : undefined;
}

/** Issued request ids in `saml_message_ids` (node-saml's cache interface), so every instance can check an answer. */
class RequestIds implements CacheProvider {
  constructor(private readonly em: EntityManager) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    const saved = await insertRequestId(this.em, key, value, REQUEST_TTL_MS);
    await sweepExpiredMessageIds(this.em);
    return saved ? { value, createdAt: Date.now() } : null;
  }

  async getAsync(key: string): Promise<string | null> {
    if (!key || key.length > MAX_ID) return null;
    return (await requestIdValue(this.em, key)) ?? null;
  }

  async removeAsync(key: string | null): Promise<string | null> {
    if (!key || key.length > MAX_ID) return null;
    return (await removeRequestId(this.em, key)) ? key : null;
  }
}

/** Why node-saml refused a message, in words that hold no part of the message. */
function reasonOf(err: unknown, audience: string): string {
  const m = err instanceof Error ? err.message : '';
  if (err instanceof samlLibraries().saml.SamlStatusError) return 'the identity provider answered with an error status instead of an assertion';
  if (/signature/i.test(m)) return "its signature is missing or does not verify with the identity provider's certificate in the SAML settings";
  if (/expired|too old/i.test(m)) return 'it has expired (NotOnOrAfter, or older than an hour)';
  if (/not yet valid/i.test(m)) return 'it is not valid yet (NotBefore)';
  if (/audience/i.test(m)) return `it is meant for another audience than this service (${audience})`;
  if (/InResponseTo/i.test(m)) return 'it answers a sign-in request this service did not make, or one that was already answered or has expired';
  if (/subject confirmation/i.test(m)) return 'no subject confirmation of it is valid now';
  if (/assertion/i.test(m)) return 'it carries no single assertion';
  return 'it is not a SAML response this service can read';
}

/** The root element of a SAML message, read by xmldom as node-saml reads it; a parse error throws. */
function messageRoot(xml: string): Element {
  const fail = (msg: string) => { throw new Error(msg); };
  const root = new (samlLibraries().xmldom.DOMParser)({ errorHandler: { error: fail, fatalError: fail } }).parseFromString(xml, 'text/xml').documentElement;
  if (!root) throw new Error('not an XML document');
  return root;
}

/** An attribute of the message's root element (as `Destination`), or undefined when it is absent. */
const rootAttribute = (root: Element, name: string): string | undefined => root.getAttributeNode(name)?.value;

/** The text of each `Issuer` child of the message's root element (the Response's own, outside the assertion). */
const rootIssuers = (root: Element): string[] =>
  Array.from(root.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).localName === 'Issuer').map((n) => n.textContent ?? '');

/** The parts of the signed assertion read here, as node-saml parsed it (xml2js: attributes under `$`). */
interface SignedAssertion {
  $?: { ID?: unknown; IssueInstant?: unknown };
  Subject?: Array<{ SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<{ $?: Record<string, unknown> } | string> }> }>;
}
/** The attributes of every SubjectConfirmationData of the signed assertion. */
const confirmationData = (assertion: SignedAssertion | undefined): Array<Record<string, unknown>> =>
  (assertion?.Subject ?? []).flatMap((s) => s?.SubjectConfirmation ?? []).flatMap((c) => c?.SubjectConfirmationData ?? [])
    .map((d) => (typeof d === 'object' && d.$ ? d.$ : {}));

const inflate = promisify(inflateRaw);

type ProfileValues = Record<string, unknown>;
const firstString = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);

function emailOf(profile: Profile): string | undefined {
  const values = profile as unknown as ProfileValues;
  const candidates = [...EMAIL_ATTRIBUTES.map((a) => firstString(values[a])), profile.nameIDFormat === EMAIL_FORMAT || /@/.test(profile.nameID ?? '') ? profile.nameID : undefined];
  for (const c of candidates) {
    const parsed = c === undefined ? undefined : email.safeParse(c);
    if (parsed?.success) return parsed.data;
  }
  return undefined;
}

function nameOf(profile: Profile): string | null {
  const values = profile as unknown as ProfileValues;
  for (const a of NAME_ATTRIBUTES) {
    const v = firstString(values[a])?.trim();
    if (v) return v.slice(0, 255);
  }
  const given = firstString(values.givenName ?? values.firstName)?.trim();
  const family = firstString(values.sn ?? values.surname ?? values.lastName)?.trim();
  const joined = [given, family].filter(Boolean).join(' ');
  return joined ? joined.slice(0, 255) : null;
}

export interface SamlSignedIn {
  login: Login;
  /** Where the browser goes next: the RelayState when it is a same-origin path, else the start page. */
  redirect: string;
}

export class SamlSignIn {
  private readonly spEntityId: string;
  /** Our assertion consumer URL: what the metadata and AuthnRequests announce, and what Destination and Recipient must be. */
  private readonly acsUrl: string;
  private readonly logoutCallbackUrl: string;

  constructor(private readonly em: EntityManager, private readonly publicUrl: string, private readonly logger?: Logger) {
    const sp = serviceProviderUrls(publicUrl);
    this.spEntityId = sp.entityId;
    this.acsUrl = sp.acsUrl;
    this.logoutCallbackUrl = sp.logoutCallbackUrl;
  }

  /** GET /auth/config: which sign-in methods a client may offer. */
  async config(): Promise<AuthConfig> {
    const { settings, saved } = await readSamlSettings(this.em.fork());
    const enabled = saved && settings.enabled;
    return { password: true, saml: { enabled, loginUrl: enabled ? `${this.publicUrl}${SAML_PATHS.login}` : null } };
  }

  /** The SP metadata XML (served whether or not sign-in is enabled: the IdP is set up from it first). */
  async metadata(): Promise<string> {
    const sp = await spSigningKey(this.em.fork());
    return samlLibraries().saml.generateServiceProviderMetadata({
      issuer: this.spEntityId,
      callbackUrl: this.acsUrl,
      logoutCallbackUrl: this.logoutCallbackUrl,
      identifierFormat: EMAIL_FORMAT,
      wantAssertionsSigned: true,
      privateKey: sp.privateKey,
      publicCerts: sp.certificate,
      signatureAlgorithm: 'sha256',
    });
  }

  /** The IdP URL with a signed AuthnRequest; `redirect` (a same-origin path) comes back as the RelayState. */
  async loginUrl(redirect: unknown): Promise<string> {
    const em = this.em.fork();
    const { settings, sp } = await this.enabled(em);
    return this.client(em, settings, sp).getAuthorizeUrlAsync(safeRelayPath(redirect) ?? '', undefined, {});
  }

  /** Verifies a posted SAMLResponse and opens a session for its user. */
  async acceptResponse(form: Record<string, unknown>): Promise<SamlSignedIn> {
    const response = form.SAMLResponse;
    if (typeof response !== 'string' || response === '') throw ValidationError.single('SAMLResponse', 'The `SAMLResponse` form field is required. It was not present on the data you sent.');
    if (!/^[A-Za-z0-9+/\s]+={0,2}\s*$/.test(response)) throw ValidationError.single('SAMLResponse', 'The `SAMLResponse` form field must be base64.');
    const em = this.em.fork();
    const { settings, sp } = await this.enabled(em);
    let profile: Profile | null;
    try {
      ({ profile } = await this.client(em, settings, sp).validatePostResponseAsync({ SAMLResponse: response }));
    } catch (err) {
      throw this.refuse(reasonOf(err, this.spEntityId));
    }
    if (!profile) throw this.refuse('it carries no assertion');
    if (profile.issuer !== settings.entityId) throw this.refuse('it was issued by another identity provider than the `entityId` of the SAML settings');
    const signed = (profile.getAssertion?.() as { Assertion?: SignedAssertion } | undefined)?.Assertion;
    this.checkAddressedToUs(profile, signed, settings.entityId);
    const assertion = signed?.$;
    const assertionId = assertion?.ID;
    const issuedAt = Date.parse(String(assertion?.IssueInstant));
    if (typeof assertionId !== 'string' || assertionId === '' || assertionId.length > MAX_ID || Number.isNaN(issuedAt)) throw this.refuse('its assertion has no usable ID or IssueInstant');
    const address = emailOf(profile);
    if (!address) throw this.refuse('its assertion names no email address (an email attribute or an email NameID)');

    // The assertion is used up before anything else can fail: a response is good for one sign-in attempt, whatever
    // becomes of it (and a refusal cannot be turned into a sign-in later by changing the settings). The row lives as
    // long as node-saml would accept the assertion: at most MAX_ASSERTION_AGE_MS after IssueInstant, plus the skew.
    const fresh = await useAssertionId(em, assertionId, new Date(issuedAt + MAX_ASSERTION_AGE_MS + CLOCK_SKEW_MS));
    if (!fresh) throw this.refuse('it was already used to sign in (a SAML response is good for one sign-in)');

    const name = nameOf(profile);
    const session = { nameId: profile.nameID, format: profile.nameIDFormat ?? null, sessionIndex: profile.sessionIndex ?? null };
    const signIn = () => change(em, systemPrincipal, async (tx, emit) => {
      let userId = await lockUserByEmail(tx, address);
      if (userId === undefined) {
        if (!settings.autoCreate) throw new ForbiddenError(`There is no user with the email ${address}, and the SAML settings do not create users (autoCreate is off). Ask an admin to create your user.`);
        const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
        if (!emailDomainList(settings.emailDomains).includes(domain)) {
          throw new ForbiddenError(`There is no user with the email ${address}, and users are created automatically only for the email domains in the SAML settings, which do not include ${domain}.`);
        }
        const roleId = await rootRoleId(tx, settings.defaultRootRole, 'defaultRootRole');
        const user = await insertUser(tx, { name, username: null, email: address, passwordHash: null, rootRoleId: roleId });
        emit({ type: 'user-created', data: { ...userEventData(user), source: 'saml' } });
        userId = user.id;
      }
      const login = await startSession(tx, userId);
      await insertSamlSession(tx, hashToken(login.sessionId), session);
      return login;
    });
    let login: Login;
    try {
      login = await signIn();
    } catch (err) {
      // The first sign-in of a new user on two instances at once: one insert wins, the other finds the user now.
      const e = err as { code?: unknown; sqlState?: unknown };
      if (e.code !== '23505' && e.sqlState !== '23505') throw err;
      login = await signIn();
    }
    this.logger?.info({ userId: login.user.id }, 'SAML sign-in');
    return { login, redirect: `${this.publicUrl}${safeRelayPath(form.RelayState) ?? '/'}` };
  }

  /**
   * Ends the session (any kind) and says where the browser goes: for a session SAML opened, when `signOutUrl` is set,
   * the IdP with a signed LogoutRequest; otherwise the start page.
   */
  async logout(sessionId: string | undefined): Promise<string> {
    const em = this.em.fork();
    const home = `${this.publicUrl}/`;
    if (!sessionId || sessionId.length > 200) return home;
    const row = await findSamlSession(em, hashToken(sessionId));
    await new SessionService(em).logout(sessionId);
    const { settings, saved } = await readSamlSettings(em);
    if (!row || !saved || !settings.enabled || !settings.signOutUrl || !settings.certificate) return home;
    const sp = await spSigningKey(em);
    const profile: Profile = { issuer: this.spEntityId, nameID: row.nameId, nameIDFormat: row.nameIdFormat ?? EMAIL_FORMAT, ...(row.sessionIndex ? { sessionIndex: row.sessionIndex } : {}) };
    return this.client(em, settings, sp).getLogoutUrlAsync(profile, '', {});
  }

  /** The IdP's signed LogoutResponse (HTTP-Redirect binding): verified, then the browser goes to the start page. */
  async acceptLogoutResponse(query: Record<string, unknown>, originalQuery: string): Promise<string> {
    const em = this.em.fork();
    const { settings, sp } = await this.enabled(em);
    if (typeof query.SAMLResponse !== 'string' || typeof query.Signature !== 'string' || typeof query.SigAlg !== 'string') {
      throw new AuthenticationRequired('The logout response must carry SAMLResponse, SigAlg and Signature query parameters (a signed HTTP-Redirect LogoutResponse).');
    }
    let destination: string | undefined;
    try {
      const result = await this.client(em, settings, sp).validateRedirectAsync(query as Record<string, string>, originalQuery);
      if (!result.loggedOut) throw new Error('not a logout response');
      // node-saml verified the signature over this very parameter; it does not look at the Destination.
      const xml = await inflate(Buffer.from(query.SAMLResponse, 'base64'));
      destination = rootAttribute(messageRoot(xml.toString('utf8')), 'Destination');
    } catch (err) {
      throw this.refuse(reasonOf(err, this.spEntityId), 'logout response');
    }
    if (destination !== undefined && destination !== this.logoutCallbackUrl) {
      throw this.refuse(`its Destination is not this service's logout callback URL (${this.logoutCallbackUrl})`, 'logout response');
    }
    return `${this.publicUrl}/`;
  }

  /**
   * What node-saml reads but does not compare (5.1.0 checks the audience, not these): the Response's Issuer and
   * Destination, and each subject confirmation's Recipient and InResponseTo. Each, when present, must name the IdP of
   * the settings, our ACS URL (compared as the exact string we announce), or the request the Response answers.
   */
  private checkAddressedToUs(profile: Profile, signed: SignedAssertion | undefined, idpEntityId: string): void {
    let root: Element;
    try {
      root = messageRoot(profile.getSamlResponseXml?.() ?? '');
    } catch {
      throw this.refuse('it is not a SAML response this service can read');
    }
    if (rootIssuers(root).some((issuer) => issuer !== idpEntityId)) {
      throw this.refuse('the Issuer of the response is another identity provider than the `entityId` of the SAML settings');
    }
    const destination = rootAttribute(root, 'Destination');
    if (destination !== undefined && destination !== this.acsUrl) {
      throw this.refuse(`its Destination is not this service's assertion consumer URL (${this.acsUrl})`);
    }
    const confirmations = confirmationData(signed);
    if (confirmations.some((c) => c.Recipient !== undefined && c.Recipient !== this.acsUrl)) {
      throw this.refuse(`the Recipient of its subject confirmation is not this service's assertion consumer URL (${this.acsUrl})`);
    }
    // node-saml checks the Response's InResponseTo only; without one, the signed assertion's would go unchecked. Read
    // from the Response itself: profile.inResponseTo could also be an attribute of that name when the Response has none.
    const inResponseTo = rootAttribute(root, 'InResponseTo');
    if (confirmations.some((c) => c.InResponseTo !== undefined && c.InResponseTo !== inResponseTo)) {
      throw this.refuse('its assertion answers a sign-in request (the InResponseTo of its subject confirmation) that the response does not name');
    }
  }

  private async enabled(em: EntityManager): Promise<{ settings: StoredSamlSettings; sp: SigningKeyPair }> {
    const { settings, saved } = await readSamlSettings(em);
    if (!saved || !settings.enabled || !settings.certificate || !settings.signOnUrl) {
      throw new NotFoundError('SAML sign-in is not enabled. An admin turns it on in the SAML settings (POST /api/admin/auth/saml/settings).');
    }
    return { settings, sp: await spSigningKey(em) };
  }

  private refuse(reason: string, what = 'SAML response'): AuthenticationRequired {
    this.logger?.info({ reason }, `${what} refused`);
    return new AuthenticationRequired(`The ${what} was refused: ${reason}.`);
  }

  private client(em: EntityManager, settings: StoredSamlSettings, sp: SigningKeyPair): NodeSamlModule.SAML {
    return new (samlLibraries().saml.SAML)({
      entryPoint: settings.signOnUrl,
      issuer: this.spEntityId,
      audience: this.spEntityId,
      callbackUrl: this.acsUrl,
      idpCert: certificatePem(settings.certificate!),
      idpIssuer: settings.entityId,
      privateKey: sp.privateKey,
      publicCert: sp.certificate,
      signatureAlgorithm: 'sha256',
      identifierFormat: EMAIL_FORMAT,
      disableRequestedAuthnContext: true,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
      validateInResponseTo: samlLibraries().saml.ValidateInResponseTo.ifPresent,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      cacheProvider: new RequestIds(em),
      logoutUrl: settings.signOutUrl ?? settings.signOnUrl,
      logoutCallbackUrl: this.logoutCallbackUrl,
    });
  }
}
