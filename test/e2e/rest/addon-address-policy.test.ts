import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';
import { startReceiver, type Receiver } from '../../support/receiver';

/**
 * Issue 11, safety: without ADDON_ALLOW_PRIVATE_URLS, addon URLs on loopback, private, link-local and metadata
 * addresses are refused when saved and again when sent (the test suite otherwise allows them: its receivers listen
 * on 127.0.0.1).
 */
let strict: TestApp;
let receiver: Receiver | undefined;
beforeAll(async () => {
  strict = await startTestApp({ allowPrivateAddonUrls: false, deliveries: { allowPrivateUrls: false, retryBaseMs: 10, pollMs: 50, maxAttempts: 1 } });
});
afterAll(async () => { await strict.close(); });
const A = '/api/admin/addons';

describe('address policy (ADDON_ALLOW_PRIVATE_URLS unset)', () => {
  it('refuses loopback, private, link-local and metadata addresses at save, and at send time', async () => {
    try {
      for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.5/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0x7f000001/', 'http://metadata.google.internal/']) {
        const res = await strict.post(A, { provider: 'webhook', parameters: { url }, events: ['feature-created'] });
        expect([url, res.status, res.body.name, res.body.details?.[0]?.path]).toEqual([url, 400, 'ValidationError', 'parameters/url']);
      }
      // An addon that points at a private address anyway (say its name now resolves there): refused when sending.
      receiver = await startReceiver();
      const ok = await strict.post(A, { provider: 'webhook', parameters: { url: 'https://hooks.example.com/x' }, events: ['feature-created'] });
      expect(ok.status).toBe(201);
      await strict.orm.em.fork().execute(`update addons set parameters = jsonb_set(parameters, '{url}', to_jsonb(?::text)) where id = ?`, [receiver.url, ok.body.id]);
      await strict.post('/api/admin/projects/default/features', { name: 'private-target' });
      const until = Date.now() + 5000;
      let d: any;
      while (Date.now() < until && (d = (await strict.get(`${A}/${ok.body.id}/deliveries`)).body.deliveries[0])?.status !== 'failed') await new Promise((r) => setTimeout(r, 40));
      expect(d.status).toBe('failed');
      expect(d.attempts[0].error).toMatch(/127\.0\.0\.1 is a loopback, private, link-local or reserved address/);
      expect(receiver.requests).toEqual([]);
    } finally {
      await receiver?.close();
    }
  });

  it('refuses the IPv6 spellings of loopback that carry 127.0.0.1 inside (6to4, IPv4-translated)', async () => {
    for (const url of ['http://[2002:7f00:1::]:9/hook', 'http://[::ffff:0:7f00:1]:9/hook']) {
      const res = await strict.post(A, { provider: 'webhook', parameters: { url }, events: ['feature-created'] });
      expect([url, res.status, res.body.name, res.body.details?.[0]?.path]).toEqual([url, 400, 'ValidationError', 'parameters/url']);
    }
  });
});
