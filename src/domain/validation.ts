import { z } from 'zod';
import { ValidationError, type ErrorDetail } from './errors';

/** Shared field rules. Names that appear in URLs are URL-friendly, as Unleash requires. */
export const URL_FRIENDLY = /^[a-zA-Z0-9~_.-]+$/;
export const urlFriendlyName = (min: number, max: number) =>
  z.string().min(min).max(max).regex(URL_FRIENDLY, { message: 'must be URL friendly' })
    // "." and ".." are URL-friendly characters, but as a path segment they are resolved away: nothing named so could be addressed.
    .refine((n) => n !== '.' && n !== '..', { message: 'must not be "." or ".." (it could not be used in a URL)' });
export const description = z.string().max(1000);

/** Whether text is a UUID (ids of strategies and deliveries): anything else names nothing, so callers answer 404. */
export const isUuid = (v: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** Largest id of a `serial` column. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * A row id from a path parameter or an input: a positive whole number within `serial` range, given as a number or as
 * 1–10 digits; undefined for anything else (callers answer 404: such an id names nothing).
 */
export function rowId(id: number | string): number | undefined {
  const n = typeof id === 'number' ? id : /^\d{1,10}$/.test(id) ? Number(id) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= MAX_ROW_ID ? n : undefined;
}

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

/**
 * Deepest nesting of arrays and objects accepted in any input (the request body as a whole is level 1).
 * The deepest legitimate bodies today are 7 levels: a JSON patch replacing a whole variant list (patch, operation,
 * variants, variant, overrides, override, values), or a GraphQL body adding a variant with overrides (body, variables,
 * input, variants, variant, overrides, override, values is 8). A future patch whose value is a whole feature as read
 * (patch, operation, feature, environments, environment, strategies, strategy, constraints, constraint, values) would
 * be 10. 64 leaves a margin of six times that, and keeps every recursive walk that libraries and the engine make over
 * input (JSON.stringify, structuredClone, fast-json-patch's validation, Array.prototype.join) a few hundred stack
 * frames deep at most, far from the ~10,000 of Node's default stack. The HTTP door enforces it on the raw bytes before
 * JSON.parse; `parse` enforces it again on every value a service receives (GraphQL literals included).
 */
export const MAX_INPUT_DEPTH = 64;

/**
 * Where a value nests too deeply: the path down to the container that goes over the limit, without the trailing run
 * of first-element indexes (`x/0/0/0/...` is reported as `x`), so the detail names the property holding the nesting.
 */
export function depthPath(segments: readonly string[]): string {
  let end = segments.length;
  while (end > 0 && segments[end - 1] === '0') end -= 1;
  return segments.slice(0, end).join('/');
}

declare global {
  interface String {
    /** ES2024 (Node 20): false when the string holds a lone surrogate. Declared here: the project's lib is ES2023. */
    isWellFormed(): boolean;
  }
}

/** The problem with a piece of text, or undefined when PostgreSQL can store it as it was acknowledged. */
export function textProblem(text: string): 'nul' | 'surrogate' | undefined {
  if (text.includes('\u0000')) return 'nul';
  if (!text.isWellFormed()) return 'surrogate';
  return undefined;
}

export const TEXT_PROBLEMS = {
  nul: 'must not contain the NUL character (\\u0000)',
  surrogate: 'must be well-formed Unicode, but it contains a lone surrogate (half of a UTF-16 pair, such as \\ud800)',
} as const;

const label = (path: string) => (path ? `\`${path}\` property` : 'request body');

interface Node {
  value: unknown;
  key: string;
  parent: Node | undefined;
  depth: number;
}

const pathOf = (node: Node): string[] => {
  const out: string[] = [];
  for (let n: Node | undefined = node; n?.parent; n = n.parent) out.push(n.key);
  return out.reverse();
};

/**
 * Text PostgreSQL cannot store as acknowledged (U+0000; lone surrogates, which jsonb refuses and text columns turn
 * into U+FFFD), in values and property names, and nesting deeper than MAX_INPUT_DEPTH. The HTTP door refuses all of
 * these before parsing; this is the second line for every service input (GraphQL literals reach services without
 * passing through the door's byte scan). Iterative, with an explicit stack: the input may be nested arbitrarily deep.
 */
function textDetails(root: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const stack: Node[] = [{ value: root, key: '', parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) {
        const path = pathOf(node).join('/');
        details.push({ path, message: `The ${label(path)} ${TEXT_PROBLEMS[problem]}.` });
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const depth = node.depth + 1;
    if (depth > MAX_INPUT_DEPTH) {
      const path = depthPath(pathOf(node));
      details.push({ path, message: `The ${label(path)} is nested deeper than ${MAX_INPUT_DEPTH} levels of arrays and objects.` });
      continue;
    }
    const children: Node[] = [];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) children.push({ value: value[i], key: String(i), parent: node, depth });
    } else {
      for (const [key, child] of Object.entries(value)) {
        const problem = textProblem(key);
        if (problem) {
          const path = pathOf(node).join('/');
          details.push({ path, message: `${path ? `The \`${path}\` object` : 'The root object of the request body'} has a property name that ${TEXT_PROBLEMS[problem]}.` });
        }
        children.push({ value: child, key, parent: node, depth });
      }
    }
    // Pushed in reverse, so details come out in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return details;
}

/** Parses `input` or throws a `ValidationError` whose details name each offending property path. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw ValidationError.of(result.error.issues.flatMap((issue) => issueDetails(issue, input)));
  const text = textDetails(result.data);
  if (text.length > 0) throw ValidationError.of(text);
  return result.data;
}

/**
 * JSON with object keys sorted, so values read back from jsonb (which reorders keys) compare equal to fresh ones.
 * JSON.stringify recurses; callers only give it parsed input or stored rows, both at most MAX_INPUT_DEPTH deep
 * (`parse` refuses deeper input, and only parsed input is stored), so the recursion is bounded.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v));
}

/** Structural equality of two JSON-shaped values (used to skip audit events for updates that change nothing). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
