import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gunzipSync } from 'node:zlib';
import { GRAPHIQL_CSP, TOKEN_PLACEHOLDER } from '../../../src/graphiql/graphiql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 15 part 1: GraphiQL works offline. The page and every file it loads come from the service itself (from
 * @graphql-yoga/render-graphiql's bundle); nothing names another host to load from; the page is served to a browser
 * without a token whatever its query string, while every GraphQL operation (introspection included) still needs one.
 * test/e2e/process/graphiql-browser.test.ts drives the page in Chromium.
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

async function page(path = '/graphql'): Promise<{ res: Response; html: string }> {
  const res = await fetch(`${app.url}${path}`, { headers: HTML });
  return { res, html: await res.text() };
}

/** The files the page loads: stylesheet, icon and scripts from its tags, monaco's workers from its configuration. */
function referencedFiles(html: string, base: string): URL[] {
  const attributes = [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
  const config = JSON.parse(/<script type="application\/json" id="graphiql-config">(.*?)<\/script>/s.exec(html)![1]);
  return [...attributes, ...Object.values(config.workers as Record<string, string>)].map((ref) => new URL(ref, base));
}

/** Constructs that load from an address, in JS or CSS text, when the address is absolute (names a host). */
const REMOTE_LOADS: Array<[string, RegExp]> = [
  ['a src property or assignment', /\bsrc\s*[:=]\s*["'`](?:https?:)?\/\//],
  ['an href assignment (a link or stylesheet made by script)', /\.href\s*=\s*["'`](?:https?:)?\/\//],
  ['importScripts', /importScripts\(/],
  ['fetch of an absolute address', /fetch\(\s*["'`](?:https?:)?\/\//],
  ['a Worker from an absolute address', /new (?:Shared)?Worker\(\s*["'`](?:https?:)?\/\//],
  ['a dynamic import of an absolute address', /import\(\s*["'`](?:https?:)?\/\//],
  ['a CSS url() with an absolute address', /url\(\s*["']?(?:https?:)?\/\//],
  ['a CSS @import', /@import\b/],
  ['a CDN host', /unpkg\.com|jsdelivr|cdnjs|googleapis\.com|gstatic\.com/],
];

describe('the GraphiQL page', () => {
  it('is served to a browser without a token, with a CSP of this service only, and names no other host', async () => {
    const { res, html } = await page();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(GRAPHIQL_CSP);
    expect(GRAPHIQL_CSP).toMatch(/default-src 'none'/);
    expect(GRAPHIQL_CSP).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(GRAPHIQL_CSP.match(/script-src [^;]*/)![0]).toBe("script-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(html).toContain('<title>flagdeck GraphQL</title>');
    expect(html).not.toMatch(/https?:\/\//);
    // No inline script: the only script elements without src are the JSON data block.
    const inline = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]).filter((attrs) => !/\bsrc=/.test(attrs));
    expect(inline).toEqual([' type="application/json" id="graphiql-config"']);
  });

  it('every file it references is served by the service (no token), and none of them loads from another host', async () => {
    const { html } = await page();
    const files = referencedFiles(html, `${app.url}/graphql`);
    expect(files.length).toBe(7); // icon, stylesheet, page script, GraphiQL bundle, three monaco workers
    for (const file of files) {
      expect(file.origin).toBe(app.url);
      expect(file.pathname).toMatch(/^\/graphql\/assets\/[\w.-]+$/);
      const res = await fetch(file, { headers: { 'accept-encoding': 'identity' } });
      expect([file.pathname, res.status]).toEqual([file.pathname, 200]);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const type = res.headers.get('content-type') ?? '';
      if (file.pathname.endsWith('.ico')) continue;
      expect(type).toMatch(file.pathname.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      const text = await res.text();
      expect(text.length).toBeGreaterThan(file.pathname.includes('/page.') ? 500 : 100_000);
      const loads = REMOTE_LOADS.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);
      expect({ file: file.pathname, loads }).toEqual({ file: file.pathname, loads: [] });
    }
  });

  it('its configuration: the example query, the Authorization placeholder in the Headers tab (shown first), headers kept across reloads', async () => {
    const { html } = await page();
    const config = JSON.parse(/<script type="application\/json" id="graphiql-config">(.*?)<\/script>/s.exec(html)![1]);
    expect(config.placeholder).toBe(TOKEN_PLACEHOLDER);
    expect(JSON.parse(config.options.headers)).toEqual({ Authorization: TOKEN_PLACEHOLDER });
    expect(config.options).toMatchObject({ shouldPersistHeaders: true, defaultEditorToolsVisibility: 'headers', subscriptionsProtocol: 'SSE' });
    expect(config.options.defaultQuery).toContain('projects { id name environments { environment } }');
    // The placeholder's `<` and `>` are escaped inside the data block, so no text can end it early.
    expect(html).not.toContain(TOKEN_PLACEHOLDER);
  });

  it('a reload keeps working: whatever the query string, a browser without a token gets the page', async () => {
    const query = encodeURIComponent('{ tags { value } }');
    for (const path of [`/graphql?query=${query}`, `/graphql?query=${query}&variables=%7B%7D&operationName=x`, '/graphql?query=%FF', '/graphql/']) {
      const { res, html } = await page(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(html).toContain('<title>flagdeck GraphQL</title>');
      // From /graphql/ the files are one level down.
      for (const file of referencedFiles(html, `${app.url}${path}`)) expect(file.pathname).toMatch(/^\/graphql\/assets\//);
    }
    const head = await fetch(`${app.url}/graphql?query=${query}`, { method: 'HEAD', headers: HTML });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  });

  it('GraphQL over GET keeps working for API callers: with a token it runs; without one, and not asking for HTML, it is a 401', async () => {
    const query = encodeURIComponent('{ tags { value } }');
    const anonymous = await app.get(`/graphql?query=${query}`, { token: null, headers: { accept: 'application/json' } });
    expect([anonymous.status, anonymous.body.errors[0].extensions.name]).toEqual([401, 'AuthenticationRequired']);
    const ok = await app.get(`/graphql?query=${query}`, { headers: { accept: 'application/json' } });
    expect([ok.status, ok.body]).toEqual([200, { data: { tags: [] } }]);
    // A token and a query: the operation runs even from a browser's Accept header (the page is for token-less loads).
    const browserWithToken = await app.get(`/graphql?query=${query}`, { headers: HTML });
    expect(browserWithToken.status).toBe(200);
    expect(browserWithToken.body).toEqual({ data: { tags: [] } });
  });

  it('introspection (what GraphiQL sends for docs and completion) still needs a token', async () => {
    const introspection = { operationName: 'IntrospectionQuery', query: 'query IntrospectionQuery { __schema { queryType { name } } }' };
    for (const token of [null, TOKEN_PLACEHOLDER]) {
      const res = await app.post('/graphql', introspection, { token });
      expect([res.status, res.body.errors[0].extensions.name, res.body.data]).toEqual([401, 'AuthenticationRequired', undefined]);
    }
    const ok = await app.post('/graphql', introspection);
    expect([ok.status, ok.body.data.__schema.queryType.name]).toEqual([200, 'Query']);
  });
});

describe('the GraphiQL files', () => {
  it('are revalidated by ETag (304) and sent gzipped to clients that take it', async () => {
    const { html } = await page();
    const script = referencedFiles(html, `${app.url}/graphql`).find((f) => /\/graphiql\.[\w-]+\.js$/.test(f.pathname))!;
    const plain = await fetch(script, { headers: { 'accept-encoding': 'identity' } });
    const bytes = Buffer.from(await plain.arrayBuffer());
    const etag = plain.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{16}"$/);
    expect(script.pathname).toContain(etag.slice(1, -1));
    expect((await fetch(script, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // fetch would inflate a gzipped body itself: node:http shows the bytes as sent.
    const { request } = await import('node:http');
    const gz: { encoding?: string; vary?: string; body: Buffer } = await new Promise((resolve, reject) => {
      request(script, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, body: Buffer.concat(chunks) }));
      }).on('error', reject).end();
    });
    expect([gz.encoding, gz.vary]).toEqual(['gzip', 'Accept-Encoding']);
    expect(gz.body.length).toBeLessThan(bytes.length / 2);
    expect(gunzipSync(gz.body).equals(bytes)).toBe(true);
  });

  it('an unknown file is a 404 NotFoundError, a malformed name a 400 ValidationError', async () => {
    const missing = await app.get('/graphql/assets/graphiql.nope.js', { token: null });
    expect([missing.status, missing.body.name]).toEqual([404, 'NotFoundError']);
    for (const segment of ['a%00b', 'a%FFb', '%ZZ']) {
      const bad = await app.get(`/graphql/assets/${segment}`, { token: null });
      expect([bad.status, bad.body.name, bad.body.details[0].message.includes(`\`${segment}\``)]).toEqual([400, 'ValidationError', true]);
    }
  });
});
