import { describe, expect, it } from '@jest/globals';
import { fromDatabaseError, isDatabaseUnreachable, markDatabaseSocketError, recordDatabasePlace } from '../../src/domain/database-errors';
import { ServiceUnavailableError, ValidationError } from '../../src/domain/errors';

/** Issue 42: which errors mean "the database cannot be reached" (503 ServiceUnavailableError), and which do not. */
const socketError = (code: string, port: number) => Object.assign(new Error(`connect ${code} 127.0.0.1:${port}`), { code, syscall: 'connect', address: '127.0.0.1', port });
const driverError = (message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { name: 'DriverException', ...extra });

describe('telling an unreachable database from other failures', () => {
  recordDatabasePlace('postgresql://postgres@db.internal:6543/flagdeck');

  it('counts lost and refused connections to the database, its shutdown states and the pool waiting in vain', () => {
    expect(isDatabaseUnreachable(driverError('select 1 - Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnreachable(driverError('connect ECONNREFUSED 10.0.0.5:6543', { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnreachable(socketError('ECONNREFUSED', 6543))).toBe(true);
    // The same error as GraphQL execution hands it on: its message only.
    expect(isDatabaseUnreachable(new Error('connect ECONNREFUSED 127.0.0.1:6543'))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND', hostname: 'db.internal' }))).toBe(true);
    for (const code of ['57P01', '57P03', '08006', '53300']) expect(isDatabaseUnreachable(driverError('x', { code }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }))).toBe(true);
    expect(isDatabaseUnreachable(driverError('Transaction query already complete, run with DEBUG=knex:tx for more info'))).toBe(true);
    expect(fromDatabaseError(socketError('ECONNREFUSED', 6543))).toBeInstanceOf(ServiceUnavailableError);
  });

  it('counts a reset that names no place only when a database connection\'s socket raised it (src/db/connection-guard.ts marks it)', () => {
    const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
    const outbound = reset();
    expect(isDatabaseUnreachable(outbound)).toBe(false);
    const fromDatabase = reset();
    markDatabaseSocketError(fromDatabase);
    expect(isDatabaseUnreachable(fromDatabase)).toBe(true);
    expect(isDatabaseUnreachable(outbound)).toBe(false);
  });

  it('leaves alone an outbound call that fails the same way, a refused statement and anything else', () => {
    expect(isDatabaseUnreachable(socketError('ECONNREFUSED', 8443))).toBe(false);
    expect(isDatabaseUnreachable(new Error('connect ECONNREFUSED 127.0.0.1:8443'))).toBe(false);
    expect(isDatabaseUnreachable(driverError('duplicate key value', { code: '23505' }))).toBe(false);
    expect(isDatabaseUnreachable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnreachable(null)).toBe(false);
    // A NUL in a text parameter breaks the wire message (08P01): the request's fault, a 400 as before.
    expect(isDatabaseUnreachable(driverError('x', { code: '08P01' }))).toBe(false);
    expect(fromDatabaseError(driverError('x', { code: '08P01' }))).toBeInstanceOf(ValidationError);
  });
});
