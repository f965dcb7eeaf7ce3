/**
 * Issue 45 acceptance: the Unleash client specification vectors (@unleash/client-specification) evaluated through
 * OFREP single evaluation (`POST /ofrep/v1/evaluate/flags/{key}`) give the same enabled state and variant as the
 * frontend API (`POST /api/frontend`) for the same context and the same frontend token.
 *
 * Each file's `state` is stored through the admin API as the Node SDK's specification test stores it
 * (test/support/spec-state.ts), then every `tests` and `variantTests` case is asked of both: the context as an
 * OpenFeature SDK sends it to OFREP (flat, userId as targetingKey, properties as top-level keys) and as the Unleash
 * SDKs send it to the frontend API. The OFREP answer must be what the contract derives from the frontend API's:
 * no variants → the enabled state as a boolean, variant "on"/"off"; a variant handed out → its typed payload (or its
 * name) and its name; a flag with variants (its own or a strategy's) that hands none out → no value, variant
 * "disabled"; and a reason that fits (DISABLED exactly when the flag is switched off). A case whose flag does not exist
 * must be FLAG_NOT_FOUND (404).
 *
 * Skipped, with the reason in the title: cases whose flag flagdeck cannot store (the same rules as the Node SDK's
 * test), and cases whose answer, as stored, depends on random stickiness (two requests may rightly differ).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { specificationFiles, SPEC_VERSION, type SpecCase } from '../../support/client-specification';
import { startTestApp, type TestApp } from '../../support/harness';
import { OFREP, frontendToken, ofrepContext, ok, valueOf } from '../../support/ofrep-sdk';
import { randomnessOf, store, unstorable, unstore, type Stored } from '../../support/spec-state';

let app: TestApp;
let token = '';
const contextFields = new Set<string>();
const counts = { compared: 0, notFound: 0, enabled: 0, withVariant: 0, skipped: 0 };

beforeAll(async () => {
  app = await startTestApp();
  for (const f of await ok<Array<{ name: string }>>(app.get('/api/admin/context'))) contextFields.add(f.name);
  token = await frontendToken(app, 'ofrep-spec');
});
afterAll(async () => {
  await app.close();
  console.log(`client specification ${SPEC_VERSION} through OFREP and the frontend API: ${JSON.stringify(counts)}`);
});

const ON_REASONS = ['STATIC', 'TARGETING_MATCH', 'SPLIT'];

describe(`@unleash/client-specification ${SPEC_VERSION}: OFREP single evaluation answers as the frontend API`, () => {
  const files = specificationFiles();

  it('reads every file the specification lists', () => {
    expect(files.length).toBeGreaterThanOrEqual(22);
  });

  for (const file of files) {
    const storable = new Set(file.state.features.map((f) => f.name).filter((n) => unstorable(file.state, n) === null));
    const random = randomnessOf(file.state);
    const cases = [...file.tests.map((tc) => ({ tc, title: tc.description })), ...file.variantTests.map((tc) => ({ tc, title: `variant: ${tc.description}` }))]
      .map(({ tc, title }) => {
        const exists = file.state.features.some((f) => f.name === tc.toggleName);
        const reason = !exists ? null : unstorable(file.state, tc.toggleName) ?? (random(tc) ? 'as stored, the answer depends on random stickiness' : null);
        return { tc, title, exists, reason };
      });

    describe(file.fileName, () => {
      let stored: Stored | undefined;
      beforeAll(async () => {
        if (cases.some((c) => !c.reason)) stored = await store(app, file.state, storable, contextFields);
      }, 30_000);
      afterAll(async () => {
        if (stored) await unstore(app, stored);
      }, 30_000);

      for (const c of cases) {
        if (c.reason) {
          counts.skipped += 1;
          it.skip(`${c.title} (skipped: ${c.reason})`, () => undefined);
          continue;
        }
        it(c.title, async () => {
          await compare(file.state.features.find((f) => f.name === c.tc.toggleName), c.tc, file.fileName);
        });
      }
    });
  }
});

async function compare(feature: { enabled: boolean; variants?: unknown[]; strategies?: Array<{ variants?: unknown[] }> } | undefined, tc: SpecCase, fileName: string): Promise<void> {
  const frontend = await ok(app.post('/api/frontend', { context: tc.context }, { token }));
  const toggle = frontend.toggles.find((t: any) => t.name === tc.toggleName);
  const res = await app.post(`${OFREP}/evaluate/flags/${encodeURIComponent(tc.toggleName)}`, { context: ofrepContext(tc.context as Record<string, unknown>) }, { token });
  const where = { file: fileName, toggle: tc.toggleName, context: tc.context };

  if (!feature) {
    counts.notFound += 1;
    expect({ ...where, frontend: toggle, status: res.status, body: res.body })
      .toEqual({ ...where, frontend: undefined, status: 404, body: expect.objectContaining({ key: tc.toggleName, errorCode: 'FLAG_NOT_FOUND' }) });
    return;
  }
  counts.compared += 1;
  const enabled = Boolean(toggle?.enabled);
  const variant = toggle?.variant ?? { name: 'disabled', enabled: false };
  if (enabled) counts.enabled += 1;
  if (variant.enabled) counts.withVariant += 1;
  expect({ ...where, status: res.status }).toEqual({ ...where, status: 200 });
  const body = res.body;
  const got: Record<string, unknown> = { key: body.key, variant: body.variant };
  if ('value' in body) got.value = body.value;

  const hasVariants = (feature.variants ?? []).length > 0 || (feature.strategies ?? []).some((s) => (s.variants ?? []).length > 0);
  expect({ ...where, got }).toEqual({ ...where, got: { key: tc.toggleName, ...valueOf(enabled, variant, hasVariants) } });
  // A reason that fits the answer: DISABLED exactly when the flag is switched off in the environment.
  const reasons = !feature.enabled ? ['DISABLED'] : enabled ? ON_REASONS : ['DEFAULT'];
  expect(reasons.includes(body.reason) ? null : { ...where, enabled, reason: body.reason, fitting: reasons }).toBeNull();
}
