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
 * What each unique index of the schema guards, in the caller's words: `columns` names the indexed columns in order,
 * `message` gets their values (from the driver's detail) when they can be read safely, `fallback` is used otherwise.
 * Where a service checks first, the message is the one its check gives, so a caller reads the same words whether
 * the check or the index caught the duplicate. A new unique index gets its entry here: a test lists the schema's
 * unique indexes and fails on one that is missing.
 */
interface UniqueKey {
  columns: readonly string[];
  message: (v: ReadonlyMap<string, string>) => string;
  fallback: string;
  /** The request property the clash is about, named in `details` (where one property is to blame). */
  path?: string;
}
const fixed = (text: string, path?: string): UniqueKey => ({ columns: [], message: () => text, fallback: text, ...(path ? { path } : {}) });
export const UNIQUE_KEYS: ReadonlyMap<string, UniqueKey> = new Map<string, UniqueKey>([
  ['environments_pkey', { columns: ['name'], message: (v) => `An environment with the name ${v.get('name')} already exists`, fallback: 'An environment with that name already exists' }],
  ['projects_pkey', { columns: ['id'], message: (v) => `A project with the id ${v.get('id')} already exists`, fallback: 'A project with that id already exists' }],
  ['project_environments_pkey', {
    columns: ['project_id', 'environment_name'],
    message: (v) => `The environment "${v.get('environment_name')}" is already enabled for project "${v.get('project_id')}"`,
    fallback: 'The environment is already enabled for the project',
  }],
  ['context_fields_pkey', { columns: ['name'], message: (v) => `A context field with the name ${v.get('name')} already exists`, fallback: 'A context field with that name already exists' }],
  ['tag_types_pkey', { columns: ['name'], message: (v) => `There already exists a tag-type with the name ${v.get('name')}`, fallback: 'There already exists a tag-type with that name' }],
  ['tags_pkey', {
    columns: ['type', 'value'],
    message: (v) => `A tag of type ${v.get('type')} with the value ${v.get('value')} already exists`,
    fallback: 'A tag of that type with that value already exists',
  }],
  ['feature_types_pkey', { columns: ['id'], message: (v) => `A feature type with the id ${v.get('id')} already exists`, fallback: 'A feature type with that id already exists' }],
  ['strategies_pkey', { columns: ['name'], message: (v) => `A strategy type with the name ${v.get('name')} already exists`, fallback: 'A strategy type with that name already exists' }],
  ['features_pkey', fixed('A toggle with that name already exists')],
  ['feature_environments_pkey', {
    columns: ['feature_name', 'environment'],
    message: (v) => `The feature ${v.get('feature_name')} already has a configuration in the environment ${v.get('environment')}`,
    fallback: 'The feature already has a configuration in that environment',
  }],
  ['feature_strategies_pkey', fixed('A strategy with that id already exists')],
  ['segments_pkey', fixed('A segment with that id already exists')],
  ['feature_strategy_segments_pkey', fixed('The strategy already uses that segment')],
  ['feature_tags_pkey', {
    columns: ['feature_name', 'tag_type', 'tag_value'],
    message: (v) => `The feature ${v.get('feature_name')} already has the tag ${v.get('tag_type')}:${v.get('tag_value')}`,
    fallback: 'The feature already has that tag',
  }],
  ['feature_dependencies_pkey', {
    columns: ['parent', 'child'],
    message: (v) => `The feature ${v.get('child')} already depends on ${v.get('parent')}`,
    fallback: 'The feature already depends on that parent',
  }],
  ['permissions_pkey', fixed('A permission with that id already exists')],
  ['permissions_name_key', { columns: ['name'], message: (v) => `A permission with the name ${v.get('name')} already exists`, fallback: 'A permission with that name already exists' }],
  ['roles_pkey', fixed('A role with that id already exists')],
  ['roles_name_key', { columns: ['name'], message: (v) => `There already exists a role with the name ${v.get('name')}`, fallback: 'There already exists a role with that name' }],
  ['roles_name_lower_idx', fixed('There already exists a role with that name')],
  ['role_permissions_unique_idx', fixed('The role already has that permission')],
  ['users_pkey', fixed('A user with that id already exists')],
  ['users_username_unique_idx', { columns: ['lower(username)'], message: (v) => `A user with the username ${v.get('lower(username)')} already exists`, fallback: 'A user with that username already exists' }],
  ['users_email_unique_idx', { columns: ['lower(email)'], message: (v) => `A user with the email ${v.get('lower(email)')} already exists`, fallback: 'A user with that email already exists' }],
  // Usernames and e-mails share one namespace (migration 0020); its trigger names the property that clashed.
  ['user_login_names_pkey', fixed('That name is already the username or email of another user')],
  ['user_login_names_username_taken', fixed('The username is already the username or email of another user', 'username')],
  ['user_login_names_email_taken', fixed('The email is already the username or email of another user', 'email')],
  ['role_user_pkey', fixed('The user already has that role in the project')],
  ['groups_pkey', fixed('A group with that id already exists')],
  ['groups_name_unique_idx', { columns: ['lower(name)'], message: (v) => `A group with the name ${v.get('lower(name)')} already exists`, fallback: 'A group with that name already exists' }],
  ['group_user_pkey', fixed('The user is already a member of the group')],
  ['group_role_pkey', fixed('The group already has that role in the project')],
  // Secrets and bookkeeping: the value is never repeated back.
  ['api_tokens_pkey', fixed('That API token already exists')],
  ['api_tokens_secret_hash_key', fixed('An API token with that secret already exists')],
  ['user_sessions_pkey', fixed('That session already exists')],
  ['reset_tokens_pkey', fixed('That reset token already exists')],
  ['personal_access_tokens_pkey', fixed('That personal access token already exists')],
  ['personal_access_tokens_secret_hash_key', fixed('A personal access token with that secret already exists')],
  ['events_pkey', fixed('That event already exists')],
  ['context_field_usage_pkey', fixed('That use of the context field is already recorded')],
  ['model_version_pkey', fixed('The model version is already recorded')],
  ['last_seen_version_pkey', fixed('The last-seen version is already recorded')],
  ['public_signup_tokens_pkey', fixed('A public signup token with that secret already exists')],
  ['public_signup_token_users_pkey', fixed('The user already signed up with that token')],
  ['settings_pkey', fixed('That setting already exists')],
  ['addons_pkey', fixed('An addon with that id already exists')],
  ['change_request_reviews_pkey', fixed('That reviewer has already reviewed the change request')],
  ['addon_deliveries_pkey', fixed('A delivery with that id already exists')],
  ['addon_deliveries_seq_key', fixed('A delivery with that sequence number already exists')],
  ['change_requests_pkey', fixed('A change request with that id already exists')],
  ['change_requests_one_draft_per_actor_idx', fixed('You already have a draft change request for this environment of the project')],
  ['change_request_changes_pkey', fixed('A change with that id already exists')],
  ['change_request_comments_pkey', fixed('A comment with that id already exists')],
  ['saml_message_ids_pkey', fixed('That SAML message id is already recorded')],
  ['saml_sessions_pkey', fixed('That SAML session is already recorded')],
  ['client_applications_pkey', { columns: ['app_name'], message: (v) => `An application with the name ${v.get('app_name')} already exists`, fallback: 'An application with that name already exists' }],
  ['client_instances_pkey', fixed('That instance of the application is already registered in the environment')],
  ['client_metrics_hourly_pkey', fixed('Metrics of that feature, application, environment and hour are already recorded')],
  ['client_metrics_hourly_variants_pkey', fixed('That variant count of the hour is already recorded')],
  ['client_revisions_pkey', fixed('That revision of the client API is already recorded')],
  ['client_revision_horizon_pkey', fixed('The client revision log already has its horizon')],
]);

/** Longest key value repeated in a message (names are at most 100 characters; anything longer is cut). */
const MAX_VALUE = 200;

/**
 * The values of a unique violation's key, by column, read from PostgreSQL's detail
 * `Key (a, b)=(x, y) already exists.` Only the expected columns are accepted. Values are printed unquoted and
 * joined by ", ", so every value but the last must be free of ", " (they are URL-friendly names or ids); the last
 * takes the rest. Anything else gives undefined and the caller uses a message without values.
 */
export function uniqueKeyValues(detail: unknown, columns: readonly string[]): Map<string, string> | undefined {
  if (typeof detail !== 'string' || columns.length === 0) return undefined;
  const m = /^Key \((.+?)\)=\((.*)\) already exists\.?$/s.exec(detail);
  if (!m || m[1] !== columns.join(', ')) return undefined;
  const values: string[] = [];
  let rest = m[2];
  for (let i = 0; i < columns.length - 1; i++) {
    const at = rest.indexOf(', ');
    if (at < 0) return undefined;
    values.push(rest.slice(0, at));
    rest = rest.slice(at + 2);
  }
  values.push(rest);
  if (values.some((v) => v.length > MAX_VALUE)) return undefined;
  return new Map(columns.map((c, i) => [c, values[i]]));
}

/** A unique violation (SQLSTATE 23505) in the caller's words: what already exists, never SQL or constraint names. */
export function nameExistsFromUniqueViolation(err: { constraint?: unknown; detail?: unknown }): NameExistsError {
  const key = typeof err.constraint === 'string' ? UNIQUE_KEYS.get(err.constraint) : undefined;
  if (!key) return new NameExistsError('Something with that name already exists; it was probably created by another request at the same time.');
  const values = uniqueKeyValues(err.detail, key.columns);
  const message = values ? key.message(values) : key.fallback;
  return new NameExistsError(message, key.path ? [{ path: key.path, message }] : undefined);
}

/**
 * Database errors caused by the caller's input rather than by us: text PostgreSQL cannot store (U+0000 or
 * bytes invalid in UTF-8, for example in a path parameter). Both doors translate them before falling back to a 500.
 * Also the one place that turns a unique violation (23505: another request created the same thing between our check
 * and our insert) into a 409 NameExistsError naming what exists.
 */
export function fromDatabaseError(err: unknown): DomainError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  // 22021/22P05: text the encoding cannot hold; 08P01: a NUL inside a text parameter breaks the wire message.
  if (code === '22021' || code === '22P05' || code === '08P01') {
    return ValidationError.single('', 'The request contains text the database cannot store (for example the NUL character \\u0000).');
  }
  if (code === '23505') return nameExistsFromUniqueViolation(err as { constraint?: unknown; detail?: unknown });
  // 23503 on an insert or update: what the request refers to (a role, a user, a group) was deleted by another request
  // between our check and our write (the delete held its row lock; our foreign-key check waited for it).
  if (code === '23503' && /is not present in table/.test(String((err as { detail?: unknown }).detail ?? ''))) {
    return new NotFoundError('Something this request refers to was deleted by another request at the same time.');
  }
  return undefined;
}
