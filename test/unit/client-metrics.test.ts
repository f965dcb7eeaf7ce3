import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../src/domain/errors';
import { MetricsBuffer, type MetricsBatch } from '../../src/domain/metrics/metrics-buffer';
import { metricsSchema, parseMetricsReport, readReport, reportEnvironment, type MetricsReport } from '../../src/domain/metrics/metrics-input';
import type { Principal } from '../../src/domain/access/principal';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 22, 10, 30);
const source = { environment: 'production', clientIp: '10.0.0.1', projects: ['*'], reporter: 'sdk-token' };
const report = (toggles: MetricsReport['bucket']['toggles'], start = NOW - 60_000, appName = 'web', instanceId = 'web-1'): MetricsReport =>
  ({ appName, instanceId, bucket: { start: new Date(start), stop: new Date(start + 60_000), toggles } });
const byFeature = (b: MetricsBatch) => Object.fromEntries(b.counts.map((c) => [`${c.feature}/${c.app}/${c.environment}/${new Date(c.hour).toISOString()}`,
  { yes: c.yes, no: c.no, variants: c.variants ? Object.fromEntries(c.variants) : undefined }]));

describe('MetricsBuffer', () => {
  it('sums reports per feature, application, environment and hour; marks features seen; remembers the instance', () => {
    const b = new MetricsBuffer(1000);
    b.add(report({ a: { yes: 2, no: 1, variants: { blue: 2 } }, b: { no: 4 } }), source, NOW, 0);
    b.add(report({ a: { yes: 3, variants: { blue: 1, red: 2, green: 0 } } }), source, NOW + 1000, 0);
    b.add(report({ a: { yes: 1 } }, NOW - 60_000, 'api'), source, NOW + 2000, 0);
    const batch = b.take();
    expect(byFeature(batch)).toEqual({
      'a/web/production/2026-11-22T10:00:00.000Z': { yes: 5, no: 1, variants: { blue: 3, red: 2 } },
      'b/web/production/2026-11-22T10:00:00.000Z': { yes: 0, no: 4, variants: undefined },
      'a/api/production/2026-11-22T10:00:00.000Z': { yes: 1, no: 0, variants: undefined },
    });
    expect(batch.seen).toEqual([{ feature: 'a', environment: 'production', at: NOW + 2000, projects: ['*'] }, { feature: 'b', environment: 'production', at: NOW, projects: ['*'] }]);
    // Each instance's first report and its latest: the flush creates an instance (and its application) at the first.
    expect(batch.instances.map((i) => [i.app, i.instanceId, i.environment, i.firstAt, i.at])).toEqual([['web', 'web-1', 'production', NOW, NOW + 1000], ['api', 'web-1', 'production', NOW + 2000, NOW + 2000]]);
    expect(b.take()).toEqual({ counts: [], seen: [], instances: [] });
  });

  it("keeps reports of tokens of different projects apart (the flush counts each only for its projects' features), and puts a failed batch back so", () => {
    const b = new MetricsBuffer(1000);
    b.add(report({ a: { yes: 1 } }), { ...source, projects: ['alpha'] }, NOW, 0);
    b.add(report({ a: { yes: 2 } }), { ...source, projects: ['beta'] }, NOW, 0);
    b.add(report({ a: { yes: 4 } }), { ...source, projects: ['alpha'] }, NOW, 0);
    const batch = b.take();
    const counts = batch.counts.map((c) => [c.feature, c.projects, c.yes]);
    expect(counts).toEqual([['a', ['alpha'], 5], ['a', ['beta'], 2]]);
    expect(batch.seen.map((s) => [s.feature, s.projects])).toEqual([['a', ['alpha']], ['a', ['beta']]]);
    b.restore(batch);
    b.add(report({ a: { yes: 8 } }), { ...source, projects: ['beta'] }, NOW, 0);
    expect(b.take().counts.map((c) => [c.feature, c.projects, c.yes])).toEqual([['a', ['alpha'], 5], ['a', ['beta'], 10]]);
  });

  it('leaves out toggles with no evaluation and names that cannot be features; a future start counts now; an hour past retention only marks seen', () => {
    const b = new MetricsBuffer(1000);
    b.add(report({ zero: { yes: 0, no: 0, variants: { blue: 3 } }, ['x'.repeat(101)]: { yes: 1 } }), source, NOW, 0);
    b.add(report({ future: { yes: 1 } }, NOW + 5 * HOUR), source, NOW, 0);
    b.add(report({ old: { yes: 1 } }, NOW - 50 * HOUR), source, NOW, NOW - 48 * HOUR);
    const batch = b.take();
    expect(Object.keys(byFeature(batch))).toEqual(['future/web/production/2026-11-22T10:00:00.000Z']);
    expect(batch.seen.map((s) => s.feature).sort()).toEqual(['future', 'old']);
  });

  it('holds at most maxKeys keys: reports for new keys are dropped and counted, keys held keep adding up', () => {
    const b = new MetricsBuffer(2);
    b.add(report({ a: { yes: 1 }, b: { yes: 1 } }), source, NOW, 0);
    b.add(report({ a: { yes: 1 }, c: { yes: 1 } }), source, NOW, 0);
    expect(b.size).toBe(2);
    expect(b.takeDropped()).toBe(2); // c: its count and its seen mark
    expect(b.takeDropped()).toBe(0);
    expect(byFeature(b.take())).toEqual({ 'a/web/production/2026-11-22T10:00:00.000Z': { yes: 2, no: 0, variants: undefined }, 'b/web/production/2026-11-22T10:00:00.000Z': { yes: 1, no: 0, variants: undefined } });
  });

  it('restore puts a failed batch back, added to what arrived meanwhile', () => {
    const b = new MetricsBuffer(1000);
    b.add(report({ a: { yes: 1, variants: { blue: 1 } } }), source, NOW, 0);
    const failed = b.take();
    b.add(report({ a: { yes: 2, variants: { blue: 2 } }, b: { no: 1 } }), source, NOW + 500, 0);
    b.restore(failed);
    const batch = b.take();
    expect(byFeature(batch)).toEqual({
      'a/web/production/2026-11-22T10:00:00.000Z': { yes: 3, no: 0, variants: { blue: 3 } },
      'b/web/production/2026-11-22T10:00:00.000Z': { yes: 0, no: 1, variants: undefined },
    });
    expect(batch.seen.find((s) => s.feature === 'a')!.at).toBe(NOW + 500);
    expect(batch.instances.map((i) => [i.firstAt, i.at])).toEqual([[NOW, NOW + 500]]);
  });
});

describe('reading a report', () => {
  const valid = () => ({
    appName: 'web', instanceId: 'web-1', environment: 'development', connectionId: 'c', yggdrasilVersion: null,
    bucket: { start: '2026-11-22T10:00:00.123456789+01:00', stop: 1_763_800_000_000, toggles: { a: { yes: 1, no: 2, variants: { blue: 1 } }, b: { no: 3 } } },
  });
  /** Variations of the valid body, one property at a time (the fast path and the schema must agree on each). */
  const variations: Array<(b: any) => void> = [
    () => {}, (b) => { delete b.instanceId; }, (b) => { b.instanceId = ''; }, (b) => { b.instanceId = null; }, (b) => { b.instanceId = 5; },
    (b) => { b.appName = ''; }, (b) => { b.appName = 'x'.repeat(256); }, (b) => { b.environment = null; }, (b) => { b.environment = 'e'.repeat(101); },
    (b) => { b.bucket = []; }, (b) => { b.bucket.start = 'soon'; }, (b) => { b.bucket.start = true; }, (b) => { b.bucket.stop = 'x'.repeat(65); },
    (b) => { delete b.bucket.toggles; }, (b) => { b.bucket.toggles = null; }, (b) => { b.bucket.toggles = [1]; },
    (b) => { b.bucket.toggles.a = null; }, (b) => { b.bucket.toggles.a = []; }, (b) => { b.bucket.toggles.a.yes = null; }, (b) => { b.bucket.toggles.a.yes = 2 ** 31 - 1; },
    (b) => { b.bucket.toggles.a.yes = 2 ** 31; }, (b) => { b.bucket.toggles.a.no = 0.5; }, (b) => { b.bucket.toggles.a.no = -0; }, (b) => { b.bucket.toggles.a.variants = null; },
    (b) => { b.bucket.toggles.a.variants = [] as unknown; }, (b) => { b.bucket.toggles.a.variants.blue = -1; }, (b) => { b.bucket.toggles.a.variants['v'.repeat(256)] = 1; },
    (b) => { b.bucket.toggles.a.extra = 'ignored'; }, (b) => { b.bucket.toggles[''] = { yes: 1 }; },
  ];

  it('the fast path accepts exactly what the schema accepts, with the same meaning', () => {
    for (const [i, vary] of variations.entries()) {
      const body = valid();
      vary(body);
      const schema = metricsSchema.safeParse(body);
      const fast = readReport(body);
      if (fast === undefined) {
        // Anything the fast path passes on is the schema's to judge: parseMetricsReport answers as the schema does.
        if (schema.success) expect({ i, meaning: parseMetricsReport(body) }).toEqual({ i, meaning: schema.data });
        else expect(() => parseMetricsReport(body)).toThrow(ValidationError);
        continue;
      }
      expect({ i, ok: schema.success }).toEqual({ i, ok: true });
      const normal = (r: MetricsReport) => ({ ...r, environment: r.environment ?? null, bucket: { ...r.bucket, toggles: Object.fromEntries(Object.entries(r.bucket.toggles).map(([k, t]) => [k, { yes: t.yes ?? 0, no: t.no ?? 0, variants: t.variants ?? null }])) } });
      expect({ i, meaning: normal(fast) }).toEqual({ i, meaning: normal(schema.data!) });
    }
  });

  it('toggles and variants named like Object.prototype members are names like any other', () => {
    const body = JSON.parse('{"appName":"w","bucket":{"start":"2026-11-22T10:00:00Z","stop":"2026-11-22T10:01:00Z","toggles":{"__proto__":{"yes":1,"variants":{"__proto__":1}},"constructor":{"no":2}}}}');
    const parsed = parseMetricsReport(body);
    const b = new MetricsBuffer(10);
    b.add(parsed, source, NOW, 0);
    const rows = b.take().counts.map((c) => [c.feature, c.yes, c.no, c.variants ? [...c.variants] : null]);
    expect(rows).toEqual([['__proto__', 1, 0, [['__proto__', 1]]], ['constructor', 0, 2, null]]);
    expect(Object.getPrototypeOf(parsed.bucket.toggles)).toBe(Object.prototype);
  });

  it('a refusal names the property', () => {
    const body = valid();
    (body.bucket.toggles.a as any).yes = 'many';
    try {
      parseMetricsReport(body);
      throw new Error('expected a refusal');
    } catch (err) {
      expect((err as ValidationError).details[0].path).toBe('bucket/toggles/a/yes');
    }
  });
});

describe('reportEnvironment', () => {
  const token = (tokenEnvironment?: string) => ({ kind: 'api-token', name: 't', userId: null, isAdmin: false, rootRoleId: null, tokenEnvironment }) as Principal;
  it('is the token\'s own environment; for a token of every environment the body\'s, else default', () => {
    expect(reportEnvironment(token('production'), 'development')).toBe('production');
    expect(reportEnvironment(token('*'), 'development')).toBe('development');
    expect(reportEnvironment(token('*'), '')).toBe('default');
    expect(reportEnvironment(token(undefined), undefined)).toBe('default');
  });
});
