import { describe, expect, it } from '@jest/globals';
import { MAX_LOGGED_URL, redactUrl } from '../../src/logger';

// Secrets shaped as the service issues them (src/domain/access/api-token.service.ts, personal-token.service.ts).
const HEX = '0123456789abcdef'.repeat(4);
const ADMIN = `*:*.${HEX}`;
const CLIENT = `default:development.${HEX}`;
const MULTI = `[]:production.${HEX}`;
const PAT = `user:${HEX}`;
const INIT_ADMIN = '*:*.test-admin-token-0123456789';

describe('redactUrl: what a logged URL keeps of the secrets public paths carry', () => {
  it.each([
    ['/invite/0123abcd/signup', '/invite/[redacted]/signup'],
    ['/invite/0123abcd/validate?x=1', '/invite/[redacted]/validate?x=1'],
    ['/api/admin/invite-link/tokens/0123abcd', '/api/admin/invite-link/tokens/[redacted]'],
    ['/auth/reset/validate?token=abc%24def&lang=en', '/auth/reset/validate?token=[redacted]&lang=en'],
    ['/new-user?invite=abc', '/new-user?invite=[redacted]'],
    ['/auth/saml/callback?SAMLResponse=PHNhbWw&RelayState=%2F', '/auth/saml/callback?SAMLResponse=[redacted]&RelayState=[redacted]'],
    ['/api/admin/projects/default/features', '/api/admin/projects/default/features'],
  ])('%s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('redactUrl: query values whose name suggests a credential, in any case or spelling', () => {
  it.each([
    // Defect 9: the admin secret in `authorization`, percent-encoded as a browser or curl sends it.
    [`/api/admin/tags?authorization=*%3A*.${HEX}`, '/api/admin/tags?authorization=[redacted]'],
    ['/x?Authorization=Bearer%20abc', '/x?Authorization=[redacted]'],
    ['/x?AUTH=abc', '/x?AUTH=[redacted]'],
    ['/x?access_token=abc&refresh-token=def', '/x?access_token=[redacted]&refresh-token=[redacted]'],
    ['/x?apikey=abc&api_key=abc&x-api-key=abc&apiKey=abc&key=abc', '/x?apikey=[redacted]&api_key=[redacted]&x-api-key=[redacted]&apiKey=[redacted]&key=[redacted]'],
    ['/x?client_secret=abc&SECRET=abc', '/x?client_secret=[redacted]&SECRET=[redacted]'],
    ['/x?password=abc&passwd=abc&pwd=abc', '/x?password=[redacted]&passwd=[redacted]&pwd=[redacted]'],
    ['/x?session=abc&sid=abc&cookie=abc', '/x?session=[redacted]&sid=[redacted]&cookie=[redacted]'],
    // Percent-encoded names (once and twice), array syntax, `;` as a separator.
    ['/x?%61uthorization=abc', '/x?%61uthorization=[redacted]'],
    ['/x?%2561pi%255Fkey=abc', '/x?%2561pi%255Fkey=[redacted]'],
    ['/x?token[0]=abc&token%5B1%5D=def', '/x?token[0]=[redacted]&token%5B1%5D=[redacted]'],
    ['/x?a=1;token=abc', '/x?a=1;token=[redacted]'],
    // A sensitive name in the fragment (sent only by raw clients), as OAuth's implicit flow puts it there.
    ['/x#access_token=abc&state=1', '/x#access_token=[redacted]&state=1'],
    // A credential named inside a value: GraphQL over GET (mutations are refused there, but the URL is logged).
    [`/graphql?query=${encodeURIComponent('mutation { setUserPassword(input: { id: 2, password: "Pass-word-42" }) }')}`, '/graphql?query=[redacted]'],
    [`/graphql?query=${encodeURIComponent('{ tags { value } }')}&variables=${encodeURIComponent('{"input":{"password":"Pass-word-42"}}')}`,
      `/graphql?query=${encodeURIComponent('{ tags { value } }')}&variables=[redacted]`],
  ])('%s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it('keeps ordinary names and values, and an empty value', () => {
    for (const url of ['/api/admin/events?limit=100&type=feature-created', '/api/admin/projects/default/features?tag=simple%3Ablue', '/x?token=', '/graphql?query=%7B%20projects%20%7B%20id%20%7D%20%7D',
      `/graphql?query=${encodeURIComponent('{ apiTokens { tokenName secret } }')}`]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe('redactUrl: values shaped like the service\'s credentials, wherever they are in the URL', () => {
  it.each([
    // Query values under innocent names.
    [`/x?q=${ADMIN}`, '/x?q=[redacted]'],
    [`/x?q=${CLIENT}&limit=5`, '/x?q=[redacted]&limit=5'],
    [`/x?q=${MULTI}`, '/x?q=[redacted]'],
    [`/x?q=${PAT}`, '/x?q=[redacted]'],
    [`/x?q=${INIT_ADMIN}`, '/x?q=[redacted]'],
    [`/x?q=Bearer+${ADMIN}`, '/x?q=[redacted]'],
    // Percent-encoded, partly, wholly and twice.
    [`/x?q=*%3A*.${HEX}`, '/x?q=[redacted]'],
    [`/x?q=%2A%3A%2A%2E${HEX}`, '/x?q=[redacted]'],
    [`/x?q=%5B%5D%3Aproduction.${HEX}`, '/x?q=[redacted]'],
    [`/x?q=user%3A${HEX}`, '/x?q=[redacted]'],
    [`/x?q=%252A%253A%252A.${HEX}`, '/x?q=[redacted]'],
    // As a query name, with or without a value.
    [`/x?${ADMIN}`, '/x?[redacted]'],
    [`/x?a=1&${encodeURIComponent(PAT)}=1`, '/x?a=1&[redacted]'],
    // Path segments (API tokens are addressed by their secret, as in Unleash).
    [`/api/admin/api-tokens/${ADMIN}`, '/api/admin/api-tokens/[redacted]'],
    [`/api/admin/api-tokens/${encodeURIComponent(CLIENT)}/extra`, '/api/admin/api-tokens/[redacted]/extra'],
    [`/api/admin/x/${encodeURIComponent(MULTI)}`, '/api/admin/x/[redacted]'],
    // A bare secret (the 64 hex digits alone), and an invite secret (32) outside its path.
    [`/x/${HEX}`, '/x/[redacted]'],
    [`/x?q=${HEX.slice(0, 32)}`, '/x?q=[redacted]'],
    // Fragments.
    [`/x#${ADMIN}`, '/x#[redacted]'],
    [`/x#${encodeURIComponent(PAT)}`, '/x#[redacted]'],
  ])('%s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it('an absolute-form request target loses its user information', () => {
    expect(redactUrl('http://someone:pa55word@flags.example/api/admin/tags')).toBe('http://[redacted]@flags.example/api/admin/tags');
  });

  it('malformed percent-encoding does not throw, and a secret next to it is still found', () => {
    expect(redactUrl(`/x/%E0%A4%A/y?q=%ZZ${encodeURIComponent(ADMIN)}&r=%`)).toBe('/x/%E0%A4%A/y?q=[redacted]&r=%');
  });
});

describe('redactUrl: bounded on huge URLs', () => {
  it(`logs at most about MAX_LOGGED_URL (${MAX_LOGGED_URL}) characters, cut at a separator so no part of a cut value is left`, () => {
    const head = `/api/admin/projects/default/features?tag=${'x'.repeat(MAX_LOGGED_URL - 60)}`;
    const url = `${head}&q=${ADMIN}&more=${'b'.repeat(10_000)}`;
    const logged = redactUrl(url);
    expect(logged.length).toBeLessThanOrEqual(MAX_LOGGED_URL + 20);
    expect(logged.endsWith('…[cut]')).toBe(true);
    expect(logged.startsWith(head)).toBe(true);
    // The cut falls inside the token: none of it is left, not even its first characters.
    expect(logged).not.toContain('*:*');
    expect(logged).not.toContain(HEX.slice(0, 4));
  });

  it('a huge URL without separators is cut too', () => {
    const logged = redactUrl(`/${'x'.repeat(20_000)}`);
    expect(logged.length).toBeLessThanOrEqual(MAX_LOGGED_URL + 20);
    expect(logged.endsWith('…[cut]')).toBe(true);
  });
});
