import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // `target` is created before `spare`, so `spare` is an environment the project does not have yet.
  for (const [path, body] of [
    ['/api/admin/projects', { id: 'target', name: 'Target' }],
    ['/api/admin/environments', { name: 'spare', type: 'test' }],
    ['/api/admin/context', { name: 'region', legalValues: [{ value: 'eu' }] }],
    ['/api/admin/tag-types', { name: 'team', description: 'Team', icon: 'T' }],
  ] as const) {
    expect((await app.post(path, body)).status).toBe(201);
  }
});
afterAll(async () => { await app.close(); });

/**
 * Every POST/PUT endpoint that takes a body. `valid` is accepted as is (checked last, as a control);
 * each bad-input case changes one thing about it, so the failure can only come from that change.
 */
interface Endpoint {
  method: 'POST' | 'PUT';
  path: string;
  valid: Record<string, unknown>;
  /** Status of the valid body. */
  ok: number;
  /** Properties the body must have (partial updates have none). */
  required: string[];
  /** [property, wrongly typed value, path reported if not the property]. */
  wrongTypes: Array<[string, unknown, string?]>;
  /** [property, value one character over its limit]. */
  tooLong: Array<[string, string]>;
  /** A string property, to carry a NUL character (PostgreSQL cannot store one). */
  text: string;
  /** Reads whose answers must be identical before and after every refused request. */
  reads: string[];
}

const over = (max: number) => 'x'.repeat(max + 1);

const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST', path: '/api/admin/environments', ok: 201,
    valid: { name: 'qa', type: 'test', sortOrder: 3, enabled: true },
    required: ['name', 'type'],
    wrongTypes: [['name', 42], ['type', 42], ['sortOrder', '3'], ['enabled', 'true']],
    tooLong: [['name', over(100)], ['type', over(100)]],
    text: 'type',
    reads: ['/api/admin/environments'],
  },
  {
    method: 'PUT', path: '/api/admin/environments/spare', ok: 200,
    valid: { type: 'quality', sortOrder: 4 },
    required: [],
    wrongTypes: [['type', 42], ['sortOrder', 'high']],
    tooLong: [['type', over(100)]],
    text: 'type',
    reads: ['/api/admin/environments/spare', '/api/admin/environments'],
  },
  {
    method: 'POST', path: '/api/admin/projects', ok: 201,
    valid: { id: 'fresh', name: 'Fresh', description: 'A new project', mode: 'open', defaultStickiness: 'userId', featureLimit: 5 },
    required: ['id', 'name'],
    wrongTypes: [['id', 42], ['name', 42], ['description', 42], ['featureLimit', '5'], ['mode', 1]],
    tooLong: [['id', over(100)], ['name', over(100)], ['description', over(1000)], ['defaultStickiness', over(100)]],
    text: 'name',
    reads: ['/api/admin/projects'],
  },
  {
    method: 'PUT', path: '/api/admin/projects/target', ok: 200,
    valid: { name: 'Target 2', description: 'Renamed', mode: 'protected', featureLimit: 3 },
    required: ['name'],
    wrongTypes: [['name', 42], ['description', 42], ['featureLimit', 'three'], ['mode', true]],
    tooLong: [['name', over(100)], ['description', over(1000)]],
    text: 'description',
    reads: ['/api/admin/projects/target'],
  },
  {
    method: 'POST', path: '/api/admin/projects/target/environments', ok: 200,
    valid: { environment: 'spare' },
    required: ['environment'],
    wrongTypes: [['environment', 42]],
    tooLong: [['environment', over(100)]],
    text: 'environment',
    reads: ['/api/admin/projects/target', '/api/admin/environments/project/target'],
  },
  {
    method: 'POST', path: '/api/admin/context', ok: 201,
    valid: { name: 'tenant', description: 'Tenant id', stickiness: true, sortOrder: 1, legalValues: [{ value: 'acme' }] },
    required: ['name'],
    wrongTypes: [
      ['name', 42], ['description', 42], ['sortOrder', '1'], ['stickiness', 'true'],
      ['legalValues', { value: 'acme' }], ['legalValues', [{ value: 7 }], 'legalValues/0/value'],
    ],
    tooLong: [['name', over(100)], ['description', over(1000)]],
    text: 'description',
    reads: ['/api/admin/context'],
  },
  {
    method: 'PUT', path: '/api/admin/context/region', ok: 200,
    valid: { description: 'Cloud region', stickiness: true, sortOrder: 2, legalValues: [{ value: 'us' }] },
    required: [],
    wrongTypes: [
      ['description', 42], ['stickiness', 'yes'], ['sortOrder', '2'],
      ['legalValues', { value: 'us' }], ['legalValues', ['us'], 'legalValues/0'],
    ],
    tooLong: [['description', over(1000)]],
    text: 'description',
    reads: ['/api/admin/context/region'],
  },
  {
    method: 'POST', path: '/api/admin/context/validate', ok: 200,
    valid: { name: 'free-name' },
    required: ['name'],
    wrongTypes: [['name', 42]],
    tooLong: [['name', over(100)]],
    text: 'name',
    reads: ['/api/admin/context'],
  },
  {
    method: 'POST', path: '/api/admin/context/region/legal-values', ok: 200,
    valid: { value: 'us', description: 'United States' },
    required: ['value'],
    wrongTypes: [['value', 42], ['description', 42]],
    tooLong: [['value', over(100)], ['description', over(1000)]],
    text: 'value',
    reads: ['/api/admin/context/region'],
  },
  {
    method: 'POST', path: '/api/admin/tag-types', ok: 201,
    valid: { name: 'area', description: 'Product area', icon: 'A' },
    required: ['name'],
    wrongTypes: [['name', 42], ['description', 42], ['icon', 42]],
    tooLong: [['name', over(50)], ['description', over(1000)], ['icon', over(100)]],
    text: 'description',
    reads: ['/api/admin/tag-types'],
  },
  {
    method: 'PUT', path: '/api/admin/tag-types/team', ok: 200,
    valid: { description: 'Owning team', icon: 'O' },
    required: [],
    wrongTypes: [['description', 42], ['icon', 42]],
    tooLong: [['description', over(1000)], ['icon', over(100)]],
    text: 'icon',
    reads: ['/api/admin/tag-types/team'],
  },
  {
    method: 'POST', path: '/api/admin/tag-types/validate', ok: 200,
    valid: { name: 'fresh-type' },
    required: ['name'],
    wrongTypes: [['name', 42]],
    tooLong: [['name', over(50)]],
    text: 'name',
    reads: ['/api/admin/tag-types'],
  },
  {
    method: 'POST', path: '/api/admin/tags', ok: 201,
    valid: { type: 'team', value: 'payments' },
    required: ['value'],
    wrongTypes: [['value', 42], ['type', 42]],
    tooLong: [['value', over(50)]],
    text: 'value',
    reads: ['/api/admin/tags'],
  },
];

interface Case {
  label: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  status: 400 | 415;
  /** For 400: the path one of the details must name, and what its message must say. */
  path?: string;
  message?: RegExp;
}

const kind = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
const without = (body: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
/** The value at a details path such as `legalValues/0/value`, inside the value given for its first segment. */
const nested = (value: unknown, path: string) => path.split('/').slice(1).reduce<unknown>((cur, key) => (cur as Record<string, unknown>)[key], value);

function casesFor(ep: Endpoint): Case[] {
  const json = JSON.stringify(ep.valid);
  return [
    ...ep.required.map((p): Case => ({ label: `a body without ${p}`, body: without(ep.valid, p), status: 400, path: p, message: /is required/ })),
    ...ep.wrongTypes.map(([p, v, at = p]): Case => ({ label: `${at} as ${kind(nested(v, at))}`, body: { ...ep.valid, [p]: v }, status: 400, path: at, message: /must (be|match)/ })),
    ...ep.tooLong.map(([p, v]): Case => ({ label: `${p} of ${v.length} characters`, body: { ...ep.valid, [p]: v }, status: 400, path: p, message: /at most/ })),
    { label: 'an unknown property', body: { ...ep.valid, unexpected: 'x' }, status: 400, path: 'unexpected', message: /does not allow additional properties/ },
    { label: 'an inherited-looking property (__proto__)', raw: `${json.slice(0, -1)},"__proto__":{"isAdmin":true}}`, status: 400, path: '__proto__', message: /does not allow additional properties/ },
    { label: `a NUL character in ${ep.text}`, body: { ...ep.valid, [ep.text]: 'a\u0000b' }, status: 400, path: ep.text },
    ...(ep.required.length > 0 ? [{ label: 'no body at all', raw: '', status: 400 as const, path: ep.required[0], message: /is required/ }] : []),
    { label: 'malformed JSON', raw: json.slice(0, -1), status: 400, path: '', message: /not valid JSON/ },
    { label: 'a text/plain body', raw: json, headers: { 'content-type': 'text/plain' }, status: 415 },
    { label: 'a JSON array', body: [ep.valid], status: 400, path: '', message: /must be an object/ },
    { label: 'a JSON string', body: 'hello', status: 400, path: '', message: /must be an object/ },
    { label: 'JSON null', raw: 'null', status: 400, path: '', message: /must be an object/ },
  ];
}

/** What a refused request must leave untouched: every read of the affected resources, and the audit log. */
async function snapshot(ep: Endpoint) {
  const reads: unknown[] = [];
  for (const path of ep.reads) {
    const res = await app.get(path);
    expect(res.status).toBe(200);
    reads.push(res.body);
  }
  return { reads, events: (await app.events()).length };
}

describe.each(ENDPOINTS)('$method $path', (ep) => {
  it.each(casesFor(ep))('refuses $label', async (c) => {
    const before = await snapshot(ep);
    const res = await app.request(ep.method, ep.path, c.body, { raw: c.raw, headers: c.headers });

    expect(res.status).toBe(c.status);
    expect(res.body.name).toBe(c.status === 415 ? 'ContentTypeerror' : 'ValidationError');
    expect(typeof res.body.id).toBe('string');
    expect(typeof res.body.message).toBe('string');
    if (c.status === 400) {
      const details = res.body.details as Array<{ path: unknown; message: unknown }>;
      expect(details.length).toBeGreaterThan(0);
      for (const d of details) {
        expect(typeof d.path).toBe('string');
        expect(typeof d.message).toBe('string');
        expect((d.message as string).length).toBeGreaterThan(0);
      }
      const named = details.filter((d) => d.path === c.path);
      expect(named).not.toEqual([]);
      if (c.message) expect(named[0].message).toMatch(c.message);
    }

    expect(await snapshot(ep)).toEqual(before);
  });

  it(`accepts the valid body (control): ${ep.ok}`, async () => {
    const res = await app.request(ep.method, ep.path, ep.valid);
    expect(res.status).toBe(ep.ok);
  });
});
