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

/**
 * A request URL as it may be logged: the secrets some public paths carry (a signup link's secret, a reset or SAML
 * token in the query string, a signup token's secret in an admin path) are replaced by `[redacted]`.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/invite\/)[^/?#]*/gi, '$1[redacted]')
    .replace(/(\/invite-link\/tokens\/)[^/?#]*/gi, '$1[redacted]')
    .replace(/([?&](?:token|invite|SAMLResponse|SAMLRequest|RelayState|Signature)=)[^&#]*/gi, '$1[redacted]');
}
