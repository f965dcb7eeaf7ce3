import { Writable } from 'node:stream';
import { describe, expect, it, jest } from '@jest/globals';
import { GraphQLError } from 'graphql';
import pino from 'pino';
import { systemPrincipal } from '../../src/domain/access/principal';
import { change } from '../../src/domain/change';
import { fromDatabaseError, uniqueKeyValues } from '../../src/domain/database-errors';
import {
  AuthenticationRequired, ContentTooLarge, ContentTypeerror, InvalidOperationError, InvalidTokenError, NameExistsError, NoAccessError,
  NotFoundError, UsedTokenError, ValidationError,
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
  // What node:http's response records: the error answer is written with its own calls (src/rest/errors.ts).
  const res: any = { headersSent: false, statusCode: 0, body: undefined, headers: {} };
  res.setHeader = jest.fn((name: string, value: unknown) => { res.headers[name.toLowerCase()] = value; });
  res.end = jest.fn((text: string) => { res.body = JSON.parse(text); });
  errorHandler(logger)(err, { method: 'GET', originalUrl: '/api/admin/x' } as never, res, () => {});
  return { res, lines };
}

describe('REST error mapping (D1)', () => {
  it.each([
    [ValidationError.single('name', 'bad'), 400, 'ValidationError'],
    [new AuthenticationRequired(), 401, 'AuthenticationRequired'],
    [new InvalidTokenError(), 401, 'InvalidTokenError'],
    [new UsedTokenError(new Date()), 403, 'UsedTokenError'],
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
    expect([res.headers['content-type'], res.headers['content-length']]).toEqual(['application/json; charset=utf-8', Buffer.byteLength(JSON.stringify(res.body))]);
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

/** A unique violation as node-postgres reports it (MikroORM's wrapper copies these own properties). */
const uniqueViolation = (constraint: string | undefined, detail: string | undefined) =>
  Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), { code: '23505', constraint, detail, table: 'x', schema: 'public' });

describe('fromDatabaseError: a unique violation (23505) is a 409 NameExistsError in plain words', () => {
  it('names what exists and its key, as the service\'s own check would', () => {
    const err = fromDatabaseError(uniqueViolation('tag_types_pkey', 'Key (name)=(team) already exists.'));
    expect(err).toBeInstanceOf(NameExistsError);
    expect(err?.message).toBe('There already exists a tag-type with the name team');
    expect(fromDatabaseError(uniqueViolation('environments_pkey', 'Key (name)=(staging) already exists.'))?.message)
      .toBe('An environment with the name staging already exists');
    expect(fromDatabaseError(uniqueViolation('project_environments_pkey', 'Key (project_id, environment_name)=(web, staging) already exists.'))?.message)
      .toBe('The environment "staging" is already enabled for project "web"');
  });

  it('a key whose last value contains ", " is read whole (only the last value may, the others are URL-friendly names)', () => {
    expect(fromDatabaseError(uniqueViolation('tags_pkey', 'Key (type, value)=(simple, a, b) already exists.'))?.message)
      .toBe('A tag of type simple with the value a, b already exists');
    expect(uniqueKeyValues('Key (feature_name, tag_type, tag_value)=(f, simple, x, y) already exists.', ['feature_name', 'tag_type', 'tag_value']))
      .toEqual(new Map([['feature_name', 'f'], ['tag_type', 'simple'], ['tag_value', 'x, y']]));
  });

  it('a detail that is missing, for other columns or too long gives the message without values; SQL never reaches the caller', () => {
    for (const detail of [undefined, 'Key (other)=(x) already exists.', 'something else', `Key (name)=(${'x'.repeat(300)}) already exists.`]) {
      const err = fromDatabaseError(uniqueViolation('context_fields_pkey', detail));
      expect(err).toBeInstanceOf(NameExistsError);
      expect(err?.message).toBe('A context field with that name already exists');
    }
  });

  it('secrets are never repeated back, and an unknown index still gives a 409 without SQL', () => {
    const token = fromDatabaseError(uniqueViolation('api_tokens_secret_hash_key', 'Key (secret_hash)=(0123abcd) already exists.'));
    expect(token).toBeInstanceOf(NameExistsError);
    expect(token?.message).not.toContain('0123abcd');
    const unknown = fromDatabaseError(uniqueViolation('some_new_idx', 'Key (a)=(b) already exists.'));
    expect(unknown).toBeInstanceOf(NameExistsError);
    expect(unknown?.message).not.toMatch(/some_new_idx|Key \(|duplicate/);
  });

  it('both doors answer it with 409 NameExistsError', () => {
    const raw = uniqueViolation('tags_pkey', 'Key (type, value)=(simple, beta) already exists.');
    const { res } = respond(raw);
    expect(res.statusCode).toBe(409);
    expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'A tag of type simple with the value beta already exists' });
    const masked = maskError(capture().logger)(new GraphQLError('x', { originalError: raw })) as GraphQLError;
    expect(masked.extensions).toMatchObject({ name: 'NameExistsError', code: 409 });
  });

  it('a unique violation met inside change() is not run again (only deadlock and serialization victims are) and is a 409', async () => {
    let runs = 0;
    const em = {
      transactional: async () => { runs += 1; throw uniqueViolation('tags_pkey', 'Key (type, value)=(simple, beta) already exists.'); },
      clear: () => {},
    };
    const thrown = await change(em as never, systemPrincipal, async () => undefined).catch((err: unknown) => err);
    expect(runs).toBe(1);
    expect(fromDatabaseError(thrown)).toBeInstanceOf(NameExistsError);
  });
});
