import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/** What a browser may do on a group of paths: the methods and request headers a preflight allows, the headers it may read. */
export interface CorsPolicy {
  methods: string;
  headers: string;
  expose: string;
}

/**
 * `/api/frontend`: what the browser SDK (unleash-proxy-client) sends and reads. `Accept` needs no permission; custom
 * headers an SDK is configured to add are not allowed.
 */
export const FRONTEND_CORS: CorsPolicy = {
  methods: 'GET, POST',
  headers: 'Authorization, Content-Type, If-None-Match, Unleash-AppName, Unleash-Connection-Id, Unleash-SDK',
  expose: 'ETag, Flagdeck-Stale-Since',
};

/**
 * Every other path (/api/admin, /api/client, /graphql, /auth, /invite, /health): every method the API answers, the
 * request headers it reads (the credential, the body's type, the conditional poll, the SDK identification headers),
 * and the response headers a caller needs (the ETag of the SDK answers, the Location of what a POST created, the file
 * name of an export, the Retry-After of a 429).
 */
export const API_CORS: CorsPolicy = {
  methods: 'GET, HEAD, POST, PUT, PATCH, DELETE',
  headers: 'Authorization, Content-Type, If-None-Match, Unleash-AppName, Unleash-Client-Spec, Unleash-Connection-Id, Unleash-InstanceId, Unleash-Interval, Unleash-SDK',
  expose: 'ETag, Location, Content-Disposition, Retry-After, Flagdeck-Stale-Since',
};

/**
 * `/ofrep`: what OpenFeature's OFREP providers send and read (the key as `X-API-Key` or `Authorization`, the bulk
 * fetch's ETag revalidation, the 429's Retry-After); the event stream is a plain GET.
 */
export const OFREP_CORS: CorsPolicy = {
  methods: 'GET, POST',
  headers: 'Authorization, Content-Type, If-None-Match, X-API-Key',
  expose: 'ETag, Retry-After, Flagdeck-Stale-Since',
};

const MAX_AGE_SECONDS = '86400';

const isFrontendPath = (path: string) => path === '/api/frontend' || path.startsWith('/api/frontend/');
const isOfrepPath = (path: string) => path === '/ofrep' || path.startsWith('/ofrep/');

/** Adds a field to the response's `Vary` header, keeping what is there (node:http responses, before Express too). */
export function appendVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('Vary');
  const fields = current === undefined ? [] : String(current).split(',').map((f) => f.trim()).filter(Boolean);
  if (fields.includes('*') || fields.some((f) => f.toLowerCase() === field.toLowerCase())) return;
  res.setHeader('Vary', [...fields, field].join(', '));
}

/**
 * CORS of every path (CORS_ORIGINS), first of all middleware, so a preflight needs no token and every answer (errors
 * included) carries the headers. Without CORS_ORIGINS it does nothing: browsers on other origins are blocked. With it,
 * a request from an allowed origin gets `Access-Control-Allow-Origin` (its origin, or `*` when CORS_ORIGINS is `*`)
 * and the readable headers of its path's policy; its preflight (`OPTIONS` with `Access-Control-Request-Method`) is
 * answered here with 204 and the policy's methods, headers and a max-age of a day. A request from another origin gets
 * no CORS header at all, and its preflight goes on like any request (401 where a token is needed), so the browser
 * blocks it. `Vary: Origin` on every answer, since the headers depend on it.
 *
 * No `Access-Control-Allow-Credentials`: an allowed origin may call the API with a token it holds (the Authorization
 * header), never with the session cookie of a person signed in here. CORS_ORIGINS lists the web apps that use the
 * frontend API, which are not trusted to act as a signed-in administrator.
 *
 * Written here rather than with the `cors` package: what it adds (reflecting requested headers, credentials, origin
 * callbacks) is what this API must not do, and what it must do is the lines below.
 */
export function cors(corsOrigins: readonly string[]): RequestHandler {
  const origins = new Set(corsOrigins);
  if (origins.size === 0) return (_req, _res, next) => next();
  const any = origins.has('*');
  return (req, res, next) => {
    appendVary(res, 'Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !(any || origins.has(origin))) return next();
    const policy = isFrontendPath(req.path) ? FRONTEND_CORS : isOfrepPath(req.path) ? OFREP_CORS : API_CORS;
    res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) {
      res.setHeader('Access-Control-Expose-Headers', policy.expose);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', policy.methods);
    res.setHeader('Access-Control-Allow-Headers', policy.headers);
    res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
    res.setHeader('Content-Length', '0');
    res.statusCode = 204;
    res.end();
  };
}
