import { z } from 'zod';
import { ValidationError, type ErrorDetail } from './errors';

/** Shared field rules. Names that appear in URLs are URL-friendly, as Unleash requires. */
export const URL_FRIENDLY = /^[a-zA-Z0-9~_.-]+$/;
export const urlFriendlyName = (min: number, max: number) =>
  z.string().min(min).max(max).regex(URL_FRIENDLY, { message: 'must be URL friendly' })
    // "." and ".." are URL-friendly characters, but as a path segment they are resolved away: nothing named so could be addressed.
    .refine((n) => n !== '.' && n !== '..', { message: 'must not be "." or ".." (it could not be used in a URL)' });
export const description = z.string().max(1000);

const where = (path: PropertyKey[]) => path.map(String).join('/');
const quote = (v: unknown) => JSON.stringify(v);

function issueDetails(issue: z.core.$ZodIssue, input: unknown): ErrorDetail[] {
  const path = where(issue.path);
  const label = path || 'request body';
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: where([...issue.path, key]),
        message: `The ${path ? `\`${path}\` object` : 'root object of the request body'} does not allow additional properties. Your request included the \`${key}\` property.`,
      }));
    case 'invalid_type': {
      const present = valueAt(input, issue.path);
      if (present === undefined) {
        return [{ path, message: `The \`${label}\` property is required. It was not present on the data you sent.` }];
      }
      return [{ path, message: `The \`${label}\` property must be ${article(issue.expected)}. You sent ${describe(present)}.` }];
    }
    case 'too_small':
      return [{ path, message: `The \`${label}\` property must ${issue.origin === 'array' ? `have at least ${issue.minimum} items` : issue.origin === 'string' ? `be at least ${issue.minimum} characters long` : `be at least ${issue.minimum}`}. You sent ${describe(valueAt(input, issue.path))}.` }];
    case 'too_big':
      return [{ path, message: `The \`${label}\` property must ${issue.origin === 'array' ? `have at most ${issue.maximum} items` : issue.origin === 'string' ? `be at most ${issue.maximum} characters long` : `be at most ${issue.maximum}`}.` }];
    case 'invalid_value':
      return [{ path, message: `The \`${label}\` property must match one of the allowed values: ${issue.values.map(quote).join(', ')}. You provided ${describe(valueAt(input, issue.path))}, which is not valid.` }];
    default:
      return [{ path, message: `The \`${label}\` property ${issue.message}.` }];
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 60 ? `a string of ${v.length} characters` : quote(v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** PostgreSQL text and jsonb cannot hold U+0000: strings containing it are refused here rather than failing in the database. */
function nulCharacterDetails(value: unknown, path: PropertyKey[] = []): ErrorDetail[] {
  if (typeof value === 'string') {
    return value.includes('\u0000') ? [{ path: where(path), message: `The \`${where(path) || 'request body'}\` property must not contain the NUL character (\\u0000).` }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => nulCharacterDetails(v, [...path, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nulCharacterDetails(v, [...path, k]));
  return [];
}

/** Parses `input` or throws a `ValidationError` whose details name each offending property path. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw ValidationError.of(result.error.issues.flatMap((issue) => issueDetails(issue, input)));
  const nul = nulCharacterDetails(result.data);
  if (nul.length > 0) throw ValidationError.of(nul);
  return result.data;
}

/** JSON with object keys sorted, so values read back from jsonb (which reorders keys) compare equal to fresh ones. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v));
}

/** Structural equality of two JSON-shaped values (used to skip audit events for updates that change nothing). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
