import { describe, expect, it } from '@jest/globals';
import { unreachableDatabase } from '../../src/db/open-database';

describe('unreachableDatabase: why the configured PostgreSQL cannot be used, never with its password', () => {
  const url = 'postgresql://app%40team:p%40ss-w0rd@db.example.com:6543/flags';
  it.each([
    [{ code: 'ECONNREFUSED' }, 'the connection was refused (is PostgreSQL running there?)'],
    [{ code: 'ENOTFOUND' }, 'the host name is unknown'],
    [{ code: 'ETIMEDOUT' }, 'the connection timed out'],
    [{ message: 'timeout expired' }, 'the connection timed out'],
    [{ code: '28P01' }, 'the password was refused'],
    [{ code: '3D000' }, 'the database does not exist'],
  ])('%o → %s', (err, reason) => {
    const found = unreachableDatabase(url, err);
    expect(found?.message).toBe(`cannot use PostgreSQL at db.example.com:6543/flags as user app@team: ${reason}. Check DATABASE_URL.`);
    expect(found?.message).not.toMatch(/p@ss|p%40ss/);
  });

  it('the default port and no user; other errors are not its to explain', () => {
    expect(unreachableDatabase('postgresql://localhost/x', { code: 'ECONNREFUSED' })?.message).toContain('at localhost:5432/x: ');
    expect(unreachableDatabase(url, new Error('syntax error at or near "x"'))).toBeUndefined();
    expect(unreachableDatabase(url, { code: '23505' })).toBeUndefined();
  });
});
