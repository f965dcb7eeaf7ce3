/**
 * The Unleash context a browser or mobile SDK sends to the frontend API (issue 14 part 2), read into the context the
 * evaluation engine takes. Unleash v5.8 builds it the way its proxy does: the standard fields (`appName`,
 * `environment`, `userId`, `sessionId`, `remoteAddress`) stay at the top level and only when non-empty; every other
 * key moves into `properties`, and `properties[name]=value` (a query string) or a `properties` object (a body) sets
 * one directly, winning over a plain key of the same name. We keep that, and also read `currentTime` as the
 * evaluation time (Unleash v5.8 moves it into `properties`, so its date constraints ignore it; every SDK and the
 * playground treat it as the time, which is what a caller setting it means).
 *
 * The context is bounded so that one request's evaluation cost is too: at most MAX_FIELDS fields (properties
 * included), names of at most MAX_NAME_LENGTH characters and values of at most MAX_VALUE_LENGTH. Values are text;
 * a repeated query parameter, an object where text belongs or a time that is not one is a 400 naming the parameter
 * (or `context/<path>` in a body). Well-formed Unicode is the door's job (src/request-guard.ts), done before this runs.
 * The objects built have no prototype, so a field may be called `__proto__` or `toString` like any other.
 */
import { ValidationError } from '../errors';
import { isDate } from '../playground/playground.service';
import type { PlaygroundContext } from '../playground/types';

export const MAX_FIELDS = 100;
export const MAX_NAME_LENGTH = 100;
export const MAX_VALUE_LENGTH = 1_000;

/** Fields kept at the top level of the context; any other name is a property. */
const TOP_LEVEL: ReadonlySet<string> = new Set(['appName', 'environment', 'userId', 'sessionId', 'remoteAddress', 'currentTime']);

/** A context with prototype-free objects, as the engine reads it (own properties only). */
export type FrontendContext = PlaygroundContext & { properties: Record<string, string> };

class ContextBuilder {
  readonly context = Object.create(null) as FrontendContext;
  /** Properties given as plain keys, and those given explicitly (which win). */
  private readonly plain = Object.create(null) as Record<string, string>;
  private readonly explicit = Object.create(null) as Record<string, string>;
  private fields = 0;

  constructor(private readonly where: (name: string) => string) {}

  private text(path: string, value: unknown, name: string): string | undefined {
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'string') throw ValidationError.single(path, `\`${name}\` must be text${Array.isArray(value) ? ' given once' : ''}.`);
    if (value.length > MAX_VALUE_LENGTH) throw ValidationError.single(path, `\`${name}\` is ${value.length} characters long; context values may have at most ${MAX_VALUE_LENGTH}.`);
    return value === '' ? undefined : value;
  }

  private count(path: string, name: string): void {
    if (name.length > MAX_NAME_LENGTH) throw ValidationError.single(path, `Context field names may have at most ${MAX_NAME_LENGTH} characters.`);
    if (++this.fields > MAX_FIELDS) throw ValidationError.single(path, `The context has more than ${MAX_FIELDS} fields (properties included); at most ${MAX_FIELDS} are evaluated.`);
  }

  /** A top-level key: a standard field, or a property given as a plain key. */
  field(name: string, value: unknown, path = this.where(name)): void {
    this.count(path, name);
    const text = this.text(path, value, name);
    if (text === undefined) return;
    if (!TOP_LEVEL.has(name)) {
      this.plain[name] = text;
      return;
    }
    if (name === 'currentTime' && !isDate(text)) throw ValidationError.single(path, `\`currentTime\` must match format "date-time" (RFC 3339), got "${text.slice(0, 100)}".`);
    this.context[name] = text;
  }

  /** A property given explicitly (`properties[name]` or a key of the `properties` object). */
  property(name: string, value: unknown, path: string): void {
    if (name === '') throw ValidationError.single(path, 'A context property needs a name: `properties[name]=value`.');
    this.count(path, name);
    const text = this.text(path, value, name);
    if (text !== undefined) this.explicit[name] = text;
  }

  build(): FrontendContext {
    const properties = Object.create(null) as Record<string, string>;
    for (const name of Object.keys(this.plain)) properties[name] = this.plain[name];
    for (const name of Object.keys(this.explicit)) properties[name] = this.explicit[name];
    this.context.properties = properties;
    return this.context;
  }
}

/**
 * The context of `GET /api/frontend?…` from the parsed query string (each value a string, or an array when the
 * parameter is repeated): `properties[name]=value` sets a property, any other unknown parameter is one too.
 */
export function contextFromQuery(query: Record<string, unknown>): FrontendContext {
  const builder = new ContextBuilder((name) => name);
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (key.startsWith('properties[') && key.endsWith(']')) {
      builder.property(key.slice('properties['.length, -1), value, key);
    } else if (key === 'properties') {
      // A nesting query parser (qs, the "extended" one) hands `properties[name]=value` over as an object.
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw ValidationError.single(key, 'Send context properties as `properties[name]=value`.');
      for (const name of Object.keys(value)) builder.property(name, (value as Record<string, unknown>)[name], `properties[${name}]`);
    } else {
      builder.field(key, value);
    }
  }
  return builder.build();
}

/** The context of `POST /api/frontend` from its body `{context: {...}}` (no context: an empty one). */
export function contextFromBody(body: unknown): FrontendContext {
  const builder = new ContextBuilder((name) => `context/${name}`);
  if (body === undefined || body === null) return builder.build();
  if (typeof body !== 'object' || Array.isArray(body)) throw ValidationError.single('', 'The body must be an object: `{"context": {...}}`.');
  const context = Object.hasOwn(body, 'context') ? (body as Record<string, unknown>).context : undefined;
  if (context === undefined || context === null) return builder.build();
  if (typeof context !== 'object' || Array.isArray(context)) throw ValidationError.single('context', '`context` must be an object.');
  for (const key of Object.keys(context)) {
    const value = (context as Record<string, unknown>)[key];
    if (key !== 'properties') {
      builder.field(key, value);
      continue;
    }
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) throw ValidationError.single('context/properties', '`properties` must be an object of text values.');
    for (const name of Object.keys(value)) builder.property(name, (value as Record<string, unknown>)[name], `context/properties/${name}`);
  }
  return builder.build();
}
