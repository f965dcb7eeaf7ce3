import { createSign, generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * A self-signed X.509 certificate for the SAML service provider's own signing key (issue 10). node:crypto reads
 * certificates (X509Certificate) but cannot write one, and the libraries that can (selfsigned over @peculiar/x509 and
 * pkijs) bring a dozen packages and reflect-metadata into the runtime for what is ~60 lines of DER: a version 1
 * certificate (no extensions, which a SAML signing certificate does not need) whose issuer and subject are one common
 * name, signed sha256WithRSAEncryption. The unit test reads every certificate this writes back with X509Certificate and
 * verifies its signature with the public key.
 */

const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, content: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
/**
 * A non-negative INTEGER from big-endian bytes, in DER's minimal form: leading zero bytes dropped, then one put back
 * where the first bit is high (else it would read as a sign). OpenSSL refuses any other padding ("illegal padding").
 */
const integer = (bytes: Buffer) => {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const digits = bytes.subarray(start);
  return tlv(0x02, digits[0] & 0x80 ? Buffer.concat([Buffer.from([0]), digits]) : digits);
};
const nullValue = Buffer.from([0x05, 0x00]);
const bitString = (bytes: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));
const utf8String = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));

function objectId(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050. */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii')) : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'));
}

const SHA256_WITH_RSA = sequence(objectId('1.2.840.113549.1.1.11'), nullValue);
const COMMON_NAME = '2.5.4.3';

/** The PEM text of DER bytes. */
export function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** 16 random bytes whose first is 1 to 127: positive and at most 20 bytes, as RFC 5280 asks of a serial number. */
function randomSerial(): Buffer {
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) || 1;
  return serial;
}

/** A self-signed certificate for `publicKey`, signed with `privateKey` (RSA), valid from an hour ago for `years`. */
export function selfSignedCertificate(privateKey: KeyObject, publicKey: KeyObject, commonName: string, years: number, now = new Date(), serial = randomSerial()): string {
  const name = sequence(set(sequence(objectId(COMMON_NAME), utf8String(commonName))));
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + years);
  const tbs = sequence(
    integer(serial),
    SHA256_WITH_RSA,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = createSign('sha256').update(tbs).sign(privateKey);
  return toPem('CERTIFICATE', sequence(tbs, SHA256_WITH_RSA, bitString(signature)));
}

export interface SigningKeyPair {
  /** PKCS#8 PEM. Never leaves the server: not in an answer, an event or a log line. */
  privateKey: string;
  /** PEM certificate of the public key: published in the SP metadata. */
  certificate: string;
}

/** A new RSA-2048 key pair and its self-signed certificate (generated off the event loop). */
export async function generateSigningKeyPair(commonName: string, years = 10): Promise<SigningKeyPair> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificate: selfSignedCertificate(privateKey, publicKey, commonName, years),
  };
}
