/**
 * Issue 45 acceptance, server side: the OpenFeature server SDK (@openfeature/server-sdk 1.23.0) with the server OFREP
 * provider (@openfeature/ofrep-provider 0.1.3, the only published version, December 2024) against flagdeck's
 * `/ofrep/v1`. It speaks the current single-evaluation path (`POST /ofrep/v1/evaluate/flags/{key}` with `{context}`)
 * and never uses the bulk path. It needs @openfeature/ofrep-core 0.1.x (its peer dependency), which predates the
 * protocol's optional `value` (ADR 0006): an answer without `value` (a flag that is off but has variants) is "not in
 * the expected format" to it, which the SDK turns into the default with errorCode GENERAL. The tests pin that, so a
 * newer provider shows up here.
 *
 * - Every typed getter answers, per call and context, what `/api/frontend` and the playground say (value, variant,
 *   reason), for flags without variants and with string, csv, number and JSON payloads.
 * - FLAG_NOT_FOUND, TYPE_MISMATCH and INVALID_CONTEXT as the SDK documents them (the default, errorCode set).
 * - The token in `Authorization` (as Unleash SDKs send it), as `Bearer`, or in `X-API-Key`; frontend, client and
 *   admin tokens; without a valid one the server answers 401 and the SDK gives the default.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OpenFeature, type Client, type EvaluationContext, type EvaluationDetails, type FlagValue } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../support/harness';
import {
  APP_NAME, DEFAULTS, OFREP, TYPED_FLAGS, envPath, expectations, expectedDetails, frontendToken, ok, recordingFetch, seedTypedFlags,
  type Details, type Exchange, type FlagKind, type OfrepContext,
} from '../../support/ofrep-sdk';

let app: TestApp;
const tokens: Record<string, string> = {};
const log: Exchange[] = [];

const CONTEXTS: OfrepContext[] = [
  { targetingKey: 'u1', region: 'eu', tier: 'pro', appName: APP_NAME },
  { targetingKey: 'u2', region: 'us', tier: 'free', appName: APP_NAME },
  { targetingKey: 'u7', tier: 'enterprise', appName: APP_NAME },
  { userId: 'u3', sessionId: 's9', region: 'eu', tier: 'enterprise', appName: APP_NAME },
  ...Array.from({ length: 10 }, (_, i): OfrepContext => ({ targetingKey: `user-${i}`, region: i % 3 === 0 ? 'eu' : 'apac', tier: i % 2 ? 'pro' : 'free', appName: APP_NAME })),
];

function provider(headers: [string, string][], fetchLog: Exchange[] = log) {
  return new OFREPProvider({ baseUrl: app.url, headers, fetchImplementation: recordingFetch(fetchLog) });
}

beforeAll(async () => {
  app = await startTestApp();
  await seedTypedFlags(app);
  // No variants: on for a tier of "2" or "true", to see numbers and booleans arrive as text.
  await ok(app.post('/api/admin/projects/default/features', { name: 'numeric-tier' }), 201);
  await ok(app.post(`${envPath('numeric-tier')}/strategies`, { name: 'default', constraints: [{ contextName: 'tier', operator: 'IN', values: ['2', 'true'] }] }));
  await ok(app.post(`${envPath('numeric-tier')}/on`));
  tokens.frontend = await frontendToken(app, 'ofrep-server');
  tokens.client = await frontendToken(app, 'ofrep-server-client', 'client');
  await OpenFeature.setProviderAndWait(provider([['Authorization', tokens.frontend]]));
});
afterAll(async () => {
  await OpenFeature.close();
  await app.close();
});

async function read(client: Client, flag: string, kind: FlagKind, ctx: EvaluationContext, def: unknown = DEFAULTS[kind]): Promise<Details> {
  let d: EvaluationDetails<FlagValue>;
  if (kind === 'boolean') d = await client.getBooleanDetails(flag, def as boolean, ctx);
  else if (kind === 'string') d = await client.getStringDetails(flag, def as string, ctx);
  else if (kind === 'number') d = await client.getNumberDetails(flag, def as number, ctx);
  else d = await client.getObjectDetails(flag, def as never, ctx);
  return { value: d.value, variant: d.variant, reason: d.reason, errorCode: d.errorCode };
}

/** What provider 0.1.3 makes of an answer without `value` (see the header): the default and a GENERAL error. */
const NO_VALUE_IN_0_1_3 = (kind: FlagKind): Details => ({ value: DEFAULTS[kind], variant: undefined, reason: 'ERROR', errorCode: 'GENERAL' });

describe('the OpenFeature server SDK with the server OFREP provider', () => {
  it(`answers each typed getter as /api/frontend and the playground say, one request per call, over ${CONTEXTS.length} contexts`, async () => {
    const client = OpenFeature.getClient();
    const mismatches: unknown[] = [];
    const seen = { reasons: new Set<string>(), types: new Set<string>(), withoutValue: 0 };
    log.length = 0;
    for (const ctx of CONTEXTS) {
      const want = await expectations(app, tokens.frontend, ctx);
      for (const { name, kind } of TYPED_FLAGS) {
        const w = want.get(name)!;
        const expected = w.value === undefined ? NO_VALUE_IN_0_1_3(kind) : expectedDetails(w, kind);
        const got = await read(client, name, kind, ctx as EvaluationContext);
        if (JSON.stringify(got) !== JSON.stringify(expected)) mismatches.push({ ctx, name, got, expected });
        const answer = log.at(-1)!;
        // The answer itself, whatever the provider makes of it: the value left out exactly when the contract says.
        expect({ name, path: answer.path, status: answer.status, context: answer.requestBody.context, hasValue: 'value' in answer.body, variant: answer.body.variant, reason: answer.body.reason })
          .toEqual({ name, path: `${OFREP}/evaluate/flags/${name}`, status: 200, context: ctx, hasValue: w.value !== undefined, variant: w.variant, reason: w.reason });
        seen.reasons.add(w.reason);
        if (w.value === undefined) seen.withoutValue += 1;
        else seen.types.add(typeof w.value);
      }
    }
    expect({ count: mismatches.length, first: mismatches.slice(0, 5) }).toEqual({ count: 0, first: [] });
    expect([...seen.reasons].sort()).toEqual(['DEFAULT', 'DISABLED', 'SPLIT', 'STATIC', 'TARGETING_MATCH']);
    expect([...seen.types].sort()).toEqual(['boolean', 'number', 'object', 'string']);
    expect(seen.withoutValue).toBeGreaterThan(CONTEXTS.length);
    expect(log).toHaveLength(CONTEXTS.length * TYPED_FLAGS.length);
  }, 60_000);

  it('gives FLAG_NOT_FOUND (a 404) and TYPE_MISMATCH as the SDK documents: the default, reason ERROR, the error code', async () => {
    const client = OpenFeature.getClient();
    const ctx = { targetingKey: 'u1', region: 'eu', tier: 'pro' };
    log.length = 0;
    expect(await read(client, 'no-such-flag', 'boolean', ctx, true)).toEqual({ value: true, variant: undefined, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    expect(log[0]).toMatchObject({ path: `${OFREP}/evaluate/flags/no-such-flag`, status: 404 });
    expect(await read(client, 'no-such-flag', 'string', ctx, 'd')).toEqual({ value: 'd', variant: undefined, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    const mismatch = (value: unknown) => ({ value, variant: undefined, reason: 'ERROR', errorCode: 'TYPE_MISMATCH' });
    expect(await read(client, 'bool-static', 'string', ctx, 'd')).toEqual(mismatch('d'));
    expect(await read(client, 'bool-static', 'object', ctx, {})).toEqual(mismatch({}));
    expect(await read(client, 'string-variant', 'boolean', ctx, true)).toEqual(mismatch(true));
    expect(await read(client, 'csv-variant', 'number', ctx, 1)).toEqual(mismatch(1));
    expect(await read(client, 'json-variant', 'string', ctx, 's')).toEqual(mismatch('s'));
    expect(await read(client, 'number-variant', 'boolean', ctx, false)).toEqual(mismatch(false));
    expect(await read(client, 'number-variant', 'number', ctx)).toEqual({ value: 42.5, variant: 'limit', reason: 'TARGETING_MATCH', errorCode: undefined });
  });

  it('answers INVALID_CONTEXT (a 400) for an object in the context; the SDK gives the default with that code', async () => {
    const client = OpenFeature.getClient();
    log.length = 0;
    const got = await read(client, 'bool-static', 'boolean', { targetingKey: 'u1', nested: { not: 'allowed' } }, true);
    expect(got).toEqual({ value: true, variant: undefined, reason: 'ERROR', errorCode: 'INVALID_CONTEXT' });
    expect(log[0]).toMatchObject({ status: 400 });
    // Numbers and booleans are properties as text.
    const on = { value: true, variant: 'on', reason: 'TARGETING_MATCH', errorCode: undefined };
    expect(await read(client, 'numeric-tier', 'boolean', { targetingKey: 'u1', tier: 2 })).toEqual(on);
    expect(await read(client, 'numeric-tier', 'boolean', { targetingKey: 'u1', tier: true })).toEqual(on);
    expect(await read(client, 'numeric-tier', 'boolean', { targetingKey: 'u1', tier: 3 })).toEqual({ value: false, variant: 'off', reason: 'DEFAULT', errorCode: undefined });
    expect(log.slice(1).map((x) => x.status)).toEqual([200, 200, 200]);
  });

  it('reads the token from Authorization (plain or Bearer) or X-API-Key; frontend, client and admin tokens; 401 without one', async () => {
    const ctx = { targetingKey: 'u1', region: 'eu', tier: 'pro', environment: 'development' };
    const cases: Array<[string, [string, string][], number]> = [
      ['plain', [['Authorization', tokens.frontend]], 200],
      ['bearer', [['Authorization', `Bearer ${tokens.frontend}`]], 200],
      ['x-api-key', [['X-API-Key', tokens.frontend]], 200],
      ['client-token', [['Authorization', tokens.client]], 200],
      ['admin-token', [['Authorization', ADMIN_TOKEN]], 200],
      ['no-token', [], 401],
      ['wrong-token', [['Authorization', `${tokens.frontend}x`]], 401],
    ];
    for (const [domain, headers, status] of cases) {
      const exchanges: Exchange[] = [];
      await OpenFeature.setProviderAndWait(domain, provider(headers, exchanges));
      const got = await read(OpenFeature.getClient(domain), 'number-variant', 'number', ctx);
      expect({ domain, status: exchanges[0].status }).toEqual({ domain, status });
      if (status === 200) expect({ domain, got }).toEqual({ domain, got: { value: 42.5, variant: 'limit', reason: 'TARGETING_MATCH', errorCode: undefined } });
      else expect({ domain, got }).toEqual({ domain, got: { value: -1, variant: undefined, reason: 'ERROR', errorCode: 'GENERAL' } });
    }
    // The raw answer is the contract's 401 for the SDK's request shape.
    const res = await app.post(`${OFREP}/evaluate/flags/bool-static`, { context: ctx }, { token: null });
    expect(res.status).toBe(401);
    expect(await ok(app.post(`${OFREP}/evaluate/flags/bool-static`, { context: ctx }, { token: tokens.frontend }))).toEqual(
      expect.objectContaining({ key: 'bool-static', value: true, variant: 'on', reason: 'STATIC' }));
  });
});
