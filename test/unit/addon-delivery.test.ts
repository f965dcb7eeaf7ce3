import { describe, expect, it } from '@jest/globals';
import { guardedLookup, isRefusedAddress } from '../../src/domain/addons/address-policy';
import { retryDelayMs } from '../../src/domain/addons/delivery-worker';
import { buildRequests, templateProblem } from '../../src/domain/addons/formats';
import type { AuditEvent } from '../../src/domain/events/event.shapes';

describe('address policy', () => {
  it.each([
    ['127.0.0.1', true], ['127.255.0.9', true], ['10.1.2.3', true], ['172.16.0.1', true], ['172.32.0.1', false], ['192.168.1.1', true],
    ['169.254.169.254', true], ['100.64.0.1', true], ['0.0.0.0', true], ['224.0.0.1', true], ['255.255.255.255', true],
    ['8.8.8.8', false], ['93.184.216.34', false],
    ['::1', true], ['::', true], ['::ffff:127.0.0.1', true], ['::ffff:7f00:1', true], ['::ffff:a9fe:a9fe', true], ['fd00:ec2::254', true],
    ['fe80::1', true], ['ff02::1', true], ['2606:4700::1111', false], ['::ffff:8.8.8.8', false], ['not-an-address', true],
  ])('%s refused: %s', (address, refused) => {
    expect(isRefusedAddress(address)).toBe(refused);
  });

  it('the connect-time lookup refuses names of this machine before asking DNS', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toMatch(/may not reach|names this machine/);
  });
});

describe('retry backoff', () => {
  it('doubles from the base with jitter in [0.5, 1) of the step, capped at an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, () => 0.999999))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(40, 5000, () => 0.999999)).toBeLessThanOrEqual(3_600_000);
    expect(retryDelayMs(40, 5000, () => 0.999999)).toBeGreaterThan(3_599_000);
  });
});

describe('formats', () => {
  const event: AuditEvent = {
    id: 7, type: 'feature-environment-disabled', createdAt: '2026-01-01T00:00:00.000Z', createdBy: 'ann <admin>', createdByUserId: 3,
    project: 'web', environment: 'production', featureName: 'new-checkout', data: null, preData: null, tags: [{ type: 'slack', value: 'releases' }, { type: 'datadog', value: 'team:web' }],
  };
  const ctx = { publicUrl: 'https://flags.example.com', deliveryId: 'd-1' };

  it('Slack escapes what its markup would read as links', () => {
    const [r] = buildRequests('slack', { url: 'https://hooks.slack.com/x', defaultChannel: 'general' }, event, ctx);
    const body = JSON.parse(r.body);
    expect(body.text).toBe('*ann &lt;admin&gt;* disabled <https://flags.example.com/projects/web/features/new-checkout|new-checkout> in the *production* environment in project *web*.');
    expect(body.channel).toBe('#releases');
    expect(r.headers['idempotency-key']).toBe('d-1');
  });

  it('a template that does not parse is reported; one that does renders over {event}', () => {
    expect(templateProblem('{{#event}}')).toMatch(/Unclosed section/);
    expect(templateProblem('{{event.type}}')).toBeUndefined();
    const [r] = buildRequests('webhook', { url: 'https://x.example/', bodyTemplate: '{{event.featureName}}/{{event.environment}}', customHeaders: 'not json' }, event, ctx);
    expect(r.body).toBe('new-checkout/production');
    expect(r.headers).toEqual({ 'user-agent': 'flagdeck-addons', 'idempotency-key': 'd-1', 'content-type': 'application/json' });
  });
});
