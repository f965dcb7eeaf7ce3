import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ValidationError } from '../../src/domain/errors';
import { MAX_INPUT_DEPTH, parse, urlFriendlyName } from '../../src/domain/validation';

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

describe('parse: text PostgreSQL cannot store, and nesting (the second line behind the HTTP door)', () => {
  const free = z.object({ name: z.string(), extra: z.unknown().optional(), map: z.record(z.string(), z.string()).optional() }).strict();
  const refuse = (input: unknown): ValidationError => {
    try {
      parse(free, input);
    } catch (err) {
      if (err instanceof ValidationError) return err;
      throw err;
    }
    throw new Error('expected a ValidationError');
  };
  const deep = (levels: number): unknown => {
    let v: unknown = 'leaf';
    for (let i = 0; i < levels; i++) v = [v];
    return v;
  };

  it('refuses a lone surrogate in a value, naming it', () => {
    expect(refuse({ name: 'a\ud800b' }).details).toEqual([{ path: 'name', message: expect.stringContaining('must be well-formed Unicode') }]);
    expect(refuse({ name: 'ok', extra: { list: ['x', 'y\udc00'] } }).details[0].path).toBe('extra/list/1');
  });
  it('refuses NUL and lone surrogates in property names, naming the object', () => {
    expect(refuse({ name: 'ok', map: { 'k\u0000': 'v' } }).details).toEqual([{ path: 'map', message: expect.stringContaining('has a property name that must not contain the NUL character') }]);
    expect(refuse({ name: 'ok', extra: { 'k\ud800': 1 } }).details[0].path).toBe('extra');
  });
  it('lists every problem, in document order', () => {
    expect(refuse({ name: 'a\u0000', extra: ['\ud800', 'ok', '\u0000'] }).details.map((d) => d.path)).toEqual(['name', 'extra/0', 'extra/2']);
  });
  it(`accepts nesting of ${MAX_INPUT_DEPTH} levels and refuses one more, naming the property`, () => {
    // The body object is level 1, so `extra` may hold MAX_INPUT_DEPTH - 1 levels.
    expect(parse(free, { name: 'ok', extra: deep(MAX_INPUT_DEPTH - 1) })).toEqual({ name: 'ok', extra: deep(MAX_INPUT_DEPTH - 1) });
    expect(refuse({ name: 'ok', extra: deep(MAX_INPUT_DEPTH) }).details).toEqual([{ path: 'extra', message: `The \`extra\` property is nested deeper than ${MAX_INPUT_DEPTH} levels of arrays and objects.` }]);
  });
  it('walks without recursion: 200,000 levels are refused, not a stack overflow', () => {
    expect(refuse({ name: 'ok', extra: deep(200_000) }).details.map((d) => d.path)).toEqual(['extra']);
  });
  it('keeps well-formed text, surrogate pairs included', () => {
    expect(parse(free, { name: 'caf\u00e9 \ud83d\ude00', map: { '\ud83d\ude00': 'x' } })).toEqual({ name: 'café 😀', map: { '😀': 'x' } });
  });
});
