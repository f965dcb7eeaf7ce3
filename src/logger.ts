import pino from 'pino';
import type { LogLevel } from './config';

export type Logger = pino.Logger;

export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
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
