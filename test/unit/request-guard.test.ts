import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../src/domain/errors';
import { MAX_INPUT_DEPTH } from '../../src/domain/validation';
import { checkUrl, findJsonIssue, firstInvalidUtf8, jsonIssueDetail, parseJsonBytes } from '../../src/request-guard';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const concat = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? bytes(p) : Buffer.from(p))));
const nested = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

/** The detail parseJsonBytes refuses `input` with (fails when it is accepted). */
function refusal(input: Buffer, prefix = ''): { path: string; message: string } {
  try {
    parseJsonBytes(input, prefix);
  } catch (err) {
    if (err instanceof ValidationError) return err.details[0];
    throw err;
  }
  throw new Error(`accepted: ${input.toString('utf8').slice(0, 80)}`);
}

describe('findJsonIssue: what passes', () => {
  it.each([
    ['plain JSON', '{"name":"a","list":[1,2,{"b":null}],"t":true}'],
    ['a surrogate pair as escapes (😀)', '{"s":"\\ud83d\\ude00","S":"\\uD83D\\uDE00"}'],
    ['raw non-ASCII text', '{"s":"café – 日本 😀"}'],
    ['an escaped backslash before "ud800" (text, not an escape)', '{"s":"\\\\ud800"}'],
    ['an escaped quote, then brackets inside the string', '{"s":"a\\"[[[[{{{{"}'],
    ['other escapes, \\u0001 and \\u00e9', '{"s":"\\n\\t\\/\\u0001\\u00e9"}'],
    [`nesting of exactly ${MAX_INPUT_DEPTH} levels`, nested(MAX_INPUT_DEPTH)],
    ['a string that is not JSON (left to JSON.parse)', '{"a": tru'],
  ])('%s', (_label, text) => {
    expect(findJsonIssue(bytes(text))).toBeNull();
  });
});

describe('findJsonIssue: what it finds, and where', () => {
  it.each([
    ['a lone high surrogate at the end of a string', '{"a":"x\\ud800"}', 'surrogate', 7],
    ['a high surrogate followed by text', '{"a":"\\uD800b"}', 'surrogate', 6],
    ['a high surrogate followed by another high one', '{"a":"\\ud800\\ud800"}', 'surrogate', 6],
    ['a high surrogate followed by a non-surrogate escape', '{"a":"\\ud800\\u0041"}', 'surrogate', 6],
    ['a lone low surrogate', '{"a":"\\udc00"}', 'surrogate', 6],
    ['a pair in the wrong order', '{"a":"\\ude00\\ud83d"}', 'surrogate', 6],
    ['a NUL escape', '{"a":"x\\u0000"}', 'nul', 7],
    ['a NUL escape in a property name', '{"\\u0000":1}', 'nul', 2],
    [`nesting of ${MAX_INPUT_DEPTH + 1} levels (the first bracket over the limit)`, nested(MAX_INPUT_DEPTH + 1), 'depth', MAX_INPUT_DEPTH],
    ['objects count as levels too', `${'{"a":'.repeat(MAX_INPUT_DEPTH + 1)}1${'}'.repeat(MAX_INPUT_DEPTH + 1)}`, 'depth', 5 * MAX_INPUT_DEPTH],
  ])('%s', (_label, text, kind, offset) => {
    expect(findJsonIssue(bytes(text))).toEqual({ kind, offset });
  });

  it('a raw NUL byte, in a string or outside one', () => {
    expect(findJsonIssue(concat('{"a":"x', [0], '"}'))).toEqual({ kind: 'nul', offset: 7 });
    expect(findJsonIssue(concat('{"a":1', [0], '}'))).toEqual({ kind: 'nul', offset: 6 });
  });

  it.each([
    ['0xFF', [0xff]],
    ['an overlong encoding (C0 80)', [0xc0, 0x80]],
    ['an encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['a code point over U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
    ['a lead byte without its continuation', [0xe2, 0x82]],
  ])('invalid UTF-8: %s, at its offset', (_label, bad) => {
    expect(findJsonIssue(concat('{"a":"ok","b":"x', bad, 'y"}'))).toEqual({ kind: 'utf8', offset: 16 });
  });

  it('firstInvalidUtf8 agrees with node:buffer isUtf8 on random bytes, and points at a byte that cannot start the rest', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 5000; round++) {
      const length = Math.floor(random() * 12);
      // Bias towards multi-byte lead and continuation bytes, where the rules are.
      const buf = Buffer.from(Array.from({ length }, () => (random() < 0.5 ? 0x80 + Math.floor(random() * 0x80) : Math.floor(random() * 0x100))));
      const at = firstInvalidUtf8(buf);
      expect({ buf: buf.toString('hex'), valid: at === -1 }).toEqual({ buf: buf.toString('hex'), valid: isUtf8(buf) });
      if (at !== -1) {
        expect(isUtf8(buf.subarray(0, at))).toBe(true);
        expect(isUtf8(buf.subarray(at))).toBe(false);
      }
    }
  });
});

describe('the detail names the property', () => {
  it.each([
    ['a nested value', '{"a":[{"b":"x"},{"c":["ok","\\ud800"]}]}', 'a/1/c/1'],
    ['a value after escaped property names', '{"a\\"b":{"c\\u00e9":"\\u0000"}}', 'a"b/cé'],
    ['a strategy parameter', '{"name":"flexibleRollout","parameters":{"groupId":"g","rollout":"a\\udfffb"}}', 'parameters/rollout'],
    ['a constraint value', '{"constraints":[{"contextName":"userId","operator":"IN","values":["a","\\ud800"]}]}', 'constraints/0/values/1'],
    ['the whole body', '"\\ud800"', ''],
    ['an element of a root array', '[1,"ok",{"x":[]},"\\u0000"]', '3'],
  ])('%s', (_label, text, path) => {
    expect(refusal(bytes(text)).path).toBe(path);
  });

  it('a property name: the detail names its object', () => {
    const detail = refusal(bytes('{"parameters":{"ok":"1","bad\\ud800":"2"}}'));
    expect(detail).toEqual({ path: 'parameters', message: expect.stringContaining('The `parameters` object has a property name that must be well-formed Unicode') });
    expect(refusal(bytes('{"\\u0000":1}'))).toEqual({ path: '', message: expect.stringContaining('The root object of the request body has a property name that must not contain the NUL character') });
  });

  it('invalid UTF-8 names the property and the byte', () => {
    expect(refusal(concat('{"tags":[{"value":"a', [0xff], 'b"}]}'))).toEqual({ path: 'tags/0/value', message: 'The `tags/0/value` property is not valid UTF-8 (byte 0xFF at position 20).' });
  });

  it('nesting names the property that holds it (the run of first elements is not listed)', () => {
    expect(refusal(bytes(`{"context":{"properties":{"x":${nested(20_000)}}}}`))).toEqual({
      path: 'context/properties/x', message: `The \`context/properties/x\` property is nested deeper than ${MAX_INPUT_DEPTH} levels of arrays and objects.`,
    });
    expect(refusal(bytes(`[{"op":"add","path":"/a","value":{"b":[1,${nested(100)}]}}]`)).path).toBe('0/value/b/1');
    expect(refusal(bytes(nested(100))).message).toBe(`The request body is nested deeper than ${MAX_INPUT_DEPTH} levels of arrays and objects.`);
  });

  it('is the same for the JSON of a query parameter, prefixed with its name', () => {
    expect(refusal(bytes('{"input":{"value":"\\ud800"}}'), 'variables').path).toBe('variables/input/value');
    expect(refusal(bytes(nested(100)), 'variables').message).toBe(`The \`variables\` query parameter is nested deeper than ${MAX_INPUT_DEPTH} levels of arrays and objects.`);
    expect(refusal(bytes('{not-json'), 'variables')).toEqual({ path: 'variables', message: expect.stringMatching(/^The `variables` query parameter is not valid JSON/) });
  });

  it('jsonIssueDetail is only the slow path: it finds the same string as the scan', () => {
    const text = bytes('{"a":"\\ud800","b":"\\ud800"}');
    expect(jsonIssueDetail(text, findJsonIssue(text)!).path).toBe('a');
  });
});

describe('parseJsonBytes', () => {
  it('parses what passes, ignoring a UTF-8 byte order mark', () => {
    expect(parseJsonBytes(concat([0xef, 0xbb, 0xbf], '{"a":"\\ud83d\\ude00"}'))).toEqual({ a: '😀' });
    expect(parseJsonBytes(bytes('"text"'))).toBe('text');
  });
  it('refuses text that is not JSON with path ""', () => {
    expect(refusal(bytes('{"a": '))).toEqual({ path: '', message: expect.stringMatching(/^The request body is not valid JSON/) });
  });
  it(`needs no stack for depth: 1,000,000 levels are refused by the scan (JSON.parse never runs)`, () => {
    expect(refusal(bytes(nested(1_000_000))).path).toBe('');
  });
});

describe('checkUrl', () => {
  const detail = (url: string, options?: Parameters<typeof checkUrl>[1]) => checkUrl(url, options)?.details[0];

  it.each([
    '/api/admin/projects', '/api/admin/features/caf%C3%A9/tags', '/api/admin/events?type=feature-created&limit=10',
    '/api/admin/events?type=a+b&x', '/api/admin/events?q=%F0%9F%98%80', '/api/admin/a%2Fb', '/graphql?query=%7Btags%7Bvalue%7D%7D&variables=',
  ])('accepts %s', (url) => {
    expect(checkUrl(url, { jsonParameters: ['variables'] })).toBeUndefined();
  });

  it.each([
    ['%FF', 'is not valid UTF-8 once percent-decoded'],
    ['%ED%A0%80', 'is not valid UTF-8 once percent-decoded'],
    ['%C0%80', 'is not valid UTF-8 once percent-decoded'],
    ['%00', 'must not contain the NUL character (%00)'],
    ['%ZZ', 'is not valid percent-encoding'],
    ['100%', 'is not valid percent-encoding'],
  ])('refuses %s in a query value, naming the parameter', (value, problem) => {
    expect(detail(`/api/admin/events?limit=5&type=${value}`)).toEqual({ path: 'type', message: expect.stringContaining(`The \`type\` query parameter ${problem}`) });
  });

  it('refuses a bad query parameter name, naming it as it was sent', () => {
    expect(detail('/api/admin/events?ty%FFpe=x')).toEqual({ path: 'ty%FFpe', message: 'The name of the query parameter `ty%FFpe` is not valid UTF-8 once percent-decoded.' });
  });

  it.each(['a%00b', 'a%FFb', '%ED%A0%80', '%ZZ', '%E0%A4%A'])('refuses %s in a path segment, naming the segment', (segment) => {
    expect(detail(`/api/admin/features/${segment}/tags?x=1`)).toEqual({ path: '', message: expect.stringContaining(`The request path segment \`${segment}\``) });
  });

  it('refuses characters that are not URL text (an HTTP parser in lenient mode could let them through)', () => {
    expect(detail('/api/admin/features/a\u00ffb')?.message).toContain('not allowed in a URL');
    expect(detail('/api/admin/events?type=a\u00ffb')?.path).toBe('type');
  });

  it('checks the JSON query parameters it is told about (GraphQL GET variables and extensions) like a body', () => {
    const gql = { jsonParameters: ['variables', 'extensions'] };
    const q = '/graphql?query=%7Btags%7Bvalue%7D%7D';
    expect(detail(`${q}&variables={not-json`, gql)).toEqual({ path: 'variables', message: expect.stringMatching(/^The `variables` query parameter is not valid JSON/) });
    expect(detail(`${q}&variables=${encodeURIComponent('{"input":{"value":"\\ud800"}}')}`, gql)?.path).toBe('variables/input/value');
    expect(detail(`${q}&extensions=${encodeURIComponent('{"a":"\\u0000"}')}`, gql)?.path).toBe('extensions/a');
    expect(detail(`${q}&variables=${encodeURIComponent(nested(65))}`, gql)?.message).toContain('nested deeper than');
    expect(detail(`${q}&variables=%7B%22a%22%3A%22%FF%22%7D`, gql)).toEqual({ path: 'variables', message: 'The `variables` query parameter is not valid UTF-8 once percent-decoded.' });
    // Only where it is told: on /api a `variables` parameter is just text.
    expect(checkUrl('/api/admin/events?variables={not-json')).toBeUndefined();
  });
});
