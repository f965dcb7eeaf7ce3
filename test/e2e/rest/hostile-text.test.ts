import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADMIN_TOKEN, startTestApp, type RequestOptions, type TestApp } from '../../support/harness';
import { ROLE_MEMBER, ROLE_OWNER } from '../../../src/domain/access/permissions';
import { checkResponse } from '../../support/openapi-check';
import { appRoutes, type Route } from '../../support/routes';
import { createIdp, samlResponse } from '../../support/saml-idp';

/**
 * The hostile-text sweep (issue 8, defects 5 and 6): every POST/PUT/PATCH endpoint, found by walking the router stack of
 * the real app (an endpoint without a sample in CATALOG fails the test), gets its valid sample body with each string
 * value and each property name replaced in turn by text PostgreSQL cannot store as acknowledged (a lone surrogate, a
 * NUL, invalid UTF-8 bytes, UTF-8-encoded surrogate bytes) and each string value by deep nesting (100,000 levels: over
 * the 100 kB limit, 413; 20,000 levels: under it, the depth limit, 400). Every answer is a documented 4xx (400
 * ValidationError naming the property for text), and a hash of every table is the same before and after. Path segments
 * and query strings of every route, and GraphQL (POST body, GET variables and query), get the same treatment. Each
 * valid sample is sent last, as a control: it must succeed, so the sweep really walks the fields the endpoint takes.
 * The one route that takes a form instead of JSON (the SAML assertion consumer service, POST /auth/saml/callback,
 * which an identity provider posts to) is swept as a form: each field name and value carries the same text as raw
 * bytes or percent-encoded, and a value over the form limit replaces the nesting (a form does not nest).
 */

let app: TestApp;
const fixture: Record<string, string> = {};

// ---- what is sent -------------------------------------------------------------------------------------------------

type Hostile = 'surrogate' | 'nul' | 'utf8' | 'encoded-surrogate' | 'nesting-100k' | 'nesting-300k' | 'nesting-20k' | 'oversize';
const TEXT_VALUES: Hostile[] = ['surrogate', 'nul', 'utf8', 'encoded-surrogate'];
const ALL_VALUES: Hostile[] = [...TEXT_VALUES, 'nesting-100k', 'nesting-20k'];
/** The batch import paths take 500 kB: their too-large nesting is 300,000 levels (600 kB). */
const LARGE_BODY_VALUES: Hostile[] = [...TEXT_VALUES, 'nesting-300k', 'nesting-20k'];
/** A form body does not nest; instead a value over the form limit (413). */
const FORM_VALUES: Hostile[] = [...TEXT_VALUES, 'oversize'];

/** A placeholder string, replaced in the serialized bytes by what cannot be written with JSON.stringify. */
const MARK = 'HOSTILE-7d1e0c';
const nesting = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** The JSON bytes of `body` with the placeholder (a whole string, or part of a property name) made hostile. */
function hostileBytes(body: unknown, value: Hostile): Buffer {
  const json = JSON.stringify(body);
  switch (value) {
    case 'surrogate': return Buffer.from(json.replace(MARK, 'a\\ud800b'));
    case 'nul': return Buffer.from(json.replace(MARK, 'a\\u0000b'));
    case 'utf8': return spliceBytes(json, [0xff]);
    case 'encoded-surrogate': return spliceBytes(json, [0xed, 0xa0, 0x80]);
    case 'nesting-100k': return Buffer.from(json.replace(`"${MARK}"`, nesting(100_000)));
    case 'nesting-300k': return Buffer.from(json.replace(`"${MARK}"`, nesting(300_000)));
    case 'nesting-20k': return Buffer.from(json.replace(`"${MARK}"`, nesting(20_000)));
    case 'oversize': throw new Error('oversize is a form value');
  }
}

/**
 * An `application/x-www-form-urlencoded` body of a flat object (the SAML assertion consumer service), with the
 * placeholder made hostile the ways a form can carry text: raw bytes that are not URL text (a UTF-8-encoded
 * surrogate), a percent-encoded NUL, invalid UTF-8 and surrogate, or a value longer than the form limit.
 */
function hostileFormBytes(body: unknown, value?: Hostile): Buffer {
  const text = Object.entries(body as Record<string, string>).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  if (value === undefined) return Buffer.from(text);
  const [before, after] = text.split(MARK);
  const middle: Record<Exclude<Hostile, 'nesting-100k' | 'nesting-300k' | 'nesting-20k'>, Buffer> = {
    surrogate: Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]),
    nul: Buffer.from('a%00b'),
    utf8: Buffer.from('a%FFb'),
    'encoded-surrogate': Buffer.from('a%ED%A0%80b'),
    oversize: Buffer.from('x'.repeat(300_000)),
  };
  return Buffer.concat([Buffer.from(before), middle[value as keyof typeof middle], Buffer.from(after)]);
}
/** The JSON with the placeholder replaced by `a`, raw `bytes`, `b`. */
function spliceBytes(json: string, bytes: number[]): Buffer {
  const [before, after] = json.split(MARK);
  return Buffer.concat([Buffer.from(`${before}a`), Buffer.from(bytes), Buffer.from(`b${after}`)]);
}

/** A place in a body: a string value, or a property name (then the detail names the object holding it). */
interface Position {
  kind: 'value' | 'key';
  segments: string[];
}

/** Every string value and every property name of `body`, in document order. */
function positions(body: unknown, segments: string[] = []): Position[] {
  if (typeof body === 'string') return [{ kind: 'value', segments }];
  if (Array.isArray(body)) return body.flatMap((v, i) => positions(v, [...segments, String(i)]));
  if (body !== null && typeof body === 'object') {
    return Object.entries(body).flatMap(([k, v]) => [{ kind: 'key' as const, segments: [...segments, k] }, ...positions(v, [...segments, k])]);
  }
  return [];
}

/** `body` with the placeholder at `position` (a copy). */
function withMark(body: unknown, position: Position): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const parentPath = position.segments.slice(0, -1);
  const last = position.segments[position.segments.length - 1];
  const parent = parentPath.reduce<any>((cur, key) => cur[key], copy);
  if (position.kind === 'value') {
    if (position.segments.length === 0) return MARK;
    parent[last] = MARK;
    return copy;
  }
  // Rename the property, keeping its place among its siblings.
  const entries = Object.entries(parent).map(([k, v]) => [k === last ? `${k}${MARK}` : k, v]);
  for (const key of Object.keys(parent)) delete parent[key];
  Object.assign(parent, Object.fromEntries(entries));
  return copy;
}

/** What the answer must be for a hostile value at a position. */
function expected(position: Position, value: Hostile): { status: number; name: string; path?: string } {
  if (value === 'nesting-100k' || value === 'nesting-300k' || value === 'oversize') return { status: 413, name: 'ContentTooLarge' };
  const path = position.kind === 'key' ? position.segments.slice(0, -1).join('/') : position.segments.join('/');
  // Nesting is reported at the property that holds it: the chain of first elements below it is not listed.
  if (value === 'nesting-20k') return { status: 400, name: 'ValidationError', path: path.replace(/(^|\/)0(\/0)*$/, '') };
  return { status: 400, name: 'ValidationError', path };
}

// ---- how it is sent -----------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  name?: string;
  path?: string;
  message?: string;
  graphqlErrors?: number;
}

async function send(method: string, url: string, body?: Buffer, authorization = ADMIN_TOKEN, contentType = 'application/json'): Promise<Answer> {
  const headers: Record<string, string> = { authorization, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = contentType;
  const bytes = body === undefined ? undefined : new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length);
  // Redirects are answers too (the SAML callback's 302), not something to follow.
  const res = await fetch(app.url + url, { method, headers, body: bytes, redirect: 'manual' });
  const text = await res.text();
  // Every answer, refusals included, is what the OpenAPI document says the route answers.
  checkResponse(method, url, res.status, res.headers.get('content-type'), text);
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // REST errors are {name, details}; GraphQL errors are {errors: [{extensions: {name, details}}]}.
  const error = json?.errors?.[0]?.extensions ?? json;
  return {
    status: res.status,
    name: error?.name,
    path: error?.details?.[0]?.path,
    message: error?.details?.[0]?.message ?? error?.message,
    graphqlErrors: Array.isArray(json?.errors) ? json.errors.length : undefined,
  };
}

/** Runs `tasks` with at most `width` in flight (the server sees concurrent clients; the sweep stays quick). */
async function batch<T>(tasks: Array<() => Promise<T>>, width = 12): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  }));
  return out;
}

/**
 * A hash of every table of the schema (pg_tables, so a table added later is included), rows in a fixed order. A
 * credential's `seen_at` is left out: authenticating a request marks the token seen, whatever the request then does.
 */
let snapshotSql = '';
async function snapshot(): Promise<Record<string, string>> {
  const em = app.orm.em.fork();
  if (!snapshotSql) {
    const tables: Array<{ tablename: string }> = await em.execute(`select tablename from pg_tables where schemaname = current_schema() order by 1`);
    expect(tables.map((t) => t.tablename)).toContain('events');
    snapshotSql = `select ${tables.map(({ tablename }) => `(select md5(coalesce(string_agg((to_jsonb(t) - 'seen_at')::text, E'\\n' order by (to_jsonb(t) - 'seen_at')::text), '')) from "${tablename}" t) as "${tablename}"`).join(', ')}`;
  }
  const [row] = await em.execute(snapshotSql);
  return row as Record<string, string>;
}

// ---- the endpoints ------------------------------------------------------------------------------------------------

interface Sample {
  /** Values of the route's path parameters. */
  params?: Record<string, string>;
  /** A valid body; undefined for an endpoint that takes none (its path and query string are still swept). */
  body?: unknown;
  /** Status of the valid sample, sent after the sweep of the endpoint as a control. */
  ok: number;
  /** The credential to send instead of the admin token (the caller's own password and tokens need a user). */
  authorization?: string;
  /**
   * The body is a form (`application/x-www-form-urlencoded`: the SAML assertion consumer service, which an IdP posts
   * to): each field name and value is swept with FORM_VALUES, percent-encoded or raw, through the form door.
   */
  form?: boolean;
  /** The route takes bodies up to 500 kB (the batch import paths): swept with LARGE_BODY_VALUES. */
  large?: boolean;
}
const FORM = 'application/x-www-form-urlencoded';

const F = 'default';

/** An import payload using every part of the format (issue 13), all new to the sweep's world. */
const importBody = () => ({
  project: F, environment: 'development',
  data: {
    features: [{ name: 'sw-imp', type: 'release', description: 'Imported', impressionData: false }, { name: 'sw-imp-parent' }],
    featureStrategies: [{
      name: 'flexibleRollout', featureName: 'sw-imp', title: 'Imported', parameters: { rollout: '50', stickiness: 'default', groupId: 'sw-imp' },
      constraints: [{ contextName: 'sw-imp-field', operator: 'IN', values: ['a'] }], variants: [{ name: 'v', weightType: 'variable', stickiness: 'default' }], segments: [77],
    }],
    featureEnvironments: [{ featureName: 'sw-imp', environment: 'development', enabled: true, variants: [{ name: 'e', weightType: 'variable', stickiness: 'default' }] }],
    contextFields: [{ name: 'sw-imp-field', description: 'Imported field', legalValues: [{ value: 'a', description: 'A' }] }],
    featureTags: [{ featureName: 'sw-imp', tagType: 'sw-imp-type', tagValue: 'sw-imp-tag' }],
    segments: [{ id: 77, name: 'sw-seg' }],
    tagTypes: [{ name: 'sw-imp-type', description: 'Imported type', icon: 'i' }],
    dependencies: [{ feature: 'sw-imp', dependencies: [{ feature: 'sw-imp-parent', enabled: true, variants: ['v'] }] }],
  },
});
const PASSWORD = 'Sweep-Passw0rd!';
const constraint = { contextName: 'userId', operator: 'IN', values: ['a', 'b'], caseInsensitive: false, inverted: false };
const strategyVariant = { name: 'sv', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'p' } };
const strategyBody = () => ({
  name: 'flexibleRollout', title: 'Rollout', disabled: false,
  parameters: { rollout: '50', stickiness: 'default', groupId: 'sw-f' },
  constraints: [constraint], variants: [strategyVariant], segments: [Number(fixture.segment)],
});
const feature = (featureName: string, extra: Record<string, string> = {}) => ({ projectId: F, featureName, ...extra });
const env = (featureName = 'sw-f') => feature(featureName, { environment: 'development' });

/** Keyed by `METHOD route` exactly as the routers declare it. Built after the fixtures exist (ids). */
function catalog(): Record<string, Sample> {
  return {
    'POST /api/admin/environments': { body: { name: 'sw-env', type: 'test', sortOrder: 3, enabled: true }, ok: 201 },
    'PUT /api/admin/environments/:name': { params: { name: 'sw-spare' }, body: { type: 'quality', sortOrder: 4 }, ok: 200 },
    'POST /api/admin/environments/:name/on': { params: { name: 'sw-toggle' }, ok: 204 },
    'POST /api/admin/environments/:name/off': { params: { name: 'sw-toggle' }, ok: 204 },
    'POST /api/admin/projects': { body: { id: 'sw-new', name: 'New', description: 'A project', mode: 'open', defaultStickiness: 'userId', featureLimit: 5 }, ok: 201 },
    'PUT /api/admin/projects/:id': { params: { id: 'sw' }, body: { name: 'SW two', description: 'Renamed', mode: 'open', defaultStickiness: 'userId' }, ok: 200 },
    'POST /api/admin/projects/:id/environments': { params: { id: 'sw' }, body: { environment: 'sw-spare' }, ok: 200 },
    'PUT /api/admin/projects/:projectId/settings': { params: { projectId: 'sw' }, body: { mode: 'open', featureNaming: { pattern: 'sw-.*', example: 'sw-x', description: 'Prefixed' } }, ok: 200 },
    'POST /api/admin/context/validate': { body: { name: 'sw-free' }, ok: 200 },
    'POST /api/admin/context': { body: { name: 'sw-ctx', description: 'Tenant', stickiness: true, sortOrder: 1, legalValues: [{ value: 'acme', description: 'Acme' }] }, ok: 201 },
    'PUT /api/admin/context/:name': { params: { name: 'sw-region' }, body: { description: 'Region', stickiness: false, sortOrder: 2, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] }, ok: 200 },
    'POST /api/admin/context/:name/legal-values': { params: { name: 'sw-region' }, body: { value: 'apac', description: 'Asia' }, ok: 200 },
    'POST /api/admin/tag-types/validate': { body: { name: 'sw-free' }, ok: 200 },
    'POST /api/admin/tag-types': { body: { name: 'sw-tt', description: 'Area', icon: 'A' }, ok: 201 },
    'PUT /api/admin/tag-types/:name': { params: { name: 'sw-team' }, body: { description: 'Team', icon: 'T' }, ok: 200 },
    'POST /api/admin/tags': { body: { type: 'simple', value: 'sw-tag' }, ok: 201 },
    'POST /api/admin/segments/validate': { body: { name: 'sw-free' }, ok: 204 },
    'POST /api/admin/segments': { body: { name: 'sw-seg2', description: 'Second', constraints: [constraint] }, ok: 201 },
    'PUT /api/admin/segments/:id': { params: { id: fixture.segment }, body: { name: 'sw-seg', description: 'First', constraints: [constraint] }, ok: 204 },
    'POST /api/admin/strategies': { body: { name: 'sw-strat', title: 'T', displayName: 'D', description: 'Custom', parameters: [{ name: 'p', type: 'string', description: 'A parameter', required: false }] }, ok: 201 },
    'PUT /api/admin/strategies/:name': { params: { name: 'sw-custom' }, body: { title: 'T2', description: 'Custom 2', parameters: [{ name: 'q', type: 'list', description: 'Another', required: true }] }, ok: 200 },
    'POST /api/admin/strategies/:name/deprecate': { params: { name: 'sw-custom' }, ok: 200 },
    'POST /api/admin/strategies/:name/reactivate': { params: { name: 'sw-custom' }, ok: 200 },
    'POST /api/admin/projects/:projectId/features': { params: { projectId: F }, body: { name: 'sw-new-f', type: 'release', description: 'New', impressionData: false }, ok: 201 },
    'PUT /api/admin/projects/:projectId/features/:featureName': { params: feature('sw-f'), body: { description: 'Updated', type: 'experiment', impressionData: true }, ok: 200 },
    'PATCH /api/admin/projects/:projectId/features/:featureName': { params: feature('sw-f'), body: [{ op: 'replace', path: '/description', value: 'Patched' }], ok: 200 },
    'POST /api/admin/projects/:projectId/features/:featureName/clone': { params: feature('sw-f'), body: { name: 'sw-clone', replaceGroupId: true }, ok: 201 },
    'POST /api/admin/projects/:projectId/features/:featureName/changeProject': { params: { projectId: 'sw', featureName: 'sw-move' }, body: { newProjectId: 'sw-dest' }, ok: 200 },
    'POST /api/admin/projects/:projectId/stale': { params: { projectId: F }, body: { features: ['sw-f'], stale: true }, ok: 202 },
    'POST /api/admin/projects/:projectId/features/:featureName/revert': { params: feature('sw-hist'), body: { version: 1, environments: ['development'] }, ok: 200 },
    'POST /api/admin/events/:id/revert': { params: { id: fixture.histEvent }, ok: 200 },
    'POST /api/admin/projects/:projectId/features/:featureName/lifecycle/complete': { params: feature('sw-f'), body: { status: 'kept', statusValue: 'blue' }, ok: 200 },
    'POST /api/admin/projects/:projectId/features/:featureName/lifecycle/uncomplete': { params: feature('sw-f'), ok: 200 },
    'POST /api/admin/history/frontend': { body: { environment: 'development', projects: [F], at: '2099-01-01T00:00:00Z', context: { userId: 'u1', properties: { tenant: 'acme' } } }, ok: 200 },
    'POST /api/admin/projects/:projectId/archive': { params: { projectId: F }, body: { features: ['sw-arch'] }, ok: 202 },
    'POST /api/admin/projects/:projectId/revive': { params: { projectId: F }, body: { features: ['sw-archived'] }, ok: 200 },
    'POST /api/admin/projects/:projectId/delete': { params: { projectId: F }, body: { features: ['sw-archived2'] }, ok: 200 },
    'POST /api/admin/features/validate': { body: { name: 'sw-free-f', projectId: F }, ok: 200 },
    'POST /api/admin/features-batch/validate': { body: importBody(), ok: 200, large: true },
    'POST /api/admin/features-batch/import': { body: importBody(), ok: 200, large: true },
    'POST /api/admin/features-batch/export': { body: { features: ['sw-f'], environment: 'development', downloadFile: true }, ok: 200, large: true },
    'POST /api/admin/features/:featureName/stale/on': { params: { featureName: 'sw-f' }, ok: 200 },
    'POST /api/admin/features/:featureName/stale/off': { params: { featureName: 'sw-f' }, ok: 200 },
    'PUT /api/admin/feature-types/:id/lifetimes': { params: { id: 'release' }, body: { lifetimeDays: 40 }, ok: 200 },
    'POST /api/admin/features/:featureName/tags': { params: { featureName: 'sw-f' }, body: { type: 'simple', value: 'sw-ftag' }, ok: 201 },
    'POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/on': { params: env(), body: { shouldActivateDisabledStrategies: false }, ok: 200 },
    'POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/off': { params: env(), body: { shouldActivateDisabledStrategies: false }, ok: 200 },
    'POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies': { params: env(), body: strategyBody(), ok: 200 },
    'POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/set-sort-order': { params: env(), body: [{ id: fixture.strategy, sortOrder: 0 }], ok: 200 },
    'PUT /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId': { params: { ...env(), strategyId: fixture.strategy }, body: strategyBody(), ok: 200 },
    'PATCH /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId': { params: { ...env(), strategyId: fixture.strategy }, body: [{ op: 'replace', path: '/title', value: 'Patched' }], ok: 200 },
    'PUT /api/admin/projects/:projectId/features/:featureName/environments/:environment/variants': {
      params: env(), ok: 200,
      body: [{ name: 'blue', weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"k":"v"}' }, overrides: [{ contextName: 'userId', values: ['u1'] }] }],
    },
    'PATCH /api/admin/projects/:projectId/features/:featureName/environments/:environment/variants': {
      params: env(), body: [{ op: 'add', path: '/-', value: { name: 'green', weightType: 'variable', stickiness: 'default' } }], ok: 200,
    },
    'PUT /api/admin/projects/:projectId/features/:featureName/variants-batch': { params: feature('sw-f'), body: { variants: [{ name: 'red', stickiness: 'default' }], environments: ['development'] }, ok: 200 },
    'PUT /api/admin/projects/:projectId/features/:featureName/variants': { params: feature('sw-f'), body: [{ name: 'a', stickiness: 'default', payload: { type: 'string', value: 'x' } }], ok: 200 },
    'PATCH /api/admin/projects/:projectId/features/:featureName/variants': { params: feature('sw-f'), body: [{ op: 'replace', path: '/0/name', value: 'b' }], ok: 200 },
    'POST /api/admin/projects/:projectId/features/:featureName/dependencies': { params: feature('sw-child'), body: { feature: 'sw-parent', enabled: true }, ok: 200 },
    'POST /api/admin/archive/revive/:featureName': { params: { featureName: 'sw-archived3' }, ok: 200 },
    'POST /api/admin/playground': { body: { environment: 'development', projects: [F], context: { appName: 'app', userId: 'u1', properties: { tenant: 'acme' } } }, ok: 200 },
    'POST /api/admin/user-admin': { body: { username: 'sw-new-user', email: 'new@sw.example', name: 'New', password: PASSWORD, rootRole: 'Viewer', sendEmail: false }, ok: 201 },
    'PUT /api/admin/user-admin/:id': { params: { id: fixture.user }, body: { name: 'Person', email: 'person@sw.example', rootRole: 'Editor' }, ok: 200 },
    'POST /api/admin/user-admin/:id/change-password': { params: { id: fixture.user }, body: { password: PASSWORD }, ok: 200 },
    'POST /api/admin/user-admin/reset-password': { body: { id: 'sw-person' }, ok: 200 },
    'POST /api/admin/user/change-password': { body: { password: PASSWORD, confirmPassword: PASSWORD }, ok: 200, authorization: fixture.pat },
    'POST /api/admin/user/tokens': { body: { description: 'CI', expiresAt: '2099-01-01T00:00:00.000Z' }, ok: 201, authorization: fixture.pat },
    'POST /api/admin/api-tokens': { body: { tokenName: 'sw-client', type: 'client', environment: 'development', projects: [F], expiresAt: '2099-01-01T00:00:00Z' }, ok: 201 },
    'PUT /api/admin/api-tokens/:token': { params: { token: fixture.apiToken }, body: { expiresAt: '2098-01-01T00:00:00Z' }, ok: 200 },
    'POST /api/admin/projects/:projectId/access': { params: { projectId: 'sw' }, body: { roles: [{ id: ROLE_MEMBER }], users: [{ id: Number(fixture.user) }], groups: [{ id: Number(fixture.group) }] }, ok: 200 },
    'PUT /api/admin/projects/:projectId/users/:userId/roles': { params: { projectId: 'sw', userId: fixture.user }, body: { roles: [ROLE_OWNER, ROLE_MEMBER] }, ok: 200 },
    'PUT /api/admin/projects/:projectId/groups/:groupId/roles': { params: { projectId: 'sw', groupId: fixture.group }, body: { roles: [ROLE_MEMBER] }, ok: 200 },
    'POST /api/admin/roles': { body: { name: 'sw-role2', description: 'Second', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }, { id: 7 }] }, ok: 200 },
    'PUT /api/admin/roles/:id': { params: { id: fixture.role }, body: { name: 'sw-role', description: 'Changed', type: 'root-custom', permissions: [{ name: 'CREATE_SEGMENT' }] }, ok: 200 },
    'POST /auth/simple/login': { body: { username: 'sw-person', password: PASSWORD }, ok: 200 },
    'POST /auth/logout': { ok: 200 },
    // A link of its own user: the reset-password sample above expires only sw-person's older links.
    'POST /auth/reset/password': { body: { token: fixture.resetToken, password: PASSWORD }, ok: 200 },
    'POST /api/admin/groups': {
      body: { name: 'sw-new-group', description: 'Operators', mappingsSSO: ['sso-ops'], rootRole: 2, users: [{ user: { id: Number(fixture.user) } }] }, ok: 201,
    },
    'PUT /api/admin/groups/:id': {
      params: { id: fixture.group }, body: { name: 'sw-group', description: 'Renamed', mappingsSSO: ['sso-sw'], rootRole: null, users: [{ user: { id: Number(fixture.user) } }] }, ok: 200,
    },
    'POST /api/admin/addons': {
      body: { provider: 'webhook', description: 'Hook', enabled: true, parameters: { url: 'https://hooks.sw.example/in', contentType: 'application/json', authorization: 'Bearer x', customHeaders: '{"X-Team":"flags"}', bodyTemplate: '{{event.type}}' }, events: ['feature-created'], projects: ['sw'], environments: ['development'] },
      ok: 201,
    },
    'POST /api/admin/projects/:projectId/environments/:environment/change-requests': {
      params: { projectId: F, environment: 'development' }, body: { action: 'addStrategy', feature: 'sw-f', payload: strategyBody() }, ok: 200,
    },
    'PUT /api/admin/projects/:projectId/change-requests/:id/changes/:changeId': {
      params: { projectId: F, id: fixture.changeRequest, changeId: fixture.change }, body: { action: 'addStrategy', feature: 'sw-f', payload: strategyBody() }, ok: 200,
    },
    'PUT /api/admin/projects/:projectId/change-requests/:id/title': { params: { projectId: F, id: fixture.changeRequest }, body: { title: 'Sweep' }, ok: 204 },
    // The author sends the Draft to review (a move that keeps its changes editable for the samples above).
    'PUT /api/admin/projects/:projectId/change-requests/:id/state': { params: { projectId: F, id: fixture.changeRequest }, body: { state: 'In review', comment: 'Sweep' }, ok: 200 },
    'POST /api/admin/projects/:projectId/change-requests/:id/comments': { params: { projectId: F, id: fixture.changeRequest }, body: { text: 'Sweep' }, ok: 201 },
    'POST /api/admin/projects/:projectId/change-requests/:id/preview': {
      params: { projectId: F, id: fixture.changeRequest }, body: { contexts: [{ appName: 'app', userId: 'u1', properties: { tenant: 'acme' } }] }, ok: 200,
    },
    'PUT /api/admin/projects/:projectId/environments/:environment/change-requests/config': { params: { projectId: 'sw', environment: 'development' }, body: { changeRequestsEnabled: false, requiredApprovals: 2 }, ok: 204 },
    'POST /api/admin/addons/:id/deliveries/:deliveryId/redeliver': { params: { id: fixture.addon, deliveryId: fixture.addonDelivery }, ok: 201 },
    'PUT /api/admin/addons/:id': {
      params: { id: fixture.addon }, ok: 200,
      body: { provider: 'webhook', description: 'Hook 2', enabled: false, parameters: { url: 'https://hooks.sw.example/in2', authorization: '*****' }, events: ['feature-updated'], projects: ['default'], environments: ['production'] },
    },
    'POST /api/admin/invite-link/tokens': { body: { name: 'sw-link', expiresAt: '2099-01-01T00:00:00Z', role: 'Editor' }, ok: 201 },
    'PUT /api/admin/invite-link/tokens/:token': { params: { token: fixture.signupToken }, body: { expiresAt: '2099-01-01T00:00:00Z', enabled: true }, ok: 200 },
    'POST /invite/:secret/signup': { params: { secret: fixture.signupToken }, body: { name: 'Joiner', email: 'joiner@sw.example', username: 'sw-joiner', password: PASSWORD }, ok: 201 },
    'POST /api/frontend': { body: { context: { appName: 'app', userId: 'u1', region: 'eu', properties: { tenant: 'acme' } } }, ok: 200 },
    'POST /api/admin/playground/advanced': { body: { environments: ['development'], projects: [F], context: { appName: 'app', userId: 'u1,u2', properties: { tenant: 'acme' } } }, ok: 200 },
    'POST /api/admin/auth/saml/settings': { body: samlSettings(), ok: 200 },
    'POST /auth/saml/callback': { form: true, body: { SAMLResponse: fixture.samlResponse, RelayState: '/projects/default' }, ok: 302 },
    // SDK doors (issue 14): the admin token opens them. Metrics reports count nothing (yes and no 0) and name the
    // instance registered just before, so their later flush changes no hashed column (only `seen_at`).
    'POST /api/client/register': { body: sdkRegistration(), ok: 202 },
    'POST /api/client/metrics': { body: sdkMetrics(), ok: 202 },
    'POST /api/frontend/client/register': { body: sdkRegistration(), ok: 200 },
    'POST /api/frontend/client/metrics': { body: sdkMetrics(), ok: 200 },
    // OpenFeature's remote evaluation (issue 45), with the admin token naming its environment in the context.
    'POST /ofrep/v1/evaluate/flags/:key': { params: { key: 'sw-f' }, body: { context: { targetingKey: 'u1', environment: 'development', region: 'eu', properties: { tenant: 'acme' } } }, ok: 200 },
    'POST /ofrep/v1/evaluate/flags': { body: { context: { targetingKey: 'u1', environment: 'development', region: 'eu' } }, ok: 200 },
    'POST /api/admin/metrics/applications/:appName': { params: { appName: 'sw-app2' }, body: { description: 'App', url: 'https://sw.example/app', color: 'red', icon: 'i', strategies: ['default'] }, ok: 202 },
  };
}

const sdkRegistration = () => ({
  appName: 'sw-app', instanceId: 'sw-inst', environment: 'development', sdkVersion: 'unleash-client-node:6.12.1',
  strategies: ['default', 'flexibleRollout'], started: '2026-01-01T00:00:00.000Z', interval: 60000,
});
const sdkMetrics = () => ({
  appName: 'sw-app', instanceId: 'sw-inst', environment: 'development',
  bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles: { 'sw-f': { yes: 0, no: 0, variants: { v: 0 } } } },
});

/** SAML settings that let the fixture's identity provider sign users of sw.example in (the sample leaves them so). */
const samlSettings = () => ({
  enabled: true, entityId: fixture.idpEntityId, signOnUrl: 'https://idp.sw.example/sso', certificate: fixture.idpCertificate,
  signOutUrl: 'https://idp.sw.example/slo', autoCreate: true, emailDomains: 'sw.example', defaultRootRole: 'Viewer',
});

/** Path parameter values for routes outside the catalog (GET and DELETE), for the path and query sweeps. */
const DEFAULT_PARAMS = (): Record<string, string> => ({
  projectId: F, featureName: 'sw-f', environment: 'development', strategyId: fixture.strategy, id: 'sw', name: 'sw-spare',
  type: 'simple', value: 'sw-tag', parent: 'sw-parent', userId: fixture.user, groupId: fixture.group, token: fixture.apiToken,
  secret: fixture.signupToken, changeId: fixture.change, appName: 'sw-app',
});

const url = (route: Route, params: Record<string, string>, replace?: [string, string]) => route.path.replace(/:(\w+)/g, (_m, name: string) => {
  if (replace && replace[0] === name) return replace[1];
  if (params[name] === undefined) throw new Error(`no value for :${name} of ${route.method} ${route.path}`);
  return encodeURIComponent(params[name]);
});

// ---- fixtures -----------------------------------------------------------------------------------------------------

beforeAll(async () => {
  // Metrics are written at close: an OFREP evaluation counts as a report, whose flush would change a table under a
  // later endpoint's "nothing changed".
  app = await startTestApp({ metricsFlushMs: 3_600_000 });
  const must = async (method: string, path: string, body?: unknown, options?: RequestOptions) => {
    const res = await app.request(method, path, body, options);
    if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  // The project first: it starts with the environments that exist, and `sw-spare` is added to it by the sweep.
  await must('POST', '/api/admin/projects', { id: 'sw', name: 'SW' });
  await must('POST', '/api/admin/projects', { id: 'sw-dest', name: 'SW destination' });
  await must('POST', '/api/admin/projects/sw/features', { name: 'sw-move' });
  await must('POST', '/api/admin/environments', { name: 'sw-spare', type: 'test' });
  await must('POST', '/api/admin/environments', { name: 'sw-toggle', type: 'test' });
  await must('POST', '/api/admin/context', { name: 'sw-region', legalValues: [{ value: 'eu' }] });
  await must('POST', '/api/admin/tag-types', { name: 'sw-team', description: 'Team' });
  fixture.segment = String((await must('POST', '/api/admin/segments', { name: 'sw-seg', constraints: [] })).id);
  await must('POST', '/api/admin/strategies', { name: 'sw-custom', parameters: [] });
  for (const name of ['sw-f', 'sw-parent', 'sw-child', 'sw-arch', 'sw-archived', 'sw-archived2', 'sw-archived3']) {
    await must('POST', `/api/admin/projects/${F}/features`, { name });
  }
  await must('POST', `/api/admin/projects/${F}/archive`, { features: ['sw-archived', 'sw-archived2', 'sw-archived3'] });
  fixture.strategy = (await must('POST', `/api/admin/projects/${F}/features/sw-f/environments/development/strategies`, { name: 'default' })).id;
  const draft = await must('POST', `/api/admin/projects/${F}/environments/development/change-requests`, { action: 'updateEnabled', feature: 'sw-f', payload: { enabled: true } });
  fixture.changeRequest = String(draft.id);
  fixture.change = String(draft.features[0].changes[0].id);
  // A user with a personal access token (for the caller's own routes), a group and an API token.
  fixture.user = String((await must('POST', '/api/admin/user-admin', { username: 'sw-person', password: PASSWORD, rootRole: 'Admin' })).id);
  const login = await fetch(`${app.url}/auth/simple/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'sw-person', password: PASSWORD }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  fixture.pat = (await must('POST', '/api/admin/user/tokens', { description: 'sweep', expiresAt: '2099-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).secret;
  const [group] = await app.orm.em.fork().execute(`insert into groups (name) values ('sw-group') returning id`);
  fixture.group = String(group.id);
  fixture.apiToken = (await must('POST', '/api/admin/api-tokens', { tokenName: 'sw-token', type: 'admin' })).secret;
  fixture.role = String((await must('POST', '/api/admin/roles', { name: 'sw-role', permissions: [] })).roles.id);
  fixture.signupToken = (await must('POST', '/api/admin/invite-link/tokens', { name: 'sw-link', expiresAt: '2099-01-01T00:00:00Z' })).secret;
  fixture.addon = String((await must('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: 'https://hooks.sw.example/a', authorization: 'Bearer a' }, events: ['feature-created', 'addon-config-created'] })).id);
  // The addon's own creation event is its first delivery.
  fixture.addonDelivery = String((await must('GET', `/api/admin/addons/${fixture.addon}/deliveries`)).deliveries[0].id);
  // A flag with a second version, and the event that made it (the revert samples bring the first back).
  await must('POST', `/api/admin/projects/${F}/features`, { name: 'sw-hist', description: 'first' });
  await must('PUT', `/api/admin/projects/${F}/features/sw-hist`, { description: 'second' });
  const [histEvent] = await app.orm.em.fork().execute(`select id from events where feature_name = 'sw-hist' and type = 'feature-metadata-updated'`);
  fixture.histEvent = String(histEvent.id);
  // A user created without a password: its invite link's token is used by the /auth/reset/password sample.
  fixture.resetToken = new URL((await must('POST', '/api/admin/user-admin', { username: 'sw-invited', rootRole: 'Viewer' })).inviteLink).searchParams.get('token')!;
  // SAML: an identity provider, the settings that trust it, and one signed response for the callback's control (valid
  // for an hour, the longest an assertion is accepted; it can be used once).
  const idp = await createIdp('https://idp.sw.example/saml');
  fixture.idpEntityId = idp.entityId;
  fixture.idpCertificate = idp.certificate;
  await must('POST', '/api/admin/auth/saml/settings', samlSettings());
  fixture.samlResponse = samlResponse(idp, {
    email: 'sso@sw.example', audience: 'http://localhost:4242/auth/saml/metadata', recipient: 'http://localhost:4242/auth/saml/callback', notOnOrAfterOffsetMs: 60 * 60_000,
  }).SAMLResponse;
});
afterAll(async () => { await app.close(); });

// ---- the sweep ----------------------------------------------------------------------------------------------------

const tally = { endpoints: 0, positions: 0, bodyRequests: 0, pathRequests: 0, queryRequests: 0, graphqlRequests: 0, started: 0 };

describe('hostile text in every POST/PUT/PATCH body', () => {
  it('the catalog has a sample for every POST/PUT/PATCH route of the app, and nothing else', () => {
    tally.started = Date.now();
    const { routes, mounts } = appRoutes(app.orm);
    const writes = routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method)).map((r) => `${r.method} ${r.path}`);
    expect(writes.length).toBeGreaterThan(40);
    const samples = Object.keys(catalog());
    expect({ withoutSample: writes.filter((w) => !samples.includes(w)), notARoute: samples.filter((s) => !writes.includes(s)) }).toEqual({ withoutSample: [], notARoute: [] });
    // Handlers mounted outside the routers: /graphql is swept below; anything new needs a sweep of its own.
    expect(mounts.filter((m) => m !== '' && m !== '/api' && m !== '/api/admin')).toEqual(['/graphql']);
  });

  it('every string value and property name, with each hostile value: a documented 4xx, nothing changed; then the valid sample succeeds', async () => {
    const { routes } = appRoutes(app.orm);
    const samples = catalog();
    const failures: unknown[] = [];
    for (const route of routes.filter((r) => samples[`${r.method} ${r.path}`])) {
      const sample = samples[`${route.method} ${route.path}`];
      const path = url(route, sample.params ?? {});
      const values = (position: Position) => (position.kind === 'key' ? TEXT_VALUES : sample.form ? FORM_VALUES : sample.large ? LARGE_BODY_VALUES : ALL_VALUES);
      const cases = positions(sample.body).flatMap((position) => values(position).map((value) => ({ position, value })));
      tally.endpoints += 1;
      tally.positions += positions(sample.body).length;
      tally.bodyRequests += cases.length;
      const before = await snapshot();
      const bytes = (body: unknown, value?: Hostile) => (sample.form ? hostileFormBytes(body, value) : value === undefined ? Buffer.from(JSON.stringify(body)) : hostileBytes(body, value));
      const answers = await batch(cases.map(({ position, value }) => () => send(route.method, path, bytes(withMark(sample.body, position), value), sample.authorization, sample.form ? FORM : undefined)));
      answers.forEach((answer, i) => {
        const want = expected(cases[i].position, cases[i].value);
        const got = { status: answer.status, name: answer.name, ...(want.path === undefined ? {} : { path: answer.path }) };
        if (JSON.stringify(got) !== JSON.stringify(want)) failures.push({ endpoint: `${route.method} ${route.path}`, at: cases[i].position, value: cases[i].value, want, got: answer });
      });
      const after = await snapshot();
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        failures.push({ endpoint: `${route.method} ${route.path}`, changed: Object.keys(before).filter((t) => before[t] !== after[t]) });
      }
      const control = await send(route.method, path, sample.body === undefined ? undefined : bytes(sample.body), sample.authorization, sample.form ? FORM : undefined);
      if (control.status !== sample.ok) failures.push({ endpoint: `${route.method} ${route.path}`, control });
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('hostile path segments and query strings on every route', () => {
  const SEGMENTS = ['a%00b', 'a%FFb', '%ED%A0%80', '%ZZ'];
  const QUERY_VALUES = ['a%00b', '%FF', '%ED%A0%80', '%C0%80'];

  it('each path parameter of each route, with each hostile segment: 400 ValidationError naming the segment, nothing changed', async () => {
    const { routes } = appRoutes(app.orm);
    const samples = catalog();
    const cases: Array<{ route: Route; url: string; segment: string; body?: Buffer }> = [];
    for (const route of routes) {
      const sample = samples[`${route.method} ${route.path}`];
      const params = { ...DEFAULT_PARAMS(), ...(sample?.params ?? {}) };
      const body = sample?.body === undefined ? undefined : Buffer.from(JSON.stringify(sample.body));
      for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
        for (const segment of SEGMENTS) cases.push({ route, url: url(route, params, [name, segment]), segment, body });
      }
    }
    tally.pathRequests = cases.length;
    expect(cases.length).toBeGreaterThan(100);
    const before = await snapshot();
    const answers = await batch(cases.map((c) => () => send(c.route.method, c.url, c.body)));
    const failures = answers.flatMap((a, i) => (a.status === 400 && a.name === 'ValidationError' && a.path === '' && a.message?.includes(`\`${cases[i].segment}\``)
      ? [] : [{ route: `${cases[i].route.method} ${cases[i].url}`, got: a }]));
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('a hostile query parameter on every route (with the valid body): 400 ValidationError naming the parameter, nothing changed', async () => {
    // The door guards /api, /auth (reset tokens arrive in a query string) and /graphql; GET /health takes no input.
    const routes = appRoutes(app.orm).routes.filter((r) => r.path.startsWith('/api/') || r.path.startsWith('/auth/'));
    const samples = catalog();
    const cases: Array<{ route: Route; url: string; parameter: string; body?: Buffer }> = [];
    for (const route of routes) {
      const sample = samples[`${route.method} ${route.path}`];
      const base = url(route, { ...DEFAULT_PARAMS(), ...(sample?.params ?? {}) });
      const body = sample?.body === undefined ? undefined : Buffer.from(JSON.stringify(sample.body));
      for (const value of QUERY_VALUES) cases.push({ route, url: `${base}?ok=1&note=${value}`, parameter: 'note', body });
    }
    // The events search reads its query string: each of its parameters.
    for (const parameter of ['type', 'project', 'feature', 'limit', 'offset', 'before']) {
      for (const value of QUERY_VALUES) cases.push({ route: { method: 'GET', path: '/api/admin/events' }, url: `/api/admin/events?${parameter}=${value}`, parameter });
    }
    tally.queryRequests = cases.length;
    const before = await snapshot();
    const answers = await batch(cases.map((c) => () => send(c.route.method, c.url, c.body)));
    const failures = answers.flatMap((a, i) => (a.status === 400 && a.name === 'ValidationError' && a.path === cases[i].parameter ? [] : [{ url: `${cases[i].route.method} ${cases[i].url}`, got: a }]));
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('hostile text through GraphQL', () => {
  const samples = () => [
    {
      query: 'mutation SwTag($input: CreateTagInput!) { createTag(input: $input) { value } }',
      variables: { input: { type: 'simple', value: 'sw-gql-tag' } },
    },
    {
      query: 'mutation SwStrategy($input: AddFeatureStrategyInput!) { addFeatureStrategy(input: $input) { id } }',
      variables: {
        input: {
          project: F, feature: 'sw-parent', environment: 'development', name: 'flexibleRollout', title: 'Rollout',
          parameters: { rollout: '50', stickiness: 'default', groupId: 'g' },
          constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }],
          variants: [{ name: 'v', stickiness: 'default', weightType: 'variable', payload: { type: 'string', value: 'p' } }],
        },
      },
    },
    {
      query: 'query SwPlayground($input: PlaygroundInput!) { playground(input: $input) { name isEnabled } }',
      variables: { input: { environment: 'development', projects: [F], context: { appName: 'app', userId: 'u1', properties: { tenant: 'acme' } } } },
    },
  ];

  it('POST: every string and property name of the body (query and variables), with each hostile value; then the valid operation runs', async () => {
    const failures: unknown[] = [];
    for (const sample of samples()) {
      const cases = positions(sample).flatMap((position) => (position.kind === 'key' ? TEXT_VALUES : ALL_VALUES).map((value) => ({ position, value })));
      tally.graphqlRequests += cases.length;
      const before = await snapshot();
      const answers = await batch(cases.map(({ position, value }) => () => send('POST', '/graphql', hostileBytes(withMark(sample, position), value))));
      answers.forEach((answer, i) => {
        const want = expected(cases[i].position, cases[i].value);
        const got = { status: answer.status, name: answer.name, ...(want.path === undefined ? {} : { path: answer.path }) };
        if (JSON.stringify(got) !== JSON.stringify(want) || answer.graphqlErrors !== 1) failures.push({ at: cases[i].position, value: cases[i].value, want, got: answer });
      });
      if (JSON.stringify(await snapshot()) !== JSON.stringify(before)) failures.push({ operation: sample.query, changed: true });
      const control = await app.post('/graphql', sample);
      if (control.status !== 200 || control.body.errors !== undefined) failures.push({ operation: sample.query, control: control.body });
    }
    expect(failures).toEqual([]);
  });

  it('GET: hostile variables, extensions and query parameters are 400 ValidationError naming them (never a 500)', async () => {
    const query = encodeURIComponent('query SwGet($input: PlaygroundInput!) { playground(input: $input) { name } }');
    const vars = (appName: string) => `{"input":{"environment":"development","context":{"appName":"${appName}","properties":{"tenant":"acme"}}}}`;
    const get = (qs: string) => `/graphql?query=${query}&${qs}`;
    const cases: Array<[string, string]> = [
      [get(`variables=${encodeURIComponent(vars('a\\ud800b'))}`), 'variables/input/context/appName'],
      [get(`variables=${encodeURIComponent(vars('a\\u0000b'))}`), 'variables/input/context/appName'],
      [get(`variables=${encodeURIComponent(vars('a')).replace('%22a%22', '%22a%FFb%22')}`), 'variables'],
      [get(`variables=${encodeURIComponent(vars('a')).replace('%22a%22', '%22a%ED%A0%80b%22')}`), 'variables'],
      [get(`variables=${encodeURIComponent(`{"input":${nesting(100)}}`)}`), 'variables/input'],
      [get('variables={not-json'), 'variables'],
      [get(`variables=${encodeURIComponent(vars('app'))}&extensions={not-json`), 'extensions'],
      [get(`variables=${encodeURIComponent(vars('app'))}&extensions=${encodeURIComponent('{"x":"\\udc00"}')}`), 'extensions/x'],
      [`/graphql?query=%7Btags(type%3A%22a%FFb%22)%7Bvalue%7D%7D`, 'query'],
      [`/graphql?query=%7Btags(type%3A%22a%00b%22)%7Bvalue%7D%7D`, 'query'],
      [`/graphql?query=%7Btags(type%3A%22%ED%A0%80%22)%7Bvalue%7D%7D`, 'query'],
      [`/graphql?query=%7Btags%7Bvalue%7D%7D&operationName=%FF`, 'operationName'],
    ];
    tally.graphqlRequests += cases.length;
    const answers = await batch(cases.map(([u]) => () => send('GET', u)));
    expect(answers.map((a, i) => ({ url: cases[i][0], status: a.status, name: a.name, path: a.path })))
      .toEqual(cases.map(([u, path]) => ({ url: u, status: 400, name: 'ValidationError', path })));
    // Control: the same request with well-formed variables runs.
    const ok = await app.get(get(`variables=${encodeURIComponent(vars('app'))}`));
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toBeUndefined();
  });

  it('sweep size and duration', () => {
    const seconds = (Date.now() - tally.started) / 1000;
    // One line for the CI log: the sweep's size and how long it took on this database.
    console.info(`hostile-text sweep: ${tally.endpoints} endpoints, ${tally.positions} positions, ${tally.bodyRequests} body requests, ${tally.pathRequests} path requests, ${tally.queryRequests} query requests, ${tally.graphqlRequests} GraphQL requests in ${seconds.toFixed(1)} s`);
    expect(tally.endpoints).toBeGreaterThan(40);
  });
});

describe('the cases the review reported, and how the door reads bodies', () => {
  const F_PATH = `/api/admin/projects/${F}/features`;
  const raw = (method: string, path: string, body: Buffer | string, headers: Record<string, string> = {}) =>
    fetch(app.url + path, { method, headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) })
      .then(async (res) => ({ status: res.status, body: await res.json() as any }));

  it('a lone surrogate in a description is refused, and the description reads back as it was (no U+FFFD)', async () => {
    const before = (await app.get(`${F_PATH}/sw-parent`)).body.description;
    const res = await raw('PUT', `${F_PATH}/sw-parent`, '{"description":"a\\ud800b"}');
    expect(res).toMatchObject({ status: 400, body: { name: 'ValidationError', details: [{ path: 'description' }] } });
    expect((await app.get(`${F_PATH}/sw-parent`)).body.description).toBe(before);
  });

  it('49,000 nested arrays in a playground context property, an advanced-playground context, a JSON patch value and a variant patch value: 400 naming the property', async () => {
    const deep = nesting(49_000);
    const strategy = fixture.strategy;
    const cases: Array<[string, string, string, string]> = [
      ['POST', '/api/admin/playground', `{"environment":"development","context":{"appName":"a","properties":{"x":${deep}}}}`, 'context/properties/x'],
      ['POST', '/api/admin/playground/advanced', `{"environments":["development"],"context":{"appName":"a","x":${deep}}}`, 'context/x'],
      ['PATCH', `${F_PATH}/sw-parent`, `[{"op":"add","path":"/description","value":${deep}}]`, '0/value'],
      ['PATCH', `${F_PATH}/sw-f/environments/development/strategies/${strategy}`, `[{"op":"add","path":"/parameters/x","value":${deep}}]`, '0/value'],
      ['PATCH', `${F_PATH}/sw-f/variants`, `[{"op":"add","path":"/0","value":${deep}}]`, '0/value'],
      ['PATCH', `${F_PATH}/sw-f/environments/development/variants`, `[{"op":"add","path":"/0","value":${deep}}]`, '0/value'],
    ];
    for (const [method, path, body, at] of cases) {
      const res = await raw(method, path, body);
      expect({ path, status: res.status, name: res.body.name, at: res.body.details?.[0]?.path }).toEqual({ path, status: 400, name: 'ValidationError', at });
      expect(res.body.details[0].message).toContain('nested deeper than 64 levels');
    }
  });

  it('GET /graphql?query={tags{value}}&variables={not-json is a 400 ValidationError in GraphQL\'s shape', async () => {
    const res = await app.get('/graphql?query={tags{value}}&variables={not-json');
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'variables' }] });
  });

  it('a raw NUL byte inside a JSON string is refused naming the property (not just "not valid JSON")', async () => {
    const res = await raw('POST', '/api/admin/tags', Buffer.concat([Buffer.from('{"value":"ab'), Buffer.from([0]), Buffer.from('c"}')]));
    expect(res).toMatchObject({ status: 400, body: { name: 'ValidationError', details: [{ path: 'value', message: expect.stringContaining('NUL') }] } });
  });

  it('checks the bytes after Content-Encoding: invalid UTF-8 inside a gzip body is refused naming the property', async () => {
    const body = gzipSync(Buffer.concat([Buffer.from('{"value":"a'), Buffer.from([0xff]), Buffer.from('b"}')]));
    const res = await raw('POST', '/api/admin/tags', body, { 'content-encoding': 'gzip' });
    expect(res).toMatchObject({ status: 400, body: { name: 'ValidationError', details: [{ path: 'value' }] } });
  });

  it('a charset other than UTF-8 is a 415 ContentTypeerror (the bytes are checked and decoded as UTF-8); UTF-8 spelled any way, and a BOM, are accepted', async () => {
    for (const charset of ['utf-16le', 'utf-16', 'UTF-32', 'iso-8859-1', 'utf-7']) {
      const res = await raw('POST', '/api/admin/tags', Buffer.from('{"value":"sw-cs"}', 'utf16le'), { 'content-type': `application/json; charset=${charset}` });
      expect({ charset, status: res.status, name: res.body.name }).toEqual({ charset, status: 415, name: 'ContentTypeerror' });
    }
    expect((await raw('POST', '/api/admin/tags', '{"value":"sw-cs1"}', { 'content-type': 'application/json; charset="UTF-8"' })).status).toBe(201);
    expect((await raw('POST', '/api/admin/tags', '{"value":"sw-cs2"}', { 'content-type': 'application/json;charset=utf8' })).status).toBe(201);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"value":"sw-cs3"}')]);
    expect((await raw('POST', '/api/admin/tags', bom)).status).toBe(201);
  });

  it('on /graphql, what the door refuses answers in GraphQL\'s shape: malformed JSON (400), too large (413), wrong charset (415)', async () => {
    const cases: Array<[Buffer | string, Record<string, string>, number, string]> = [
      ['{"query": ', {}, 400, 'ValidationError'],
      [JSON.stringify({ query: `{ tags { value } } #${'x'.repeat(110_000)}` }), {}, 413, 'ContentTooLarge'],
      ['{"query":"{ tags { value } }"}', { 'content-type': 'application/json; charset=latin1' }, 415, 'ContentTypeerror'],
    ];
    for (const [body, headers, status, name] of cases) {
      const res = await raw('POST', '/graphql', body, headers);
      expect({ status: res.status, errors: res.body.errors?.length, name: res.body.errors?.[0]?.extensions?.name, code: res.body.errors?.[0]?.extensions?.code })
        .toEqual({ status, errors: 1, name, code: status });
    }
  });
});
