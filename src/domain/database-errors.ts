import type { Logger } from './logger';
import { DomainError, NameExistsError, NotFoundError, ServiceUnavailableError, ValidationError } from './errors';

/**
 * What an error of the database means for the caller: a unique violation is a NameExistsError naming what exists, a
 * foreign key that vanished a NotFoundError, text the database cannot store a ValidationError, and a database that
 * cannot be reached a ServiceUnavailableError; both doors map errors through `fromDatabaseError`.
 */

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
  ['feature_lifecycles_pkey', fixed('The flag already entered that lifecycle stage')],
  ['unknown_flags_pkey', fixed('That unknown flag is already recorded for the application and environment')],
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
  ['feature_versions_pkey', fixed('That version of the flag is already recorded')],
  ['segment_versions_pkey', fixed('That version of the segment is already recorded')],
  ['history_horizon_pkey', fixed('The history already has its horizon')],
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
  if (isDatabaseUnreachable(err)) return new ServiceUnavailableError();
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

/** Socket errors of a connection to the database that could not be made or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server that is going away or not taking connections: class 08 (connection exceptions; 08P01, a
 * protocol violation, is a bad request: see fromDatabaseError), 57P01–57P03 (shut down by an administrator, crashed,
 * starting up) and 53300 (too many connections).
 */
const UNAVAILABLE_STATES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300']);
/** What node-postgres says of a connection that died (MikroORM puts the statement before it), and what knex says of a
 * statement of a transaction whose connection died under it. */
// `timeout expired`: a connection not made within its connectTimeout (src/db/orm.ts).
const LOST_CONNECTION = /Connection terminated|Connection ended unexpectedly|Client has encountered a connection error|Transaction query already complete|^timeout expired$/;

/** Errors raised by a database connection's own socket (`read ECONNRESET` names no place): src/db/connection-guard.ts marks them. */
const socketErrors = new WeakSet<object>();

/** Marks an error as raised by a database connection's socket (as it is raised, before anyone handles it). */
export function markDatabaseSocketError(err: unknown): void {
  if (err && typeof err === 'object') socketErrors.add(err);
}

/** Where the database is (src/db/orm.ts records it): a socket error naming it is the database's, not an outbound call's. */
const databasePlaces = new Set<string>();

/** Records the database of `url`: its TCP port and host name, or its unix socket's path. */
export function recordDatabasePlace(url: string): void {
  const u = new URL(url);
  const host = decodeURIComponent(u.hostname);
  const port = u.port || '5432';
  if (host.startsWith('/')) databasePlaces.add(`${host}/.s.PGSQL.${port}`);
  else databasePlaces.add(`port:${port}`).add(`host:${host}`);
}

/** Whether a socket error names the database: its port or host (TCP) or its socket's path. */
function namesDatabase(e: { address?: unknown; port?: unknown; hostname?: unknown }): boolean {
  return (e.port !== undefined && databasePlaces.has(`port:${String(e.port)}`))
    || (typeof e.hostname === 'string' && databasePlaces.has(`host:${e.hostname}`))
    || (typeof e.address === 'string' && databasePlaces.has(e.address));
}

/**
 * Whether `err` says the database cannot be reached, rather than that it refused a statement. A socket error counts
 * when the ORM reports it (a DriverException carries the driver's code) or when it names the database's place: an
 * outbound request of the service (an addon, a SAML metadata URL) failing the same way is not the database.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; address?: unknown; port?: unknown; hostname?: unknown };
  const fromDriver = e.name === 'DriverException' || e.name === 'ConnectionException';
  if (typeof e.code === 'string') {
    if (UNAVAILABLE_STATES.has(e.code)) return true;
    if ((SOCKET_CODES.has(e.code) || e.code === 'ENOENT') && (fromDriver || namesDatabase(e) || socketErrors.has(err))) return true;
  }
  if (e.name === 'KnexTimeoutError' || e.name === 'ConnectionException') return true;
  // The same socket error copied with its message only (GraphQL execution keeps no more): `connect ECONNREFUSED host:port`.
  const copied = typeof e.message === 'string' ? /^connect (E[A-Z]+) (\S+):(\d+)$/.exec(e.message) : null;
  if (copied && SOCKET_CODES.has(copied[1]!) && namesDatabase({ port: copied[3] })) return true;
  return (fromDriver || e.name === 'Error') && typeof e.message === 'string' && LOST_CONNECTION.test(e.message);
}

/**
 * A background round (a flush, a poll of due work) that failed: a warning, unless the database is out of reach; an
 * outage is logged once where it is noticed (src/domain/database-availability.ts), and its rounds at debug only.
 */
export function warnUnlessUnreachable(logger: Logger, fields: { err: unknown } & Record<string, unknown>, message: string): void {
  if (isDatabaseUnreachable(fields.err)) logger.debug(fields, message);
  else logger.warn(fields, message);
}
