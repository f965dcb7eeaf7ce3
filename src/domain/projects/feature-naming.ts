import { RE2JS } from 're2js';
import safeRegex from 'safe-regex2';
import { z } from 'zod';
import { PatternError, ValidationError, type ErrorDetail } from '../errors';
import { parse } from '../validation';
import type { ProjectFeatureNaming } from './project.shapes';

/**
 * A project's feature naming pattern (spec "Feature naming pattern", design D8). Pure: no database.
 *
 * A pattern is a JavaScript regular expression without delimiters or flags. It is always applied to the whole
 * name as `^(?:pattern)$` (so `a|b` means "a or b", unlike Unleash's plain `^a|b$`), and it is matched with
 * RE2JS, a linear-time engine: no stored pattern can stall a request, whatever the name it is matched against.
 * On top of that, patterns RE2 cannot run (backreferences, lookarounds) and patterns with nested quantifiers
 * that would backtrack catastrophically in a JavaScript engine (safe-regex2's star-height test) are refused,
 * so a pattern that is accepted here behaves the same in any client that checks names with a plain RegExp.
 */

export const FEATURE_NAMING_PATTERN_MAX = 500;

/** The JSON shape (REST body / GraphQL input). `pattern` is required but nullable; null clears all three. */
export const featureNamingSchema = z.object({
  pattern: z.string().max(FEATURE_NAMING_PATTERN_MAX).nullable(),
  example: z.string().max(FEATURE_NAMING_PATTERN_MAX).nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
}).strict();

export type FeatureNamingInput = z.input<typeof featureNamingSchema>;

/** The two-character escapes that stand for whitespace, as Unleash refuses them (`\s` included). */
const WHITESPACE_ESCAPE = /\\[tsnrfv]/;
const WHITESPACE = /\s/;

const anchored = (pattern: string) => `^(?:${pattern})$`;

/** Compiles a pattern with the linear-time engine, anchored as a group; throws RE2JS's syntax error otherwise. */
function compileLinear(pattern: string): RE2JS {
  return RE2JS.compile(anchored(RE2JS.translateRegExp(pattern)));
}

/** Compiled patterns, oldest first; a small bound keeps memory flat whatever projects store. */
const CACHE_LIMIT = 100;
const cache = new Map<string, RE2JS | null>();

function compiled(pattern: string): RE2JS | null {
  const hit = cache.get(pattern);
  if (hit !== undefined) {
    cache.delete(pattern); // re-insert: most recently used last
    cache.set(pattern, hit);
    return hit;
  }
  let re: RE2JS | null;
  try {
    re = compileLinear(pattern);
  } catch {
    re = null; // not runnable in linear time (never accepted by validateFeatureNaming)
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, re);
  return re;
}

/** Whether `name` matches the whole pattern, in time linear in the name's length. */
export function matchesFeatureNaming(pattern: string, name: string): boolean {
  const re = compiled(pattern);
  return re !== null && re.matches(name);
}

/** Why a pattern cannot be stored, or null when it can. Checks run cheapest first; each reason is a full sentence. */
function patternProblem(pattern: string): string | null {
  if (pattern.includes(' ') || WHITESPACE.test(pattern) || WHITESPACE_ESCAPE.test(pattern)) {
    return 'Feature flag names cannot contain whitespace. You\'ve provided a feature flag naming pattern that contains a whitespace character or a whitespace escape (such as " ", \\s, \\t, \\n, \\r, \\f or \\v). Please remove any whitespace from the pattern.';
  }
  try {
    new RegExp(anchored(pattern)); // construction only: never run, so it cannot backtrack
  } catch (err) {
    return `The feature flag naming pattern ("${pattern}") is not a valid JavaScript regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}.`;
  }
  try {
    compileLinear(pattern);
  } catch (err) {
    return `The feature flag naming pattern ("${pattern}") cannot be matched in linear time: it uses syntax the safe regular expression engine does not support, such as backreferences, lookarounds or a repeat count above 1000 (${(err as Error).message.replace(/^error parsing regexp: /, '')}).`;
  }
  if (!safeRegex(pattern)) {
    return `The feature flag naming pattern ("${pattern}") is unsafe: it nests repetitions (for example "(a+)+") or has more than 25 of them, so a backtracking regular expression engine could take exponential time (catastrophic backtracking) to match some names. Please simplify the pattern.`;
  }
  return null;
}

/**
 * Validates a naming pattern for storage and normalises it: an empty or null pattern clears all three fields;
 * with a pattern, a falsy example or description is stored as null. Every reason it is refused is listed in
 * `details` of one 400 ValidationError (paths `featureNaming/pattern`, `featureNaming/example`, ...).
 */
export function validateFeatureNaming(input: FeatureNamingInput, path = 'featureNaming'): ProjectFeatureNaming {
  // Parsed under its property name so zod's details read `featureNaming/pattern`, as they do inside a request body.
  const data = path ? parse(z.object({ [path]: featureNamingSchema }), { [path]: input })[path] : parse(featureNamingSchema, input);
  const at = (field: string) => (path ? `${path}/${field}` : field);
  const pattern = data.pattern || null;
  const example = data.example || null;
  const description = data.description || null;
  const details: ErrorDetail[] = [];

  if (pattern === null) {
    if (example !== null) {
      details.push({ path: at('example'), message: `You've provided a feature flag naming example ("${example}"), but no feature flag naming pattern. You must specify a pattern to use an example.` });
    }
    if (description !== null) {
      details.push({ path: at('description'), message: `You've provided a feature flag naming pattern description ("${description}"), but no feature flag naming pattern. You must have a pattern to use a description.` });
    }
    if (details.length > 0) throw ValidationError.of(details);
    return { pattern: null, example: null, description: null };
  }

  const problem = patternProblem(pattern);
  if (problem !== null) {
    details.push({ path: at('pattern'), message: problem });
  } else if (example !== null && !matchesFeatureNaming(pattern, example)) {
    details.push({ path: at('example'), message: `You've provided a feature flag naming example ("${example}") that doesn't match your feature flag naming pattern ("${pattern}"). Please provide an example that matches your chosen pattern.` });
  }
  if (details.length > 0) throw ValidationError.of(details);
  return { pattern, example, description };
}

/**
 * Refuses a feature name that does not match the project's naming pattern (400 PatternError); does nothing
 * when the project has no pattern. Used when a feature is created, cloned or imported.
 */
export function checkFeatureName(naming: ProjectFeatureNaming, name: string): void {
  if (!naming.pattern || matchesFeatureNaming(naming.pattern, name)) return;
  throw new PatternError(featureNameMismatchMessage(naming, name));
}

/** The PatternError message for `name` against `naming` (also usable where several names are reported). */
export function featureNameMismatchMessage(naming: ProjectFeatureNaming, name: string): string {
  let message = `The feature flag name "${name}" does not match the project's naming pattern: "${naming.pattern}".`;
  if (naming.example) message += ` Here's an example of a name that does match the pattern: "${naming.example}".`;
  if (naming.description) message += ` The pattern's description is: "${naming.description}".`;
  return message;
}
