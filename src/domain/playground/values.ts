/**
 * How the engine reads a value: a context value as constraints and strategies see it (`textOf`), and a semantic
 * version as the client specification reads it (`parseSemver`, for constraint values and context values alike).
 */
import SemVer from 'semver/classes/semver';

/** A context value as constraints see it: a truthy string (numbers and booleans as text), else undefined. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if ((typeof value === 'number' && value !== 0 && !Number.isNaN(value)) || value === true) return String(value);
  return undefined;
}

/**
 * A SemVer, or null when the text is not a strict semantic version. node-semver alone would accept a leading "v" and
 * surrounding spaces; the client specification (14-constraint-semver-operators: "invalid semver resolves to false")
 * and Unleash's save-time check (`semver.clean(value) === value`) both treat those as invalid, so they are refused here.
 */
export function parseSemver(text: unknown): SemVer | null {
  if (typeof text !== 'string' || text === '' || text.charCodeAt(0) === 118 /* v */ || text.trim() !== text) return null;
  try {
    return new SemVer(text);
  } catch {
    return null;
  }
}
