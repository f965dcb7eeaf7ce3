import { describe, expect, it } from '@jest/globals';
import { checkPasswordStrength } from '../../src/domain/access/password';
import { generatePassword } from '../../src/domain/access/user.service';

/**
 * The admin password printed on a first start (no INIT_ADMIN_PASSWORD) must pass the strength rule every other
 * password is held to. Its random part is base64url, in which about one draw in 200 holds a character three times in
 * a row; such a draw was once handed out as it was.
 */
describe('the generated admin password', () => {
  it('a draw with a character three times in a row (or making one with the fixed parts) is replaced by the next draw', () => {
    const draws = ['abcAAAdefghijklmnopq', '--bcdefghijklmnopqrs', 'abcdefghijklmnopqr99', 'Kq7_x-2mZpR4tVwY8nLb'];
    const password = generatePassword(() => draws.shift()!);
    expect(password).toBe('Fd-Kq7_x-2mZpR4tVwY8nLb9a');
    expect(draws).toEqual([]);
  });

  it('gives up after 64 refused draws instead of looping', () => {
    let calls = 0;
    expect(() => generatePassword(() => { calls++; return 'aaaaaaaaaaaaaaaaaaaa'; })).toThrow('strength rule');
    expect(calls).toBe(64);
  });

  it('5,000 real draws: each passes the strength rule, 25 characters, none repeated', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const password = generatePassword();
      expect(() => checkPasswordStrength(password)).not.toThrow();
      expect(password).toHaveLength(25);
      seen.add(password);
    }
    expect(seen.size).toBe(5000);
  });
});
