import { ApiError } from '../api/errors';

/**
 * Where a form shows the service's refusal: each detail whose path names one of the form's fields, keyed by the form's
 * path of that field (`constraints/0/values` → `constraints.0.values`; GraphQL's coercion errors start with the
 * argument, `input/name`, which is left out). The first message for a field wins; details that name no field stay
 * with the refusal's notice only.
 */
export function serverFieldErrors(error: unknown, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError)) return out;
  const known = new Set(fields);
  for (const detail of error.details) {
    if (!detail.path) continue;
    const segments = detail.path.split(/[/.]/).filter((s) => s !== '');
    if (segments[0] === 'input' && !known.has('input')) segments.shift();
    if (segments.length === 0 || !known.has(segments[0]!)) continue;
    const key = segments.join('.');
    if (!(key in out)) out[key] = detail.message;
  }
  return out;
}
