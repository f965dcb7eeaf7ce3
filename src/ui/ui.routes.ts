import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '../logger';
import { urlGuard } from '../request-guard';
import { errorHandler, notFound } from '../rest/errors';
import { sendStaticAsset, type StaticAsset } from '../rest/static-asset';

/** Where `npm run build` (vite, web/vite.config.ts) writes the web UI: dist/web, from src/ui or dist/src/ui alike. */
export const UI_BUILD_DIR = path.resolve(__dirname, '../../', __dirname.includes(`${path.sep}dist${path.sep}`) ? 'web' : 'dist/web');

/**
 * Paths the service's own doors own: a browser asking for one of them never gets the UI's page (design §10). `/invite`
 * is the REST door of invite links, but `/invite/<secret>` itself (one segment, no more) is the UI's signup page.
 */
const RESERVED = /^\/(api|auth|graphql|docs|internal-backstage|health|metrics|assets|ofrep)(\/|$)/;
const INVITE_PAGE = /^\/invite\/[^/]+\/?$/;

/**
 * The page's Content-Security-Policy: scripts, styles, images, fonts and connections from this service only. Mantine
 * writes its theme variables into `<style>` elements at run time, which carry the per-request nonce of the page
 * (web/src/main.tsx reads it from the page); nothing else inline runs or applies.
 */
export const uiPolicy = (nonce: string) => [
  "default-src 'self'", "script-src 'self'", `style-src 'self' 'nonce-${nonce}'`, "img-src 'self' data:", "font-src 'self'",
  "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.json': 'application/json; charset=utf-8',
};

interface UiBuild {
  /** index.html with `%CSP_NONCE%` where each request's nonce goes. */
  page: string;
  assets: Map<string, StaticAsset>;
}

/** The built UI, read once: its page and every file of `assets/` (hashed names, a few hundred kB in all). */
function readBuild(dir: string): UiBuild | null {
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) return null;
  const assets = new Map<string, StaticAsset>();
  const assetDir = path.join(dir, 'assets');
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const body = readFileSync(path.join(assetDir, name));
    const digest = /-([A-Za-z0-9_-]{8,})\.[a-z0-9]+$/.exec(name)?.[1] ?? name;
    assets.set(name, { type: TYPES[path.extname(name)] ?? 'application/octet-stream', body, etag: `"${digest}"` });
  }
  return { page: readFileSync(index, 'utf8'), assets };
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>flagdeck</title></head>
<body><main><h1>flagdeck</h1><p>The web UI has not been built here. Run <code>npm run build</code> (it needs the dev
dependencies: <code>npm install</code>), then start the service again. The API, GraphiQL (<a href="/graphql">/graphql</a>)
and the REST reference (<a href="/docs">/docs</a>) work without it.</p></main></body></html>
`;

/** Does this request ask for a page of the UI: a GET or HEAD from a browser for a path no API door owns. */
export function isUiPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (!(req.headers.accept ?? '').includes('text/html')) return false;
  if (/^\/invite(\/|$)/.test(req.path)) return INVITE_PAGE.test(req.path);
  return !RESERVED.test(req.path);
}

/**
 * The web UI (web/, built into dist/web): `GET /assets/:name` (hashed files, cached for a year) and `index.html` for
 * every path a browser asks for that no API door owns, so the UI's router decides what it shows (an unknown path
 * included). The page is never cached (it names the current files) and carries its own CSP with a fresh nonce.
 */
export function uiRouter(logger: Logger, dir = UI_BUILD_DIR): Router {
  const build = readBuild(dir);
  if (!build) logger.warn({ dir }, 'the web UI is not built (npm run build): / answers with a page that says so');
  const r = Router();
  // The URL rules of every door before the route decodes the name, so a malformed one is refused with the door's
  // message (naming the segment) rather than the router's.
  const guard = urlGuard();
  r.use((req: Request, res: Response, next: NextFunction) => (req.path.startsWith('/assets/') ? guard(req, res, next) : next()));
  r.get('/assets/:name', async (req: Request, res: Response, next: NextFunction) => {
    const asset = build?.assets.get(req.params.name as string);
    if (!asset) return notFound(req, res, next);
    await sendStaticAsset(req, res, asset);
  });
  r.use((req: Request, res: Response, next: NextFunction) => {
    if (!isUiPage(req)) return next();
    const nonce = randomBytes(16).toString('base64');
    res.setHeader('Content-Security-Policy', uiPolicy(nonce));
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.type('html').send(build ? build.page.replaceAll('%CSP_NONCE%', nonce) : NOT_BUILT);
  });
  r.use(errorHandler(logger));
  return r;
}
