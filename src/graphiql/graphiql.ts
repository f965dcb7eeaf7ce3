import { createHash } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { GraphiQLOptions } from 'graphql-yoga';
import { urlGuard } from '../request-guard';
import type { Logger } from '../logger';
import { errorHandler, notFound } from '../rest/errors';
import { sendStaticAsset, type StaticAsset } from '../rest/static-asset';
import { PAGE_SCRIPT } from './page-script';

/** What the Headers tab starts with until someone puts their token there. */
export const TOKEN_PLACEHOLDER = '<your admin API token>';

export const GRAPHIQL_TITLE = 'flagdeck GraphQL';

/** renderYogaGraphiQL's options (JSON: the page hands them to its script in a data block). */
export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: GRAPHIQL_TITLE,
  headers: JSON.stringify({ Authorization: TOKEN_PLACEHOLDER }, null, 2),
  defaultQuery: '# Put your admin API token in the Headers tab below\n# (docs and completion load once it is there), then run:\n{\n  projects { id name environments { environment } }\n  tags { type value }\n}\n'
    + '\n# Live audit events (server-sent events; runs until stopped):\n# subscription { events(filter: { types: ["tag-created"] }) { id type createdBy data } }\n',
  // The Headers tab is kept in the browser's storage, so the token survives a reload.
  shouldPersistHeaders: true,
  defaultEditorToolsVisibility: 'headers',
  // Subscriptions over server-sent events on this same endpoint, with the headers of the Headers tab.
  subscriptionsProtocol: 'SSE',
};

/**
 * The page's Content-Security-Policy: everything from this service only. Scripts are the page's own asset files (no
 * inline script, no eval); monaco's workers are asset files too. Styles allow inline: monaco and GraphiQL write
 * `<style>` elements and style attributes as they run. The bundled CSS carries its fonts and icons as data: URLs.
 */
export const GRAPHIQL_CSP = [
  "default-src 'none'", "script-src 'self'", "worker-src 'self'", "connect-src 'self'", "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:", "font-src 'self' data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

interface Assets {
  /** File name → asset; each name carries a digest of its bytes, so it can be cached forever. */
  files: Map<string, StaticAsset>;
  /** The file names the page refers to. */
  names: { script: string; css: string; favicon: string; page: string; workers: Record<string, string> };
}

/** The GraphiQL bundle of @graphql-yoga/render-graphiql (JS, CSS, favicon and monaco workers, ~9 MB), loaded on first use. */
async function loadAssets(): Promise<Assets> {
  const bundle = await import('@graphql-yoga/render-graphiql/graphiql');
  const files = new Map<string, StaticAsset>();
  const add = (base: string, extension: string, type: string, body: Buffer): string => {
    const digest = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    const name = `${base}.${digest}.${extension}`;
    files.set(name, { type, body, etag: `"${digest}"` });
    return name;
  };
  const js = 'text/javascript; charset=utf-8';
  const favicon = /^data:([^;,]+);base64,(.*)$/s.exec(bundle.favicon);
  return {
    files,
    names: {
      script: add('graphiql', 'js', js, Buffer.from(bundle.js)),
      css: add('graphiql', 'css', 'text/css; charset=utf-8', Buffer.from(bundle.css)),
      favicon: favicon ? add('favicon', 'ico', favicon[1], Buffer.from(favicon[2], 'base64')) : '',
      page: add('page', 'js', js, Buffer.from(PAGE_SCRIPT)),
      // The labels monaco asks its MonacoEnvironment.getWorkerUrl for.
      workers: {
        editorWorkerService: add('editor.worker', 'js', js, Buffer.from(bundle.editorWorkerService)),
        json: add('json.worker', 'js', js, Buffer.from(bundle.jsonWorker)),
        graphql: add('graphql.worker', 'js', js, Buffer.from(bundle.graphqlWorker)),
      },
    },
  };
}

/** Text for HTML and for a JSON data block inside `<script>`: no `<`, `>` or `&` left to end the block or open a tag. */
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const jsonInScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/**
 * The page: the stylesheet, a JSON data block (options, worker files, the placeholder) and two deferred scripts, the
 * GraphiQL bundle and the page's own script (src/graphiql/page-script.ts). Links are relative to the page's address
 * (`graphql/assets/...` from `/graphql`, whatever path a proxy puts before it), so nothing names a host.
 */
function renderPage({ names }: Assets, assetsPath: string): string {
  const asset = (name: string) => `${assetsPath}${name}`;
  const config = { options: GRAPHIQL_OPTIONS, placeholder: TOKEN_PLACEHOLDER, workers: Object.fromEntries(Object.entries(names.workers).map(([label, name]) => [label, asset(name)])) };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(GRAPHIQL_TITLE)}</title>
${names.favicon ? `<link rel="icon" href="${asset(names.favicon)}">\n` : ''}<link rel="stylesheet" href="${asset(names.css)}">
<script type="application/json" id="graphiql-config">${jsonInScript(config)}</script>
<script defer src="${asset(names.page)}"></script>
<script defer src="${asset(names.script)}"></script>
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root">Loading ${escapeHtml(GRAPHIQL_TITLE)}…</div>
</body>
</html>
`;
}

/**
 * The GraphiQL page is what a browser gets on `GET /graphql` (D13: without a token): a GET or HEAD whose Accept names
 * text/html, sent without an Authorization header whatever its query string (GraphiQL keeps the query in the address,
 * `?query=...`, so a reload must still get the page), or with one but without a `query` parameter. Everything else is a
 * GraphQL request (GraphQL over GET with a token runs, as it does for API callers).
 */
export function isGraphiQLPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (!(req.headers.accept ?? '').includes('text/html')) return false;
  return req.headers.authorization === undefined || req.query.query === undefined;
}

/**
 * `GET /graphql` for a browser (the page, isGraphiQLPage; anything else goes on to the GraphQL endpoint) and
 * `GET /graphql/assets/:name` (the page's files; no token, as they are the public npm package's code and this page's
 * script). Assets are named by a digest of their bytes and cached for a year; gzipped (once, on first request) for
 * clients that take it. The page itself is never cached (it names the current assets) and carries GRAPHIQL_CSP.
 * Errors are answered in the REST shape.
 */
export function graphiqlRouter(logger: Logger): Router {
  let assets: Promise<Assets> | undefined;
  const load = () => (assets ??= loadAssets().catch((err: unknown) => {
    assets = undefined;
    throw err;
  }));
  const r = Router();
  // The URL rules of every door (src/request-guard.ts) before the route decodes the name, so a malformed one is
  // refused with the door's message (a path mounted here would be one more door for the route sweeps to know).
  const guard = urlGuard();
  r.use((req: Request, res: Response, next: NextFunction) => (req.path.startsWith('/graphql/assets/') ? guard(req, res, next) : next()));
  r.get('/graphql/assets/:name', async (req: Request, res: Response, next: NextFunction) => {
    const asset = (await load()).files.get(req.params.name as string);
    if (!asset) return notFound(req, res, next);
    await sendStaticAsset(req, res, asset);
  });
  // A middleware rather than a GET route: a route would make the router answer `OPTIONS /graphql` itself (200, Allow),
  // where it must go on to the CORS preflight rules and the GraphQL door.
  r.use('/graphql', async (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/' || !isGraphiQLPage(req)) return next();
    // From `/graphql` the assets are at `graphql/assets/`; from `/graphql/`, at `assets/`.
    const assetsPath = req.originalUrl.split('?')[0].endsWith('/') ? 'assets/' : 'graphql/assets/';
    const html = renderPage(await load(), assetsPath);
    res.setHeader('Content-Security-Policy', GRAPHIQL_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.type('html').send(html);
  });
  // Their errors (a malformed file name: 400) in the REST shape, as the 404 of an unknown file.
  r.use(errorHandler(logger));
  return r;
}
