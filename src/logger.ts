import pino from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './config';

export type Logger = pino.Logger;

/**
 * The service's logger, on stdout: one JSON object a line (`json`, for log collectors), or pino-pretty's coloured
 * lines (`pretty`, for people). pino-pretty runs here as a synchronous stream, not as a pino transport (those run in a
 * worker thread): no thread to start or to flush at exit, and lines come out in order with what the process prints.
 */
export function createLogger(level: LogLevel, format: LogFormat = 'json'): Logger {
  const options: pino.LoggerOptions = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: loggableError } };
  if (format === 'pretty') return pino(options, pretty({ sync: true, singleLine: true, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l' }));
  return pino(options);
}

/** Properties of a PostgreSQL error that may quote stored values (`Key (x)=(value)`) or statements. */
const DB_VALUE_FIELDS = ['detail', 'where', 'internalQuery', 'query', 'params', 'parameters', 'sql'];

/**
 * An error as it may be logged. A database error's message, as MikroORM builds it, starts with the statement and its
 * bound values (`insert into addons … values ('https://hooks…/secret', …) - <PostgreSQL's message>`): values can be
 * secrets (an addon's webhook URL, a token), so only PostgreSQL's own message, its SQLSTATE and the stack frames are
 * kept.
 */
export function loggableError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  const e = err as { sqlState?: unknown; code?: unknown; message?: unknown };
  const isDatabaseError = e.sqlState !== undefined || (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof out.routine === 'string');
  if (!isDatabaseError) return out;
  const message = typeof out.message === 'string' ? out.message : '';
  const cut = message.lastIndexOf(' - ');
  const safe = cut >= 0 ? message.slice(cut + 3) : message;
  out.message = safe;
  if (typeof out.stack === 'string') {
    const frames = out.stack.indexOf('\n    at ');
    out.stack = `${String(out.type ?? 'Error')}: ${safe}${frames >= 0 ? out.stack.slice(frames) : ''}`;
  }
  for (const key of DB_VALUE_FIELDS) delete out[key];
  return out;
}

/** Longest request URL a log line carries; the rest is cut (Node accepts request lines of up to 16 kB). */
export const MAX_LOGGED_URL = 2048;

/**
 * Query and fragment names whose values are credentials, matched in the name lower-cased, percent-decoded and stripped
 * to letters and digits (so `access_token`, `X-Api-Key`, `client_secret` and `%61uth` match): words anywhere in it,
 * short ones only as the whole name (`sid` would otherwise take `inside`).
 */
const CREDENTIAL_NAME = /auth|token|key|secret|passw|passphrase|pwd|session|cookie|credential|signature|saml|relaystate|invite|jwt|bearer/;
const CREDENTIAL_SHORT_NAMES = new Set(['sid', 'pw', 'pass', 'sig']);

/**
 * Text that holds one of the service's credentials: an API token `<project | * | []>:<environment | *>.<secret>` (the
 * secret 64 hex digits, or 8+ letters, digits, `_` and `-` for INIT_ADMIN_API_TOKENS), a personal access token
 * `user:<hex>`, or a bare secret (a run of 32+ hex digits: API and personal tokens' 64, signup links' 32). The
 * quantifiers are bounded, so a search costs at most ~100 steps a character.
 */
const CREDENTIAL_SHAPE = /[*\]A-Za-z0-9~_.-]:(?:\*|[A-Za-z0-9~_.-]{1,100})\.[A-Za-z0-9_-]{8}|user:[A-Za-z0-9_-]{8}|[0-9a-f]{32}/i;

/**
 * A value that names a credential inside itself, as GraphQL over GET does (`variables={"password":"…"}`,
 * `query=mutation { setUserPassword(input: {password: "…"}) }`): a credential's name, then `:` or `=`.
 */
const EMBEDDED_CREDENTIAL = /(?:auth[a-z]*|token|secret|passw[a-z]*|pwd|api[_-]?key|session[a-z]*|cookie)["']?\s*[:=]/i;

/** Whether a URL may hold anything redactUrl replaces; most request URLs do not, and are logged as they are. */
const MAY_HOLD_SECRET = /[?#%:;]|invite|[0-9a-f]{32}/i;

/** Where a cut URL may end: a separator, so that no part of a cut value is left. */
const SEPARATOR = /[/?#&;=]/;

/**
 * Percent-decoding byte by byte (`%XX` to the character of that code), up to three times for values encoded twice or
 * three times. It never throws on malformed text, unlike decodeURIComponent; credentials are ASCII, so nothing they are
 * matched by is lost by not decoding UTF-8.
 */
function decoded(text: string): string {
  let out = text;
  for (let i = 0; i < 3 && out.includes('%'); i += 1) {
    const next = out.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === out) break;
    out = next;
  }
  return out;
}

const holdsCredential = (part: string) => CREDENTIAL_SHAPE.test(decoded(part));

function isCredentialName(name: string): boolean {
  const plain = decoded(name).toLowerCase().replace(/[^a-z0-9]/g, '');
  return CREDENTIAL_NAME.test(plain) || CREDENTIAL_SHORT_NAMES.has(plain);
}

/** A path: segments holding a credential, and the secret segment of signup links, become `[redacted]`. */
function redactPath(path: string): string {
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i += 1) {
    const before = i > 0 ? segments[i - 1].toLowerCase() : '';
    const linkSecret = before === 'invite' || (before === 'tokens' && i > 1 && segments[i - 2].toLowerCase() === 'invite-link');
    if (segments[i] !== '' && (linkSecret || holdsCredential(segments[i]))) segments[i] = '[redacted]';
  }
  return segments.join('/');
}

/**
 * A query string or fragment as `name=value` pairs separated by `&` or `;`: a pair whose name holds a credential
 * goes whole; a value under a credential's name, holding one, or naming one inside (EMBEDDED_CREDENTIAL) becomes
 * `[redacted]`.
 */
function redactPairs(text: string): string {
  return text.replace(/[^&;]+/g, (pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (holdsCredential(name)) return '[redacted]';
    if (eq === -1 || eq === pair.length - 1) return pair;
    if (isCredentialName(name)) return `${name}=[redacted]`;
    const value = decoded(pair.slice(eq + 1));
    return CREDENTIAL_SHAPE.test(value) || EMBEDDED_CREDENTIAL.test(value) ? `${name}=[redacted]` : pair;
  });
}

/**
 * A request URL as it may be logged (the request log, the unexpected-error log). Replaced by `[redacted]`:
 * - query (and fragment) values whose name suggests a credential (CREDENTIAL_NAME: `authorization`, `token`,
 *   `api_key`, `x-api-key`, `client_secret`, `password`, `session`, the SAML fields, `invite`...);
 * - any path segment, query name or value, or fragment part holding something shaped like one of the service's
 *   credentials (CREDENTIAL_SHAPE), percent-encoded or not, and query values naming a credential inside them
 *   (GraphQL's `query` and `variables` over GET);
 * - the secret segment of signup links (`/invite/<secret>`, `/invite-link/tokens/<secret>`), and the user information
 *   of an absolute-form request target.
 * A URL longer than MAX_LOGGED_URL is cut at the last separator before it and ends in `…[cut]`: the work is bounded,
 * and the line too. A URL with none of `?#%:;`, `invite` or a long hex run is returned as it is, without being split.
 */
export function redactUrl(url: string): string {
  let text = url;
  let tail = '';
  if (text.length > MAX_LOGGED_URL) {
    text = text.slice(0, MAX_LOGGED_URL);
    let end = text.length - 1;
    while (end > 0 && !SEPARATOR.test(text[end])) end -= 1;
    text = text.slice(0, end + 1);
    tail = '…[cut]';
  }
  if (!MAY_HOLD_SECRET.test(text)) return text + tail;
  const hash = text.indexOf('#');
  const beforeHash = hash === -1 ? text : text.slice(0, hash);
  const q = beforeHash.indexOf('?');
  let path = q === -1 ? beforeHash : beforeHash.slice(0, q);
  let prefix = '';
  // An absolute-form target (`GET http://user:pass@host/path`, as sent to a proxy): its authority is not a path segment.
  const absolute = path.startsWith('/') ? null : /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (absolute) {
    const authority = absolute[0];
    const at = authority.lastIndexOf('@');
    prefix = at === -1 ? authority : `${authority.slice(0, authority.indexOf('//') + 2)}[redacted]${authority.slice(at)}`;
    path = path.slice(authority.length);
  }
  let out = prefix + redactPath(path);
  if (q !== -1) out += `?${redactPairs(beforeHash.slice(q + 1))}`;
  if (hash !== -1) out += `#${redactPairs(text.slice(hash + 1))}`;
  return out + tail;
}
