import { z } from 'zod';
import { OPERATION_PERMISSIONS } from '../../domain/access/operation-permissions';
import { NONE } from '../../domain/access/permissions';
import { STATUS_BY_NAME } from '../../domain/errors';
import { componentRegistry } from '../../domain/shapes';
import type { ResponseDoc, RouteAuth, RouteDoc, RouteDocs } from './describe';
import { ROUTE_DOCS } from './routes';

type Json = Record<string, unknown>;

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** The error body every error answer has (the spec's error shape): `details` for validation, `permissions` for 403. */
const ErrorBody = z.looseObject({
  id: z.string().describe('Quote it when you report the error'),
  name: z.string().describe('The error name (ValidationError, NotFoundError, …)'),
  message: z.string(),
  details: z.array(z.object({ path: z.string().optional().describe('Where in the request (absent for PatternError)'), message: z.string() })).optional().describe('What was wrong with the request, for ValidationError and PatternError'),
  permissions: z.array(z.string()).optional().describe('The permissions that were missing, for NoAccessError'),
});

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content', 304: 'Not modified', 400: 'Bad request', 401: 'Unauthorized',
  403: 'Forbidden', 404: 'Not found', 409: 'Conflict', 413: 'Content too large', 415: 'Unsupported media type',
  429: 'Too many requests', 500: 'Internal error', 503: 'Service unavailable',
};

/**
 * Errors every route of a kind may answer, besides its own: a URL that is not well-formed text (every route); no or a
 * wrong credential (every route that needs one); a session-cookie write that does not declare JSON (every admin route
 * that changes something); a body that is not JSON, too large or of another media type (every route that reads one);
 * an object a path parameter names that does not exist (every route with one); an unexpected error, and the database
 * out of reach (every route, but those whose own 503 answer says so: the health checks).
 */
export function commonErrors(method: string, path: string, doc: RouteDoc): string[] {
  const names = ['ValidationError', 'InternalError'];
  if (!doc.responses[503]) names.push('ServiceUnavailableError');
  const auth = doc.auth ?? 'admin';
  if (auth !== 'public') names.push('AuthenticationRequired', 'NoAccessError');
  // A write signed in by the session cookie without a JSON Content-Type (src/app.ts, cookieWriteRefusal).
  if (auth === 'admin' && method !== 'GET' && method !== 'HEAD') names.push('ForbiddenError');
  if (BODY_METHODS.has(method)) names.push('ContentTooLarge', 'ContentTypeerror');
  if (path.includes('/:')) names.push('NotFoundError');
  return names;
}

const statusOf = (name: string) => STATUS_BY_NAME[name] ?? 500;

/** Every error name the route may answer, by status. */
export function errorStatuses(method: string, path: string, doc: RouteDoc): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const name of new Set([...commonErrors(method, path, doc), ...(doc.errors ?? [])])) {
    const status = statusOf(name);
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  return byStatus;
}

/** The permission a route needs, in words for the reference. */
function permissionOf(method: string, path: string, doc: RouteDoc): string {
  const declared = OPERATION_PERMISSIONS.find((o) => o.rest?.includes(`${method} ${path}`));
  const permission = declared?.permission ?? doc.permission;
  const auth: RouteAuth = doc.auth ?? 'admin';
  if (auth === 'public') return 'none: no credentials are needed';
  if (auth === 'client') return 'a client (backend SDK) or admin API token';
  if (auth === 'frontend') return 'a frontend (browser SDK) or admin API token';
  if (auth === 'sdk') return 'a frontend, client or admin API token (`Authorization`, with or without `Bearer `, or `X-API-Key`)';
  if (!permission || permission === NONE) return declared?.scope === 'self' ? 'a signed-in user (not an API token), for their own account' : 'any admin-API principal (admin API token, personal access token or session)';
  const where = declared?.scope === 'project' || declared?.scope === 'feature' ? ' in the project'
    : declared?.scope === 'environment' ? ' in the project and environment' : '';
  return `\`${permission}\`${where} (or ADMIN)`;
}

/**
 * What the conversion reads of each schema: its component name (and description) from `named`, and the
 * `.describe()` text zod keeps in its global registry (which a registry of our own would otherwise hide).
 */
const metadata = {
  get(schema: z.core.$ZodType) {
    const described = z.globalRegistry.get(schema);
    const component = componentRegistry.get(schema);
    return described || component ? { ...described, ...component } : undefined;
  },
} as unknown as typeof componentRegistry;

/**
 * A zod schema as an OpenAPI 3.1 schema object (JSON Schema 2020-12): named schemas go to `components` (with an
 * `Input` suffix for request bodies, whose optional and defaulted fields differ) and are referred to by `$ref`.
 */
function converter(components: Json) {
  return (schema: z.ZodType, io: 'input' | 'output'): Json => {
    const suffix = io === 'input' ? 'Input' : '';
    const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline', cycles: 'ref', metadata }) as Json;
    const defs = (out.$defs ?? {}) as Record<string, Json>;
    delete out.$defs;
    delete out.$schema;
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== 'object') return value;
      const copy: Json = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) copy[k] = `#/components/schemas/${v.slice(8)}${suffix}`;
        else if (k === 'id' && typeof v === 'string' && componentRegistry.get(schema)?.id === v) continue;
        else copy[k] = rewrite(v);
      }
      return copy;
    };
    for (const [id, def] of Object.entries(defs)) {
      const rewritten = rewrite(def) as Json;
      delete rewritten.id;
      components[`${id}${suffix}`] = rewritten;
    }
    return rewrite(out) as Json;
  };
}

/** `:name` → `{name}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function operationId(method: string, path: string): string {
  const words = path.split('/').filter(Boolean).map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s));
  return [method.toLowerCase(), ...words].join('-').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));
}

function responseObject(doc: ResponseDoc, status: number, toSchema: ReturnType<typeof converter>): Json {
  if (doc === null) return { description: STATUS_TEXT[status] ?? String(status) };
  if (doc instanceof z.ZodType) return { description: STATUS_TEXT[status] ?? String(status), content: { 'application/json': { schema: toSchema(doc, 'output') } } };
  const out: Json = { description: doc.description ?? STATUS_TEXT[status] ?? String(status) };
  if (doc.schema || doc.contentType) out.content = { [doc.contentType ?? 'application/json']: doc.schema ? { schema: toSchema(doc.schema, 'output') } : {} };
  if (doc.content) {
    out.content = Object.fromEntries(Object.entries(doc.content).map(([media, schema]) => [media, schema ? { schema: toSchema(schema, 'output') } : {}]));
  }
  if (doc.headers) out.headers = Object.fromEntries(Object.entries(doc.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]));
  return out;
}

const SECURITY: Readonly<Record<RouteAuth, Json[]>> = {
  admin: [{ apiToken: [] }, { session: [] }],
  client: [{ apiToken: [] }],
  frontend: [{ apiToken: [] }],
  sdk: [{ apiToken: [] }],
  public: [],
};

/** The OpenAPI 3.1 document of every REST route. */
export function buildOpenApiDocument(version: string, docs: RouteDocs = ROUTE_DOCS): Json {
  const components: Json = {};
  const toSchema = converter(components);
  components.Error = toSchema(ErrorBody, 'output');
  const paths: Record<string, Record<string, Json>> = {};
  const tags = new Set<string>();
  for (const [key, doc] of Object.entries(docs)) {
    const [method, path] = key.split(' ');
    tags.add(doc.tag);
    const parameters: Json[] = [];
    for (const name of [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1])) {
      const p = doc.params?.[name];
      parameters.push({ name, in: 'path', required: true, ...(p?.description ? { description: p.description } : {}), schema: p?.schema ? toSchema(p.schema, 'input') : { type: 'string' } });
    }
    if (doc.query) {
      for (const [name, field] of Object.entries(doc.query.shape as Record<string, z.ZodType>)) {
        const schema = toSchema(field, 'input');
        const description = typeof schema.description === 'string' ? schema.description : undefined;
        delete schema.description;
        parameters.push({ name, in: 'query', required: !field.safeParse(undefined).success, ...(description ? { description } : {}), schema });
      }
    }
    const responses: Json = {};
    for (const [status, r] of Object.entries(doc.responses)) responses[status] = responseObject(r, Number(status), toSchema);
    for (const [status, names] of [...errorStatuses(method, path, doc)].sort((a, b) => a[0] - b[0])) {
      // A status the route documents itself (OFREP's error bodies) keeps its schema; the error names are added to it.
      const own = responses[String(status)] as { description?: string } | undefined;
      if (own) {
        own.description = `${own.description} (\`name\`: ${names.join(', ')})`;
        continue;
      }
      responses[String(status)] = {
        description: `${STATUS_TEXT[status] ?? status}: ${names.join(', ')}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const permission = permissionOf(method, path, doc);
    const operation: Json = {
      operationId: operationId(method, path),
      summary: doc.summary,
      description: `${doc.description ? `${doc.description}\n\n` : ''}**Needs:** ${permission}.`,
      tags: [doc.tag],
      'x-permission': permission,
      security: SECURITY[doc.auth ?? 'admin'],
      responses,
    };
    if (parameters.length) operation.parameters = parameters;
    if (doc.body) {
      operation.requestBody = { required: !doc.bodyOptional, content: { [doc.bodyContentType ?? 'application/json']: { schema: toSchema(doc.body, 'input') } } };
    }
    if (doc.deprecated) operation.deprecated = true;
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'flagdeck REST API',
      version,
      description: 'The REST paths of flagdeck, compatible with Unleash v5.8 clients. The same operations are available over GraphQL at `/graphql`.\n\n'
        + 'Send an API token in the `Authorization` header (no `Bearer` prefix). Errors answer with `{id, name, message}`; the error names are listed with each status.',
    },
    servers: [{ url: '/' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        apiToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An API token (admin, client or frontend) or a personal access token' },
        session: { type: 'apiKey', in: 'cookie', name: 'unleash-session', description: 'The session cookie set by /auth/simple/login or SAML sign-in. A change (any method but GET and HEAD) made with it must send `Content-Type: application/json`, also without a body; otherwise 403 ForbiddenError' },
      },
    },
  };
}
