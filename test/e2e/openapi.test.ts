import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROUTE_DOCS } from '../../src/rest/openapi/routes';
import { startTestApp, type TestApp } from '../support/harness';
import { appRoutes } from '../support/routes';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/** Routes that are not part of the REST API: the reference itself, GraphiQL's files, and the web UI's files. */
const NOT_REST = (path: string) => path === '/docs' || path.startsWith('/docs/') || path.startsWith('/graphql/') || path.startsWith('/assets/');

describe('the OpenAPI document', () => {
  it('documents every REST route of the app, and nothing else', () => {
    const routes = appRoutes(t.orm).routes.filter((r) => !NOT_REST(r.path)).map((r) => `${r.method} ${r.path}`);
    const documented = Object.keys(ROUTE_DOCS);
    expect(routes.filter((r) => !documented.includes(r)).sort()).toEqual([]);
    expect(documented.filter((d) => !routes.includes(d)).sort()).toEqual([]);
  });

  it('is served without credentials and validates as OpenAPI 3.1', async () => {
    const res = await fetch(`${t.url}/docs/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    const document = JSON.parse(text);
    expect(document.openapi).toBe('3.1.0');
    // @seriousme/openapi-schema-validator is an ES module: it runs in a child process of its own.
    const dir = mkdtempSync(join(tmpdir(), 'flagdeck-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, text);
      const script = `import { Validator } from '@seriousme/openapi-schema-validator';
        const v = new Validator(); const r = await v.validate(process.argv[1]);
        process.stdout.write(JSON.stringify({ valid: r.valid, version: v.version, errors: r.errors }));`;
      const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, file], { cwd: process.cwd(), encoding: 'utf8' }));
      expect(out).toEqual({ valid: true, version: '3.1' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names each route’s permission, and every status with its error names', async () => {
    const document = (await (await fetch(`${t.url}/docs/openapi.json`)).json()) as any;
    const post = document.paths['/api/admin/tag-types'].post;
    expect(post['x-permission']).toBe('`CREATE_TAG_TYPE` (or ADMIN)');
    expect(post.requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(post.responses['409'].description).toContain('NameExistsError');
    expect(post.responses['415'].description).toContain('ContentTypeerror');
    expect(post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TagType' });
    expect(document.components.schemas.TagType.required).toEqual(['name', 'description', 'icon']);
  });
});

describe('the reference page', () => {
  it('is served without credentials and loads nothing from another host', async () => {
    const res = await fetch(`${t.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await res.text();
    const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) {
      expect(ref.startsWith('/docs/')).toBe(true);
      const asset = await fetch(`${t.url}${ref}`);
      expect([ref, asset.status]).toEqual([ref, 200]);
      const text = await asset.text();
      if (ref.endsWith('init.js')) {
        expect(text).toContain("url: '/docs/openapi.json'");
        expect(text).toContain('validatorUrl: null');
      }
    }
    expect(page).not.toMatch(/https?:\/\//);
  });

  it('serves only the files of the page', async () => {
    expect((await fetch(`${t.url}/docs/assets/package.json`)).status).toBe(404);
    expect((await fetch(`${t.url}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${t.url}/docs/assets/constructor`)).status).toBe(404);
  });
});
