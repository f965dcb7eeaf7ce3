import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { certificateFingerprint, certificatePem, isDomainName } from '../../src/domain/access/saml-settings.service';
import { safeRelayPath } from '../../src/domain/access/saml-sign-in';
import { generateSigningKeyPair, selfSignedCertificate } from '../../src/domain/access/self-signed';
import { parseFormBytes } from '../../src/request-guard';

describe('the self-signed SP certificate (src/domain/access/self-signed.ts)', () => {
  it('is a certificate OpenSSL reads, for the key pair, signed by it, valid from an hour ago for the years asked', async () => {
    const before = Date.now();
    const pair = await generateSigningKeyPair('flagdeck SAML service provider', 10);
    const cert = new X509Certificate(pair.certificate);
    expect(cert.subject).toBe('CN=flagdeck SAML service provider');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(pair.privateKey))).toBe(true);
    expect(Date.parse(cert.validFrom)).toBeLessThanOrEqual(before - 59 * 60_000);
    const years = (Date.parse(cert.validTo) - before) / (365.25 * 24 * 3600_000);
    expect(years).toBeGreaterThan(9.9);
    expect(years).toBeLessThan(10.1);
    expect(pair.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  }, 30_000);

  it('writes GeneralizedTime after 2049 and a long name (multi-byte DER lengths) correctly', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const name = 'x'.repeat(200);
    const cert = new X509Certificate(selfSignedCertificate(privateKey, publicKey, name, 40, new Date('2040-06-01T00:00:00Z')));
    expect(cert.subject).toBe(`CN=${name}`);
    expect(new Date(cert.validTo).toISOString()).toBe('2080-06-01T00:00:00.000Z');
    expect(cert.verify(publicKey)).toBe(true);
  });

  it('writes the serial number in DER\'s minimal form whatever its leading bytes (OpenSSL refuses a padded one)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const cases: Array<[number[], string]> = [
      [[0x00, 0x10, 0xab], '10AB'], // leading zero before a low byte: was written padded, and unreadable
      [[0x00, 0x00, 0x00, 0x05], '05'],
      [[0x00, 0x80, 0x01], '8001'], // a high first digit keeps one zero, as a sign
      [[0x7f, 0xff], '7FFF'],
      [[0x80, 0x00], '8000'],
    ];
    for (const [bytes, hex] of cases) {
      const cert = new X509Certificate(selfSignedCertificate(privateKey, publicKey, 'serial', 1, new Date(), Buffer.from(bytes)));
      expect(cert.serialNumber.replace(/^0+(?=.)/, '')).toBe(hex.replace(/^0+(?=.)/, ''));
      expect(cert.verify(publicKey)).toBe(true);
    }
    // Random serials: one certificate in about 200 had the padding before; 1,000 make a miss unlikely to hide it.
    for (let i = 0; i < 1000; i++) expect(() => new X509Certificate(selfSignedCertificate(privateKey, publicKey, 'r', 1))).not.toThrow();
  }, 30_000);
});

describe('SAML settings helpers', () => {
  it('reads a certificate with or without its BEGIN/END lines, and names it by fingerprint', async () => {
    const pair = await generateSigningKeyPair('c');
    const bare = pair.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    expect(certificatePem(bare)).toBe(pair.certificate);
    expect(certificateFingerprint(bare)).toBe(certificateFingerprint(pair.certificate));
    expect(certificateFingerprint(pair.certificate)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(certificateFingerprint('MIIB')).toBeUndefined();
    expect(certificateFingerprint(pair.privateKey)).toBeUndefined();
  }, 30_000);

  it('domain names: at least two labels of letters, digits and inner hyphens, not an IP address', () => {
    for (const ok of ['example.com', 'a.b.example.org', 'xn--bcher-kva.example', 'my-corp.example']) expect(isDomainName(ok)).toBe(true);
    for (const bad of ['', 'localhost', 'exa mple.com', '-x.example', 'x-.example', 'a..b', '10.0.0.1', 'me@example.com', '*.example.com', `${'a'.repeat(64)}.com`]) {
      expect({ bad, ok: isDomainName(bad) }).toEqual({ bad, ok: false });
    }
  });

  it('RelayState: only a path on this origin', () => {
    for (const ok of ['/', '/projects/default', '/a?b=c#d']) expect(safeRelayPath(ok)).toBe(ok);
    for (const bad of ['', 'https://evil.example', '//evil.example', '/\\evil.example', '/a b', 'projects', 42, undefined, `/${'a'.repeat(1100)}`]) {
      expect(safeRelayPath(bad)).toBeUndefined();
    }
  });
});

describe('parseFormBytes (the form door)', () => {
  it('decodes names and values (+ is a space)', () => {
    expect(parseFormBytes(Buffer.from('SAMLResponse=PHg%2BPC94Pg%3D%3D&RelayState=%2Fa+b&empty=&flag'))).toEqual({ SAMLResponse: 'PHg+PC94Pg==', RelayState: '/a b', empty: '', flag: '' });
    expect(parseFormBytes(Buffer.from(''))).toEqual({});
  });

  it('refuses text the service cannot store, naming the field; a bad name names the form', () => {
    const refused = (body: Buffer | string) => {
      try {
        parseFormBytes(Buffer.isBuffer(body) ? body : Buffer.from(body));
        return undefined;
      } catch (err) {
        return (err as { name: string; details: Array<{ path: string }> }).details[0].path;
      }
    };
    expect(refused('a=%00')).toBe('a');
    expect(refused('a=%FF')).toBe('a');
    expect(refused('a=%ED%A0%80')).toBe('a');
    expect(refused('a=%C0%80')).toBe('a');
    expect(refused('a=%Z1')).toBe('a');
    expect(refused(Buffer.from([0x61, 0x3d, 0xff]))).toBe('a');
    expect(refused('%FF=1')).toBe('');
    expect(refused('a=1&a=2')).toBe('a');
    expect(refused('__proto__=x')).toBeUndefined();
    expect(Object.getPrototypeOf(parseFormBytes(Buffer.from('__proto__=x')))).toBe(Object.prototype);
  });
});
