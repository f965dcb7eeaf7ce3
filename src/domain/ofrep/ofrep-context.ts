import { ValidationError } from '../errors';
import { contextFromBody, type FrontendContext } from '../frontend/frontend-context';

/**
 * An OpenFeature evaluation context (OFREP's `{context}`), read into the Unleash context the engine takes (issue 45).
 * `targetingKey` is the `userId` unless the context names one itself; `userId`, `sessionId`, `remoteAddress`,
 * `currentTime`, `appName` and `environment` stay at the top level; every other key is a property. OpenFeature values
 * may be numbers and booleans, which are compared as their text (Unleash's constraints read text); an object, a list
 * or a date object has no text form here and is an INVALID_CONTEXT. The bounds and rules of the frontend API's context
 * apply (frontend-context.ts): it is the same context once read.
 */
export function ofrepContext(body: unknown): FrontendContext {
  if (body === undefined || body === null) return contextFromBody(undefined);
  if (typeof body !== 'object' || Array.isArray(body)) throw ValidationError.single('', 'The body must be an object: `{"context": {...}}`.');
  const given = Object.hasOwn(body, 'context') ? (body as Record<string, unknown>).context : undefined;
  if (given === undefined || given === null) return contextFromBody(undefined);
  if (typeof given !== 'object' || Array.isArray(given)) throw ValidationError.single('context', '`context` must be an object.');
  const context = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    const value = (given as Record<string, unknown>)[key];
    if (key === 'targetingKey') continue;
    context[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  const targetingKey = (given as Record<string, unknown>).targetingKey;
  if (targetingKey !== undefined && targetingKey !== null && context.userId === undefined) {
    if (typeof targetingKey !== 'string' && typeof targetingKey !== 'number') throw ValidationError.single('context/targetingKey', '`targetingKey` must be text.');
    context.userId = String(targetingKey);
  }
  return contextFromBody({ context });
}
