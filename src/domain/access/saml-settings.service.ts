import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { ValidationError } from '../errors';
import { parse, sameJson } from '../validation';
import type { AccessService } from './access.service';
import { ADMIN } from './permissions';
import type { Principal } from './principal';
import { readSamlSettings, type StoredSamlSettings } from './saml-settings.read-model';
import { ROOT_ROLES, type SamlSettings } from './saml-settings.shapes';
import { ensureSamlSettingsRow, insertSpKey, lockSamlSettings, readSpKey, replaceSpKey, writeSamlSettings } from './saml-settings.store';
import { generateSigningKeyPair, selfSignedCertificate, toPem, type SigningKeyPair } from './self-signed';

/**
 * SAML settings (spec endpoint 11, issue 10) and the service provider's own signing key.
 *
 * Stored as two rows of the generic `settings` table: `saml` (what the admin set) and `saml-sp-key` (the key pair the
 * service signs its AuthnRequests and LogoutRequests with). The key pair is the service's own: generated once, on
 * first need, by whichever instance gets there first (`insert … on conflict do nothing`, then everyone reads the one
 * row). Its private key is read only to sign; its certificate is public: the SP metadata publishes it, and the
 * settings show it as `spCertificate` (the spec's "signing certificate for sign-out requests"). A certificate
 * without its private key cannot sign anything, so `spCertificate` cannot be set to another certificate: input may
 * leave it out, send "" or send the service's own (a read-modify-write from the UI), and anything else is a 400.
 */

/** The browser-facing SAML paths of this service (src/rest/saml.routes.ts serves them under `/auth`). */
export const SAML_PATHS = {
  metadata: '/auth/saml/metadata',
  login: '/auth/saml/login',
  callback: '/auth/saml/callback',
  logout: '/auth/saml/logout',
  logoutCallback: '/auth/saml/logout/callback',
} as const;

/** What an identity provider is set up with: this service provider's entity id and addresses. */
export interface ServiceProviderUrls {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
  loginUrl: string;
  logoutCallbackUrl: string;
}

/**
 * The service provider's entity id and URLs under `publicUrl`: one definition for what sign-in checks and announces
 * (saml-sign-in.ts) and what the settings show an admin to copy into the identity provider.
 */
export function serviceProviderUrls(publicUrl: string): ServiceProviderUrls {
  return {
    // The metadata URL doubles as the entity id (a common convention: the id then says where to read the rest).
    entityId: `${publicUrl}${SAML_PATHS.metadata}`,
    acsUrl: `${publicUrl}${SAML_PATHS.callback}`,
    metadataUrl: `${publicUrl}${SAML_PATHS.metadata}`,
    loginUrl: `${publicUrl}${SAML_PATHS.login}`,
    logoutCallbackUrl: `${publicUrl}${SAML_PATHS.logoutCallback}`,
  };
}

/** The DER bytes of a certificate given as PEM, with or without its BEGIN/END lines; undefined when it is not one. */
function certificateDer(text: string): Buffer | undefined {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (body === '' || body.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
  const der = Buffer.from(body, 'base64');
  try {
    new X509Certificate(der); // eslint-disable-line no-new
    return der;
  } catch {
    return undefined;
  }
}

/** A certificate as PEM with its BEGIN/END lines, however it was given (node-saml and xml-crypto take this form). */
export function certificatePem(text: string): string {
  const der = certificateDer(text);
  if (!der) throw new Error('not a certificate');
  return toPem('CERTIFICATE', der);
}

/** `sha256:<hex>`: how events and logs name a certificate (never the certificate itself). */
export function certificateFingerprint(text: string | undefined): string | undefined {
  const der = text === undefined ? undefined : certificateDer(text);
  return der ? `sha256:${new X509Certificate(der).fingerprint256.replace(/:/g, '').toLowerCase()}` : undefined;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;
/** A domain name of at least two labels (letters, digits, inner hyphens), at most 253 characters. */
export const isDomainName = (d: string) => d.length <= 253 && d.includes('.') && d.split('.').every((l) => LABEL.test(l)) && !/^\d+$/.test(d.split('.').pop()!);

/** The domains of `emailDomains`, lower case; empty for none. */
export const emailDomainList = (domains: string | undefined): string[] =>
  (domains ?? '').split(',').map((d) => d.trim().toLowerCase()).filter((d) => d !== '');

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const u = new URL(text);
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
}

// Unleash's UI strips empty strings before saving; "" in an optional field means absent, as it does there.
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const url = z.string().trim().max(2048).refine(isHttpUrl, { message: 'must be an absolute http or https URL' });
const certificate = z.string().trim().max(65_536).refine((c) => certificateDer(c) !== undefined, {
  message: 'must be an X.509 certificate in PEM form (base64, with or without the BEGIN/END CERTIFICATE lines)',
});

export const settingsSchema = z.object({
  enabled: z.boolean().optional(),
  entityId: z.string().trim().min(1).max(1024),
  signOnUrl: url,
  certificate,
  signOutUrl: optional(url),
  spCertificate: optional(certificate),
  autoCreate: z.boolean().optional(),
  emailDomains: optional(z.string().trim().max(4096).refine((s) => s.split(',').every((d) => isDomainName(d.trim())), {
    message: 'must be a comma-separated list of domain names, such as "example.com,example.org"',
  })),
  defaultRootRole: z.enum(ROOT_ROLES).optional(),
}).strict().superRefine((s, ctx) => {
  if (s.autoCreate && !s.emailDomains) {
    ctx.addIssue({ code: 'custom', path: ['emailDomains'], message: 'is required when `autoCreate` is true: users are created only for email addresses in these domains' });
  }
});

export type SamlSettingsInput = z.input<typeof settingsSchema>;

/** The settings as an audit event records them: certificates by fingerprint only. */
function eventData(s: StoredSamlSettings, sp: SigningKeyPair): Record<string, unknown> {
  return { ...s, certificate: certificateFingerprint(s.certificate), spCertificate: certificateFingerprint(sp.certificate) };
}

const SP_NAME = 'flagdeck SAML service provider';

/**
 * The service provider's signing key pair, generated on first need. Several instances may generate one at once; the
 * first insert wins and everyone uses the row that was stored.
 *
 * Earlier versions wrote about one certificate in 200 with a padded serial number that OpenSSL refuses to read. Such a
 * stored certificate is issued again for the same key (so requests signed before stay valid); the update only applies
 * to the row as it was read, so concurrent repairs agree on one certificate.
 */
export async function spSigningKey(em: EntityManager): Promise<SigningKeyPair> {
  const found = await readSpKey(em);
  if (found && certificateFingerprint(found.certificate)) return found;
  if (found) {
    const privateKey = createPrivateKey(found.privateKey);
    const repaired: SigningKeyPair = { privateKey: found.privateKey, certificate: selfSignedCertificate(privateKey, createPublicKey(privateKey), SP_NAME, 10) };
    await replaceSpKey(em, found, repaired);
    return (await readSpKey(em))!;
  }
  const pair = await generateSigningKeyPair(SP_NAME);
  await insertSpKey(em, pair);
  return (await readSpKey(em))!;
}

export class SamlSettingsService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService, private readonly publicUrl = 'http://localhost:4242') {}

  /** This service provider's entity id and URLs, for the identity provider's setup (ADMIN, like the settings). */
  async serviceProvider(): Promise<ServiceProviderUrls> {
    await this.access.check(ADMIN);
    return serviceProviderUrls(this.publicUrl);
  }

  async get(): Promise<SamlSettings> {
    await this.access.check(ADMIN);
    const { settings } = await readSamlSettings(this.em);
    const sp = await spSigningKey(this.em);
    return { ...settings, spCertificate: sp.certificate };
  }

  /** Replaces the settings (POST semantics: absent optional fields are removed, booleans default to false). */
  async update(input: SamlSettingsInput): Promise<SamlSettings> {
    const data = parse(settingsSchema, input);
    await this.access.check(ADMIN);
    const sp = await spSigningKey(this.em);
    if (data.spCertificate !== undefined && certificateFingerprint(data.spCertificate) !== certificateFingerprint(sp.certificate)) {
      throw ValidationError.single('spCertificate', 'The `spCertificate` property must be left out or be the service\'s own signing certificate (served in GET /auth/saml/metadata): the service signs its requests with its own key, and a certificate without its private key could not sign them.');
    }
    const next: StoredSamlSettings = {
      enabled: data.enabled ?? false,
      entityId: data.entityId,
      signOnUrl: data.signOnUrl,
      certificate: data.certificate,
      ...(data.signOutUrl !== undefined ? { signOutUrl: data.signOutUrl } : {}),
      autoCreate: data.autoCreate ?? false,
      ...(data.emailDomains !== undefined ? { emailDomains: data.emailDomains } : {}),
      defaultRootRole: data.defaultRootRole ?? 'Viewer',
    };
    await change(this.em, this.principal, async (tx, emit) => {
      // The row exists before it is locked, so the first two writers queue on one row lock instead of racing to insert.
      await ensureSamlSettingsRow(tx);
      const before = await lockSamlSettings(tx);
      await writeSamlSettings(tx, next);
      if (!before.saved || !sameJson(before.settings, next)) {
        emit({ type: 'setting-updated', data: eventData(next, sp), preData: before.saved ? eventData(before.settings, sp) : null });
      }
    });
    return { ...next, spCertificate: sp.certificate };
  }
}
