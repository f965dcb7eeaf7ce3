import { describe, expect, it } from '@jest/globals';
import { generatedBanner, type GeneratedCredentials } from '../../src/domain/access/generated-credentials';

/**
 * Defect 8: what a start says about the credentials it generated. The process test
 * (test/e2e/process/first-start-credentials.test.ts) runs the whole story; these pin the words.
 */
const at = '2026-03-04T05:06:07.890Z';
const both: GeneratedCredentials = { token: { id: 7, secret: '*:*.abc' }, password: { userId: 3, password: 'Fd-secret-9a' }, createdAt: at };

describe('generated credentials', () => {
  it('the banner shows each secret a start generated, and nothing when it generated none', () => {
    const text = generatedBanner(both, 4300);
    expect(text).toContain('It is shown only this once:\n\n    *:*.abc\n');
    expect(text).toContain('Its password is shown only this once:\n\n    Fd-secret-9a\n');
    expect(text).toContain('http://localhost:4300/auth/simple/login');
    expect(generatedBanner({ ...both, password: null }, 4300)).not.toContain('Fd-secret-9a');
    expect(generatedBanner({ token: null, password: null, createdAt: at }, 4300)).toBe('');
  });
});
