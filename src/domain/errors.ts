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
  // The doors say which case it is (src/domain/access/credential-refusal.ts); this is for a refusal that cannot.
  constructor(message = 'flagdeck needs valid credentials for this request: send an API token in the Authorization header, or sign in.') {
    super(message);
  }
}

export class NoAccessError extends DomainError {
  override readonly name = 'NoAccessError';
  constructor(readonly permission: string, readonly environment?: string, message?: string) {
    super(message ?? `You don't have the required permissions to perform this operation. To perform this action, you need the "${permission}" permission${environment ? ` in the "${environment}" environment` : ''}.`);
  }
  override extra() {
    return { permissions: [this.permission] };
  }
}

/** Several permissions missing at once (an import needs a set of them): the message and `permissions` name them all. */
export class MissingPermissionsError extends NoAccessError {
  constructor(readonly missing: readonly string[], environment: string | undefined, message: string) {
    super(missing[0], environment, message);
  }
  override extra() {
    return { permissions: [...this.missing] };
  }
}

export class NotFoundError extends DomainError {
  override readonly name = 'NotFoundError';
}

export class NameExistsError extends DomainError {
  override readonly name = 'NameExistsError';
  /** `details` names the property whose value is taken, where one property of the request is to blame. */
  constructor(message: string, readonly details?: ErrorDetail[]) {
    super(message);
  }
  override extra() {
    return this.details ? { details: this.details } : {};
  }
}

/** A change of project access that would leave a project that had an Owner without one (Unleash's name; 400). */
export class ProjectWithoutOwnerError extends DomainError {
  override readonly name = 'ProjectWithoutOwnerError';
}

/** A role still held by users or groups cannot be deleted (Unleash's name; 400). */
export class RoleInUseError extends DomainError {
  override readonly name = 'RoleInUseError';
}

/** Too many failed attempts (login): try again after `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  override readonly name = 'TooManyRequestsError';
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}

/**
 * The database cannot be reached (stopped, restarting, failing over, cut off): nothing was written, and the same
 * request will work once it is back. REST answers 503 with `Retry-After`; GraphQL names it in `extensions`.
 */
export class ServiceUnavailableError extends DomainError {
  override readonly name = 'ServiceUnavailableError';
  constructor(readonly retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS, message = 'The database is not reachable, so nothing was done; retry later.') {
    super(message);
  }
}

/** How long a client is asked to wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** A reset or invite token that is missing, unknown, expired or already used (Unleash's name; 401). */
export class InvalidTokenError extends DomainError {
  override readonly name = 'InvalidTokenError';
  constructor(message = 'Token was not valid') {
    super(message);
  }
}

/**
 * A reset token marked used while it has not expired yet (Unleash's name; 403). Using a token here also expires it, so
 * a token used through this service reads as InvalidTokenError; this is for a row marked used by other means.
 */
export class UsedTokenError extends DomainError {
  override readonly name = 'UsedTokenError';
  constructor(usedAt: Date) {
    super(`Token was already used at ${usedAt.toISOString()}`);
  }
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
  constructor(given: string | undefined, accepted = 'application/json') {
    super(`We do not accept the content-type you provided (${given || "you didn't provide one"}). Try using one of the content-types we do accept instead (${accepted}) and make sure the body is in the corresponding format.`);
  }
}

/**
 * Who someone is was proved, but they may not do this, for a reason other than a missing permission (SAML: no account,
 * and none may be created for them; a change request's author rule; a session-cookie write that does not declare
 * JSON, src/app.ts). Unleash's name; 403.
 */
export class ForbiddenError extends DomainError {
  override readonly name = 'ForbiddenError';
}

/**
 * The thing addressed is in a state that does not allow the operation (a change request that is not in a state the
 * requested move starts from, or whose changes conflict with what changed since they were made): 409, the spec's
 * "resource would conflict with current state". Trying again without changing anything gives the same answer.
 */
export class ConflictError extends DomainError {
  override readonly name = 'ConflictError';
}

/** Status of each error name, used by both doors (REST status, GraphQL `extensions.code`). */
export const STATUS_BY_NAME: Readonly<Record<string, number>> = {
  ValidationError: 400,
  PatternError: 400,
  ProjectWithoutOwnerError: 400,
  RoleInUseError: 400,
  AuthenticationRequired: 401,
  InvalidTokenError: 401,
  NoAccessError: 403,
  InvalidOperationError: 403,
  UsedTokenError: 403,
  ForbiddenError: 403,
  NotFoundError: 404,
  NameExistsError: 409,
  ConflictError: 409,
  ContentTooLarge: 413,
  ContentTypeerror: 415,
  TooManyRequestsError: 429,
  ServiceUnavailableError: 503,
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
