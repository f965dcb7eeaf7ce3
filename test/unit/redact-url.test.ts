import { describe, expect, it } from '@jest/globals';
import { redactUrl } from '../../src/logger';

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
