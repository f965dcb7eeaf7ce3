import { randomUUID } from 'node:crypto';

/** The one error vocabulary (design D1). No HTTP in here: each door maps `name` to its own status. */
export interface ErrorDetail {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  readonly id = randomUUID();
  abstract override readonly name: string;
  /** Extra body fields (for example `details` or `permissions`). */
  extra(): Record<string, unknown> {
    return {};
  }
}

export class ValidationError extends DomainError {
  override readonly name = 'ValidationError';
  constructor(message: string, readonly details: ErrorDetail[] = []) {
    super(message);
  }
  static of(details: ErrorDetail[]): ValidationError {
    const message = details.length === 1
      ? `Request validation failed: your request body or params contain invalid data: ${details[0].message}`
      : 'Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information.';
    return new ValidationError(message, details);
  }
  static single(path: string, message: string): ValidationError {
    return ValidationError.of([{ path, message }]);
  }
  override extra() {
    return { details: this.details };
  }
}

export class AuthenticationRequired extends DomainError {
  override readonly name = 'AuthenticationRequired';
  constructor(message = 'You must log in to use Unleash. Your request had no valid authorization header, so we could not authorize you. Send an API token in the Authorization header.') {
    super(message);
  }
}

export class NoAccessError extends DomainError {
  override readonly name = 'NoAccessError';
  constructor(readonly permission: string, readonly environment?: string) {
    super(`You don't have the required permissions to perform this operation. To perform this action, you need the "${permission}" permission${environment ? ` in the "${environment}" environment` : ''}.`);
  }
  override extra() {
    return { permissions: [this.permission] };
  }
}

export class NotFoundError extends DomainError {
  override readonly name = 'NotFoundError';
}

export class NameExistsError extends DomainError {
  override readonly name = 'NameExistsError';
}

/** A state the operation refuses to enter (for example deleting the default project). */
export class InvalidOperationError extends DomainError {
  override readonly name = 'InvalidOperationError';
}

/** A feature name that does not match its project's naming pattern (Unleash's PatternError, 400). */
export class PatternError extends DomainError {
  override readonly name = 'PatternError';
  constructor(message: string, readonly details: Array<{ message: string }> = [{ message: 'The flag name does not match the pattern.' }]) {
    super(message);
  }
  override extra() {
    return { details: this.details };
  }
}

export class ContentTooLarge extends DomainError {
  override readonly name = 'ContentTooLarge';
  constructor(limit: string) {
    super(`The request body is larger than the accepted ${limit}.`);
  }
}

export class ContentTypeerror extends DomainError {
  override readonly name = 'ContentTypeerror';
  constructor(given: string | undefined) {
    super(`We do not accept the content-type you provided (${given || "you didn't provide one"}). Try using one of the content-types we do accept instead (application/json) and make sure the body is in the corresponding format.`);
  }
}

/** Status of each error name, used by both doors (REST status, GraphQL `extensions.code`). */
export const STATUS_BY_NAME: Readonly<Record<string, number>> = {
  ValidationError: 400,
  PatternError: 400,
  AuthenticationRequired: 401,
  NoAccessError: 403,
  InvalidOperationError: 403,
  NotFoundError: 404,
  NameExistsError: 409,
  ContentTooLarge: 413,
  ContentTypeerror: 415,
};

export interface ErrorBody {
  id: string;
  name: string;
  message: string;
  [key: string]: unknown;
}

export function errorBody(err: DomainError): ErrorBody {
  return { id: err.id, name: err.name, message: err.message, ...err.extra() };
}

/**
 * Database errors caused by the caller's input rather than by us: text PostgreSQL cannot store (U+0000 or
 * bytes invalid in UTF-8, for example in a path parameter). Both doors translate them before falling back to a 500.
 */
export function fromDatabaseError(err: unknown): DomainError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  // 22021/22P05: text the encoding cannot hold; 08P01: a NUL inside a text parameter breaks the wire message.
  if (code === '22021' || code === '22P05' || code === '08P01') {
    return ValidationError.single('', 'The request contains text the database cannot store (for example the NUL character \\u0000).');
  }
  return undefined;
}
