/**
 * What the domain's background work (workers, schedulers, listeners, sign-in) logs through: a structured line with
 * its details. The service's logger (pino, src/logger.ts) has this shape, so the domain needs nothing from outside it.
 */
export interface Logger {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
