import { describe, expect, it } from '@jest/globals';
import { generatedBanner, settleRecords, unshownNotice, unshownOf, type GeneratedCredentials } from '../../src/domain/access/generated-credentials';

/**
 * Defect 8: what a start says about the credentials it generated, and about generated ones an earlier start never
 * showed. The process test (test/e2e/process/first-start-credentials.test.ts) runs the whole story; these pin the
 * decisions and the words.
 */
const at = '2026-03-04T05:06:07.890Z';
const both: GeneratedCredentials = { token: { id: 7, secret: '*:*.abc' }, password: { userId: 3, password: 'Fd-secret-9a' }, createdAt: at };

describe('generated credentials never shown', () => {
  it('a record keeps its notice while the credential exists and nobody used it; otherwise it is settled', () => {
    const found = [
      { kind: 'token' as const, id: 1, createdAt: at, exists: true, used: false },
      { kind: 'password' as const, id: 2, createdAt: at, exists: true, used: true },
      { kind: 'token' as const, id: 3, createdAt: at, exists: false, used: false },
    ];
    expect(settleRecords(found)).toEqual({
      unshown: [{ kind: 'token', id: 1, createdAt: at }],
      settled: [{ kind: 'password', id: 2, createdAt: at }, { kind: 'token', id: 3, createdAt: at }],
    });
  });

  it('what a start created, as unshown credentials (for the notice when writing them failed)', () => {
    expect(unshownOf(both)).toEqual([{ kind: 'token', id: 7, createdAt: at }, { kind: 'password', id: 3, createdAt: at }]);
    expect(unshownOf({ token: null, password: null, createdAt: at })).toEqual([]);
  });

  it('the password notice names the recovery command, and on the embedded database says to stop the service first', () => {
    const embedded = unshownNotice([{ kind: 'password', id: 3, createdAt: at }], { embedded: true, port: 4242 });
    expect(embedded).toContain('The password of user "admin" generated on 2026-03-04 05:06 UTC was never shown');
    expect(embedded).toContain('stop flagdeck, then run with the same DATA_DIR:\n\n    npm run admin:reset-password\n');
    const postgres = unshownNotice([{ kind: 'password', id: 3, createdAt: at }], { embedded: false, port: 4242 });
    expect(postgres).toContain('run with the same DATABASE_URL:\n\n    npm run admin:reset-password\n');
    expect(postgres).not.toContain('stop flagdeck');
  });

  it('the token notice says how to get a known token and how to delete the unknown one', () => {
    const text = unshownNotice([{ kind: 'token', id: 7, createdAt: at }], { embedded: true, port: 5000 });
    expect(text).toContain('The admin API token (id 7) generated on 2026-03-04 05:06 UTC was never shown');
    expect(text).toContain("INIT_ADMIN_API_TOKENS='*:*.<a secret of your choice>'");
    expect(text).toContain('curl -X DELETE -H "Authorization: <your token>" http://localhost:5000/api/admin/api-tokens/7');
    expect(text).not.toContain('admin:reset-password');
    expect(unshownNotice([], { embedded: true, port: 5000 })).toBe('');
  });

  it('the banner shows each secret a start generated, and nothing when it generated none', () => {
    const text = generatedBanner(both, 4300);
    expect(text).toContain('It is shown only this once:\n\n    *:*.abc\n');
    expect(text).toContain('Its password is shown only this once:\n\n    Fd-secret-9a\n');
    expect(text).toContain('http://localhost:4300/auth/simple/login');
    expect(generatedBanner({ ...both, password: null }, 4300)).not.toContain('Fd-secret-9a');
    expect(generatedBanner({ token: null, password: null, createdAt: at }, 4300)).toBe('');
  });
});
