import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '../../src/logger';
import { uiRouter } from '../../src/ui/ui.routes';

/**
 * How the service serves the web UI (src/ui/ui.routes.ts), on a build folder of its own: the page for every path a
 * browser asks for that no API door owns, with a fresh CSP nonce each time; hashed assets cached for a year (304 on a
 * repeat); everything else passed on untouched; and a page that says so when the UI was not built.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-ui-build-'));
let server: Server;
let base: string;
let bare: Server;
let bareBase: string;

const listen = (dirOfBuild: string) => new Promise<[Server, string]>((resolve) => {
  const app = express();
  app.use(uiRouter(createLogger('silent'), dirOfBuild));
  app.use((_req, res) => { res.status(404).json({ passedOn: true }); });
  const s = app.listen(0, '127.0.0.1', () => resolve([s, `http://127.0.0.1:${(s.address() as AddressInfo).port}`]));
});

beforeAll(async () => {
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta name="csp-nonce" content="%CSP_NONCE%"><script type="module" src="/assets/index-AbCdEf12.js"></script>');
  writeFileSync(path.join(dir, 'assets', 'index-AbCdEf12.js'), 'console.log("ui")');
  [server, base] = await listen(dir);
  [bare, bareBase] = await listen(path.join(dir, 'missing'));
});
afterAll(() => {
  server.close();
  bare.close();
  rmSync(dir, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml' };

describe('the web UI routes', () => {
  it('answers UI paths with the page and a fresh nonce in its CSP and in the page', async () => {
    const nonces = new Set<string>();
    for (const p of ['/', '/projects/a/features/b', '/login?next=%2Fhistory', '/invite/s3cret', '/invite/s3cret/', '/new-user?token=t']) {
      const res = await fetch(`${base}${p}`, { headers: html });
      expect([p, res.status]).toEqual([p, 200]);
      const policy = res.headers.get('content-security-policy')!;
      const nonce = /'nonce-([^']+)'/.exec(policy)![1];
      expect(await res.text()).toContain(`content="${nonce}"`);
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(res.headers.get('cache-control')).toBe('no-cache');
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(6);
  });

  it('leaves API doors, non-browser requests and other methods to the rest of the service', async () => {
    for (const p of ['/api/admin/projects', '/auth/simple/login', '/graphql', '/docs', '/health', '/internal-backstage/prometheus', '/invite/s3cret/validate', '/invite']) {
      expect([p, (await fetch(`${base}${p}`, { headers: html })).status]).toEqual([p, 404]);
    }
    expect((await fetch(`${base}/projects`)).status).toBe(404);
    expect((await fetch(`${base}/projects`, { method: 'POST', headers: html })).status).toBe(404);
  });

  it('serves hashed assets for a year, 304 on a repeat, and 404 for an unknown one', async () => {
    const first = await fetch(`${base}/assets/index-AbCdEf12.js`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await first.text()).toBe('console.log("ui")');
    const again = await fetch(`${base}/assets/index-AbCdEf12.js`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const missing = await fetch(`${base}/assets/other-AbCdEf12.js`);
    expect([missing.status, ((await missing.json()) as { name: string }).name]).toEqual([404, 'NotFoundError']);
  });

  it('says the UI is not built, with a way to build it, when there is no build', async () => {
    const res = await fetch(`${bareBase}/projects`, { headers: html });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('npm run build');
  });
});
