import { Writable } from 'node:stream';
import { describe, expect, it, jest } from '@jest/globals';
import { GraphQLError } from 'graphql';
import pino from 'pino';
import {
  AuthenticationRequired, ContentTooLarge, ContentTypeerror, InvalidOperationError, NameExistsError, NoAccessError, NotFoundError, ValidationError,
} from '../../src/domain/errors';
import { maskError } from '../../src/resolvers/graphql.handler';
import { errorHandler } from '../../src/rest/errors';

function capture() {
  const lines: any[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(JSON.parse(chunk.toString())); cb(); } });
  return { logger: pino({ level: 'info' }, stream), lines };
}

function respond(err: unknown) {
  const { logger, lines } = capture();
  const res: any = { headersSent: false, statusCode: 0, body: undefined };
  res.status = jest.fn((s: number) => { res.statusCode = s; return res; });
  res.json = jest.fn((b: unknown) => { res.body = b; return res; });
  errorHandler(logger)(err, { method: 'GET', originalUrl: '/api/admin/x' } as never, res, () => {});
  return { res, lines };
}

describe('REST error mapping (D1)', () => {
  it.each([
    [ValidationError.single('name', 'bad'), 400, 'ValidationError'],
    [new AuthenticationRequired(), 401, 'AuthenticationRequired'],
    [new NoAccessError('CREATE_PROJECT'), 403, 'NoAccessError'],
    [new InvalidOperationError('no'), 403, 'InvalidOperationError'],
    [new NotFoundError('gone'), 404, 'NotFoundError'],
    [new NameExistsError('taken'), 409, 'NameExistsError'],
    [new ContentTooLarge('100 kB'), 413, 'ContentTooLarge'],
    [new ContentTypeerror('text/plain'), 415, 'ContentTypeerror'],
  ])('%s → %i %s with id and message', (err, status, name) => {
    const { res } = respond(err);
    expect(res.statusCode).toBe(status);
    expect(res.body).toMatchObject({ name, message: expect.any(String), id: expect.any(String) });
  });

  it('403 names the permission and the environment, and lists it in permissions', () => {
    const { res } = respond(new NoAccessError('UPDATE_FEATURE_ENVIRONMENT', 'production'));
    expect(res.body.message).toContain('"UPDATE_FEATURE_ENVIRONMENT" permission in the "production" environment');
    expect(res.body.permissions).toEqual(['UPDATE_FEATURE_ENVIRONMENT']);
  });

  it('400 carries details with path and message', () => {
    const { res } = respond(ValidationError.single('legalValues/0/value', 'too long'));
    expect(res.body.details).toEqual([{ path: 'legalValues/0/value', message: 'too long' }]);
  });

  it('an unexpected error is a 500 with a generic message; its id is logged with the cause, and no SQL or stack reaches the client', () => {
    const { res, lines } = respond(new Error('select * from secret_table - syntax error'));
    expect(res.statusCode).toBe(500);
    expect(res.body.name).toBe('InternalError');
    expect(JSON.stringify(res.body)).not.toContain('secret_table');
    expect(res.body.message).toContain(res.body.id);
    expect(lines).toHaveLength(1);
    expect(lines[0].errorId).toBe(res.body.id);
    expect(lines[0].err.message).toContain('secret_table');
  });

  it('body-parser failures become 413 and 400', () => {
    expect(respond(Object.assign(new Error('too large'), { type: 'entity.too.large' })).res.statusCode).toBe(413);
    const parse = respond(Object.assign(new Error('Unexpected token'), { type: 'entity.parse.failed' })).res;
    expect(parse.statusCode).toBe(400);
    expect(parse.body.name).toBe('ValidationError');
  });
});

describe('GraphQL error mask', () => {
  it('keeps the domain error name, status code, id and extra fields', () => {
    const original = new NoAccessError('DELETE_PROJECT');
    const masked = maskError(capture().logger)(new GraphQLError(original.message, { originalError: original })) as GraphQLError;
    expect(masked.extensions).toMatchObject({ name: 'NoAccessError', code: 403, id: original.id, permissions: ['DELETE_PROJECT'] });
  });
  it('hides unexpected errors behind a logged id', () => {
    const { logger, lines } = capture();
    const masked = maskError(logger)(new GraphQLError('boom', { originalError: new Error('relation "x" does not exist') })) as GraphQLError;
    expect(masked.extensions.name).toBe('InternalError');
    expect(masked.message).not.toContain('relation');
    expect(lines[0].errorId).toBe(masked.extensions.id);
  });
});
