import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ValidationError } from '../../src/domain/errors';
import { parse, urlFriendlyName } from '../../src/domain/validation';

const schema = z.object({ name: urlFriendlyName(1, 10), count: z.number().int().optional(), list: z.array(z.object({ value: z.string() }).strict()).optional() }).strict();

function fail(input: unknown): ValidationError {
  try {
    parse(schema, input);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('parse', () => {
  it('returns the parsed value', () => {
    expect(parse(schema, { name: 'ok', count: 2 })).toEqual({ name: 'ok', count: 2 });
  });
  it('names a missing property', () => {
    expect(fail({}).details).toEqual([{ path: 'name', message: 'The `name` property is required. It was not present on the data you sent.' }]);
  });
  it('names unknown properties, one detail each', () => {
    expect(fail({ name: 'a', foo: 1, bar: 2 }).details.map((d) => d.path)).toEqual(['foo', 'bar']);
  });
  it('names nested paths with slashes', () => {
    expect(fail({ name: 'a', list: [{ value: 1 }] }).details[0].path).toBe('list/0/value');
  });
  it('describes wrong types, lengths and patterns', () => {
    expect(fail({ name: 'a', count: 'x' }).details[0].message).toContain('must be a number');
    expect(fail({ name: 'a'.repeat(11) }).details[0].message).toContain('at most 10 characters');
    expect(fail({ name: 'a b' }).details[0].message).toContain('URL friendly');
  });
  it('refuses "." and ".." as URL-friendly names: as path segments they could never be addressed', () => {
    expect(fail({ name: '.' }).details).toEqual([{ path: 'name', message: expect.stringContaining('must not be "." or ".."') }]);
    expect(fail({ name: '..' }).details[0].path).toBe('name');
    expect(parse(schema, { name: '.a.' })).toEqual({ name: '.a.' });
  });
  it('refuses a body that is not an object', () => {
    expect(fail([1]).details[0].path).toBe('');
    expect(fail('text').details[0].path).toBe('');
  });
  it('uses the single-message form for one problem and the details form for several', () => {
    expect(fail({}).message).toContain('invalid data: The `name` property is required');
    expect(fail({ name: 'a', foo: 1, bar: 2 }).message).toContain('Refer to the `details` list');
  });
});
