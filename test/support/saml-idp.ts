import { createSign, createVerify, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML identity provider for tests: its own RSA key pair and self-signed certificate (selfsigned), Responses whose
 * Assertion it signs with xml-crypto (the library node-saml verifies with), signed HTTP-Redirect LogoutResponses,
 * and readers for what the service provider sends it (AuthnRequest and LogoutRequest in a redirect URL).
 */

export interface TestIdp {
  entityId: string;
  signOnUrl: string;
  signOutUrl: string;
  /** PEM certificate, for the SAML settings. */
  certificate: string;
  /** PEM private key (the test's secret; the service never sees it). */
  privateKey: string;
}

export async function createIdp(entityId = 'https://idp.example.test/saml'): Promise<TestIdp> {
  const pems = await generate([{ name: 'commonName', value: 'test-idp' }], { keySize: 2048, algorithm: 'sha256' });
  return { entityId, signOnUrl: 'https://idp.example.test/sso', signOutUrl: 'https://idp.example.test/slo', certificate: pems.cert, privateKey: pems.private };
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const newId = () => `_${randomBytes(16).toString('hex')}`;
const iso = (ms: number) => new Date(ms).toISOString();

export interface ResponseOptions {
  /** NameID value (default: the email). */
  nameId?: string;
  nameIdFormat?: string;
  /** Attributes: name → value(s). `email` is added from `email` unless `noEmailAttribute`. */
  attributes?: Record<string, string | string[]>;
  email: string;
  noEmailAttribute?: boolean;
  /** The SP entity id the assertion is for. */
  audience: string;
  /** The SubjectConfirmationData's Recipient (the ACS URL); null leaves the attribute out. */
  recipient: string | null;
  /** The Response's Destination (default: the recipient, left out when that is null); null leaves it out. */
  destination?: string | null;
  /** The Response's InResponseTo. */
  inResponseTo?: string;
  /** The SubjectConfirmationData's InResponseTo (default: inResponseTo); null leaves it out. */
  subjectInResponseTo?: string | null;
  /** Times relative to now, in ms (defaults: issued now, valid from 1 minute ago for 5 minutes). */
  issuedAtOffsetMs?: number;
  notBeforeOffsetMs?: number;
  notOnOrAfterOffsetMs?: number;
  /** Issuer written into the Response and the Assertion (default: the IdP's entity id). */
  issuer?: string;
  /** The Response's own Issuer instead (the Assertion keeps `issuer`); null leaves the element out. */
  responseIssuer?: string | null;
  /** Sign with this IdP's key instead (a forgery). */
  signer?: TestIdp;
  /** Leave the assertion unsigned. */
  unsigned?: boolean;
  sessionIndex?: string;
}

/** A base64 SAMLResponse with one signed Assertion, as an IdP posts it to the ACS. */
export function samlResponse(idp: TestIdp, o: ResponseOptions): { SAMLResponse: string; assertionId: string; xml: string } {
  const now = Date.now();
  const issuer = escapeXml(o.issuer ?? idp.entityId);
  const assertionId = newId();
  const issued = iso(now + (o.issuedAtOffsetMs ?? 0));
  const notBefore = iso(now + (o.notBeforeOffsetMs ?? -60_000));
  const notOnOrAfter = iso(now + (o.notOnOrAfterOffsetMs ?? 5 * 60_000));
  // An optional attribute, written only when there is a value.
  const attr = (name: string, value: string | null | undefined) => (value == null ? '' : ` ${name}="${escapeXml(value)}"`);
  const inResponseTo = attr('InResponseTo', o.inResponseTo);
  const subjectInResponseTo = attr('InResponseTo', o.subjectInResponseTo === undefined ? o.inResponseTo : o.subjectInResponseTo);
  const responseIssuer = o.responseIssuer === undefined ? issuer : o.responseIssuer === null ? null : escapeXml(o.responseIssuer);
  const attributes: Record<string, string | string[]> = { ...(o.noEmailAttribute ? {} : { email: o.email }), ...(o.attributes ?? {}) };
  const attributeXml = Object.entries(attributes).map(([name, value]) => `<saml:Attribute Name="${escapeXml(name)}">${(Array.isArray(value) ? value : [value])
    .map((v) => `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`).join('');
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${issued}">`
    + `<saml:Issuer>${issuer}</saml:Issuer>`
    + `<saml:Subject><saml:NameID Format="${escapeXml(o.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress')}">${escapeXml(o.nameId ?? o.email)}</saml:NameID>`
    + `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}"${attr('Recipient', o.recipient)}${subjectInResponseTo}/></saml:SubjectConfirmation></saml:Subject>`
    + `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
    + `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${escapeXml(o.sessionIndex ?? newId())}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
    + (attributeXml ? `<saml:AttributeStatement>${attributeXml}</saml:AttributeStatement>` : '')
    + `</saml:Assertion>`;
  let xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${issued}"${attr('Destination', o.destination === undefined ? o.recipient : o.destination)}${inResponseTo}>`
    + (responseIssuer === null ? '' : `<saml:Issuer>${responseIssuer}</saml:Issuer>`) + `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
  if (!o.unsigned) {
    const signer = o.signer ?? idp;
    const sig = new SignedXml({
      privateKey: signer.privateKey,
      publicCert: signer.certificate,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, { prefix: 'ds', location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
    xml = sig.getSignedXml();
  }
  return { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), assertionId, xml };
}

/** What the SP sent in a redirect (HTTP-Redirect binding): the inflated XML, its ID, and whether its signature verifies with `spCertificate`. */
export function readRedirect(location: string, spCertificate: string, parameter: 'SAMLRequest' | 'SAMLResponse' = 'SAMLRequest'): { xml: string; id: string; relayState: string | null; signatureValid: boolean; sigAlg: string | null } {
  const url = new URL(location);
  const raw = url.search.slice(1).split('&');
  const param = (name: string) => raw.find((p) => p.startsWith(`${name}=`));
  const value = url.searchParams.get(parameter);
  if (!value) throw new Error(`no ${parameter} in ${location}`);
  const xml = inflateRawSync(Buffer.from(value, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
  // The signed text is the raw parameters in this order (SAML bindings §3.4.4.1).
  const signed = [param(parameter), param('RelayState'), param('SigAlg')].filter(Boolean).join('&');
  const signature = url.searchParams.get('Signature');
  const signatureValid = signature !== null && createVerify('RSA-SHA256').update(signed).verify(spCertificate, Buffer.from(signature, 'base64'));
  return { xml, id, relayState: url.searchParams.get('RelayState'), signatureValid, sigAlg: url.searchParams.get('SigAlg') };
}

/** The query string of a signed HTTP-Redirect LogoutResponse answering `inResponseTo`; a null destination leaves it out. */
export function logoutResponseQuery(idp: TestIdp, o: { inResponseTo: string; destination: string | null; signer?: TestIdp }): string {
  const destination = o.destination === null ? '' : ` Destination="${escapeXml(o.destination)}"`;
  const xml = `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${iso(Date.now())}"${destination} InResponseTo="${escapeXml(o.inResponseTo)}">`
    + `<saml:Issuer>${escapeXml(idp.entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
  const text = `SAMLResponse=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}&SigAlg=${encodeURIComponent('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')}`;
  const signature = createSign('RSA-SHA256').update(text).sign((o.signer ?? idp).privateKey).toString('base64');
  return `${text}&Signature=${encodeURIComponent(signature)}`;
}
