import { dirname, join } from 'node:path';
import { Router } from 'express';
import { urlGuard } from '../../request-guard';
import { buildOpenApiDocument } from './document';

/** The files of Swagger UI the reference page loads, served from the npm package (no other host is ever asked). */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>flagdeck REST API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io for its badge.
// docExpansion 'none': the groups start closed and each renders its paths when opened (Swagger UI 5 stops rendering
// part way when asked to lay out all ~190 operations at once); `filter` searches the groups by name.
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/docs/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    filter: true,
    validatorUrl: null,
    persistAuthorization: true,
    tryItOutEnabled: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'BaseLayout',
  });
});
`;

/** What the page may load: its own files only (Swagger UI styles some elements inline, and draws icons as data URLs). */
const PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The REST reference, without credentials (it holds no data): `GET /docs/openapi.json` (OpenAPI 3.1, built once from
 * the route docs) and `GET /docs`, an interactive page (Swagger UI from the `swagger-ui-dist` package).
 */
export function docsRouter(version: string): Router {
  let json: string | undefined;
  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  const r = Router();
  // The URL rules of every door: text that is not well-formed is a 400, as on the API.
  r.use(urlGuard());
  r.get('/openapi.json', (_req, res) => {
    json ??= JSON.stringify(buildOpenApiDocument(version));
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(json);
  });
  r.get('/init.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/javascript').send(INIT);
  });
  r.get('/assets/:file', (req, res, next) => {
    const type = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
    if (!type) return next();
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.sendFile(join(dist, req.params.file));
  });
  r.get('/', (req, res, next) => {
    if (req.path !== '/') return next();
    res.setHeader('Content-Security-Policy', PAGE_POLICY);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/html').send(PAGE);
  });
  return r;
}
