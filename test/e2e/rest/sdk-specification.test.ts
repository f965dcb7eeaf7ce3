/**
 * Issue 32's acceptance: the official Node SDK (unleash-client 6.12.1) passes the Unleash client specification
 * (@unleash/client-specification) against flagdeck in every way it reads flags. For each specification file its
 * `state` is stored through the admin API (context fields, segments, flags, strategies with constraints, parameters,
 * segments and variants, flag variants, dependencies, switches in the token's environment), then an SDK in each served
 * mode reads it and every `tests` case (isEnabled) and `variantTests` case (getVariant) is checked, and the SDK must
 * hold exactly what /api/client/features answers. The state is removed again before the next file.
 *
 * Cases whose flag (or a parent, or a segment it uses) flagdeck cannot store are skipped with the reason in their
 * title and listed at the end: see `unstorable` (the operators flagdeck stores are read from
 * src/domain/features/constraints.ts). Every case runs in every mode the SDK has (full polls, streaming, delta polls).
 * Variant weights are stored resolved to a total of
 * 1000 (the vectors' total 1, 2 or 100): a case is skipped only when the engine, which the unit test holds to the
 * specification, answers it differently with the stored weights (see weightsChangeAnswer).
 *
 * Skips are marked in the title as the unit test marks them, not with describeWhen/itWhen: several are permanent (what
 * flagdeck cannot store), and .ci/run fails on a marked block that every run skips.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RE2JS } from 're2js';
import semverValid from 'semver/functions/valid';
import { OPERATORS } from '../../../src/domain/features/constraint.shapes';
import { fixVariantWeights } from '../../../src/domain/features/variants';
import { compile, evaluateFeatureFast } from '../../../src/domain/playground/engine';
import { seededRandom } from '../../../src/domain/playground/hashing';
import { URL_FRIENDLY } from '../../../src/domain/validation';
import {
  engineInput, specificationFiles, SPEC_VERSION,
  type SpecCase, type SpecConstraint, type SpecFeature, type SpecFile, type SpecState, type SpecStrategy, type SpecVariant,
} from '../../support/client-specification';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';
import { ALL_SDK_MODES, clientAnswer, sdkState, startSdk, stateDifferences, type SdkHandle, type SdkMode } from '../../support/sdk-harness';

/** The operator the vectors use on purpose to show that an unknown operator evaluates false. */
const INVALID_OPERATOR_PROBE = 'NOT_A_VALID_OPERATOR';
const LIST_OPERATORS = new Set(['IN', 'NOT_IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS']);
const KNOWN_OPERATORS: ReadonlySet<string> = new Set(OPERATORS);

const ENVIRONMENT = 'development';
const PROJECT = 'default';
const P = `/api/admin/projects/${PROJECT}/features`;
const env = (feature: string) => `${P}/${encodeURIComponent(feature)}/environments/${ENVIRONMENT}`;

let app: TestApp;
let token = '';
const contextFields = new Set<string>();
const skipped: string[] = [];
const ran = new Map<SdkMode, number>();

const ok = async <T = any>(what: string, reply: Promise<Reply<T>>, ...statuses: number[]): Promise<T> => {
  const res = await reply;
  const wanted = statuses.length ? statuses : [200];
  if (!wanted.includes(res.status)) throw new Error(`${what}: expected ${wanted.join(' or ')}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

// ---- what flagdeck cannot store ------------------------------------------------------------------------------

/** Why flagdeck refuses `c` at save, or null. Only rules of the stored model, never how a case evaluates. */
function unstorableConstraint(c: SpecConstraint): string | null {
  if (c.operator === INVALID_OPERATOR_PROBE) return `the unknown-operator probe ${c.operator}: flagdeck refuses an operator outside its list at save`;
  if (!KNOWN_OPERATORS.has(c.operator)) {
    if (c.operator === 'IN_CIDR') return 'operator IN_CIDR (Unleash 8\'s CIDR operator) is not among flagdeck\'s operators and not part of issue 32';
    return `operator ${c.operator} is not among flagdeck's constraint operators`;
  }
  if (LIST_OPERATORS.has(c.operator) && (c.values ?? []).length === 0) return `an ${c.operator} constraint without values is refused at save (reference §3.4)`;
  if (c.operator.startsWith('SEMVER_') && (c.value === undefined || semverValid(c.value) !== c.value)) {
    return `${c.operator} value ${JSON.stringify(c.value)} is not a canonical semantic version: refused at save (reference §3.4)`;
  }
  if (c.operator === 'REGEX') {
    try {
      RE2JS.compile(c.value ?? '');
    } catch {
      return `REGEX pattern ${JSON.stringify(c.value)} does not compile in RE2: refused at save (issue 32 part 4)`;
    }
  }
  return null;
}

/** Why flagdeck cannot store flag `name` as the state has it (itself, a segment it uses or a parent), or null. */
function unstorable(state: SpecState, name: string, seen = new Set<string>()): string | null {
  const feature = state.features.find((f) => f.name === name);
  if (!feature || seen.has(name)) return null;
  seen.add(name);
  if (!URL_FRIENDLY.test(name)) return `flag name ${JSON.stringify(name)} is not URL-friendly: flagdeck refuses it, as Unleash 5.8 does`;
  const segments = new Map(state.segments.map((s) => [s.id, s]));
  for (const s of feature.strategies ?? []) {
    for (const c of s.constraints ?? []) {
      const reason = unstorableConstraint(c);
      if (reason) return reason;
    }
    for (const id of s.segments ?? []) {
      const segment = segments.get(id);
      if (!segment) return `segment ${id} does not exist: strategy segments are stored as references, so flagdeck cannot hold a dangling one (SDKs fail closed on it)`;
      for (const c of segment.constraints ?? []) {
        const reason = unstorableConstraint(c);
        if (reason) return `segment ${id}: ${reason}`;
      }
    }
  }
  for (const d of feature.dependencies ?? []) {
    const parent = state.features.find((f) => f.name === d.feature);
    if (!parent) return `parent ${d.feature} does not exist: flagdeck stores dependencies only on existing flags`;
    if ((parent.dependencies ?? []).length > 0) return `parent ${d.feature} depends on flags itself: dependencies are one level deep in flagdeck`;
    if (d.enabled === false && (d.variants ?? []).length > 0) return `the dependency on ${d.feature} requires variants of a parent that must be off: refused at save`;
    const reason = unstorable(state, d.feature, seen);
    if (reason) return `parent ${d.feature}: ${reason}`;
  }
  return null;
}

/**
 * A strategy's variants as they are sent to flagdeck. A variant without stickiness follows the strategy's stickiness
 * in SDKs (`variants[0].stickiness || parameters.stickiness`), but flagdeck stores an absent stickiness as `default`
 * (reference §3.5), so it is sent as the strategy's: what the UI does, and what SDKs then evaluate alike. A flag
 * variant without stickiness is `default` to SDKs already.
 */
function strategyVariants(s: SpecStrategy): SpecVariant[] {
  return (s.variants ?? []).map((v) => (v.stickiness ? v : { ...v, stickiness: s.parameters?.stickiness ?? 'default' }));
}

/**
 * The state as flagdeck stores what `store` sends: every variant list with its weights resolved to a total of 1000
 * and in name order (reference §3.5). The vectors' weights often total 1, 2 or 100, which the admin API cannot hold.
 */
function asStored(state: SpecState): SpecState {
  const resolve = (variants: SpecVariant[] | undefined) => (variants?.length
    ? fixVariantWeights(variants.map((v) => ({ ...v, weightType: v.weightType === 'fix' ? 'fix' : 'variable' })) as never[], 'variants')
      .map((v: SpecVariant) => ({ ...v }))
    : variants);
  return {
    segments: state.segments,
    features: state.features.map((f) => ({ ...f, variants: resolve(f.variants), strategies: f.strategies?.map((s) => ({ ...s, variants: resolve(strategyVariants(s)) })) })),
  };
}

const variantSummary = (variants: SpecVariant[] | undefined) => (variants ?? []).map((v) => `${v.name}:${v.weight}`).join(' ');

/**
 * Why a case's answer cannot be had from flagdeck although its flag is stored: the variant weights flagdeck stores
 * (see asStored) lead the engine, which the unit test holds to the specification, to another answer. Null
 * when the stored weights give the specification's answer.
 */
function weightsChangeAnswer(file: SpecFile, tc: SpecCase, variantCase: boolean, snapshots: { original: Snapshot; stored: Snapshot }): string | null {
  const feature = file.state.features.find((f) => f.name === tc.toggleName);
  if (!feature) return null;
  const original = engineAnswer(snapshots.original, tc, variantCase, 1);
  const stored = [1, 2, 3].map((seed) => JSON.stringify(engineAnswer(snapshots.stored, tc, variantCase, seed)));
  if (new Set(stored).size > 1) return `as stored, the answer depends on random stickiness (${[...new Set(stored)].join(' or ')})`;
  if (stored[0] === JSON.stringify(original)) return null;
  const lists = [feature.variants, ...(feature.strategies ?? []).map((s) => s.variants)].filter((v) => v?.length);
  const storedFeature = asStored(file.state).features.find((f) => f.name === tc.toggleName)!;
  const storedLists = [storedFeature.variants, ...(storedFeature.strategies ?? []).map((s) => s.variants)].filter((v) => v?.length);
  return `variant weights ${lists.map(variantSummary).join(' / ')} are stored as ${storedLists.map(variantSummary).join(' / ')} `
    + `(a total of 1000, in name order: reference §3.5), which answers ${stored[0]} instead of ${JSON.stringify(original)}`;
}

type Snapshot = ReturnType<typeof compile>;
const snapshotOf = (state: SpecState): Snapshot => {
  const input = engineInput(state);
  return compile(input.features, input.segments);
};

function engineAnswer(snapshot: Snapshot, tc: SpecCase, variantCase: boolean, seed: number): unknown {
  const result = evaluateFeatureFast(snapshot, tc.toggleName, tc.context, { random: seededRandom(seed) });
  return variantCase ? { name: result?.variant?.name ?? 'disabled', enabled: result?.isEnabled ?? false } : result?.isEnabled ?? false;
}

// ---- storing a state through the admin API ------------------------------------------------------------------

const BUILT_IN_STICKINESS = new Set(['default', 'random']);

/** The context fields the stored flags and segments name (constraints, overrides, custom stickiness). */
function contextNames(features: SpecFeature[], segments: SpecState['segments']): Set<string> {
  const names = new Set<string>();
  const variants = (list: SpecVariant[] | undefined) => {
    for (const v of list ?? []) {
      if (v.stickiness && !BUILT_IN_STICKINESS.has(v.stickiness)) names.add(v.stickiness);
      for (const o of v.overrides ?? []) names.add(o.contextName);
    }
  };
  for (const f of features) {
    variants(f.variants);
    for (const s of f.strategies ?? []) {
      for (const c of s.constraints ?? []) names.add(c.contextName);
      const stickiness = s.parameters?.stickiness;
      if (stickiness && !BUILT_IN_STICKINESS.has(stickiness)) names.add(stickiness);
      variants(s.variants);
    }
  }
  for (const s of segments) for (const c of s.constraints ?? []) names.add(c.contextName);
  return names;
}

interface Stored { features: string[]; segmentIds: number[] }

/** Stores the storable part of `state` in the default project and the token's environment. */
async function store(state: SpecState, storable: Set<string>): Promise<Stored> {
  const features = state.features.filter((f) => storable.has(f.name));
  const used = new Set(features.flatMap((f) => (f.strategies ?? []).flatMap((s) => s.segments ?? [])));
  const segments = state.segments.filter((s) => used.has(s.id));
  for (const name of contextNames(features, segments)) {
    if (contextFields.has(name)) continue;
    await ok(`context field ${name}`, app.post('/api/admin/context', { name }), 201);
    contextFields.add(name);
  }
  const segmentIds = new Map<number, number>();
  for (const s of segments) {
    const created = await ok(`segment ${s.id}`, app.post('/api/admin/segments', { name: s.name ?? `spec-segment-${s.id}`, constraints: s.constraints ?? [] }), 201);
    segmentIds.set(s.id, created.id);
  }
  for (const f of features) {
    await ok(`flag ${f.name}`, app.post(P, { name: f.name }), 201);
    for (const [i, s] of (f.strategies ?? []).entries()) {
      await ok(`strategy ${i} of ${f.name}`, app.post(`${env(f.name)}/strategies`, {
        name: s.name, parameters: s.parameters ?? {}, constraints: s.constraints ?? [], variants: strategyVariants(s), sortOrder: i,
        segments: (s.segments ?? []).map((id) => segmentIds.get(id)),
      }));
    }
    if (f.variants?.length) await ok(`variants of ${f.name}`, app.put(`${env(f.name)}/variants`, f.variants));
  }
  for (const f of features) {
    for (const d of f.dependencies ?? []) await ok(`dependency of ${f.name} on ${d.feature}`, app.post(`${P}/${encodeURIComponent(f.name)}/dependencies`, d));
  }
  // A flag switched on with no strategy gets the default strategy (flexibleRollout 100%), as in Unleash: SDKs treat
  // it as they treat a flag with none.
  for (const f of features) if (f.enabled) await ok(`switching ${f.name} on`, app.post(`${env(f.name)}/on`));
  return { features: features.map((f) => f.name), segmentIds: [...segmentIds.values()] };
}

/** Removes what `store` made (flags archived, then deleted; segments deleted): names repeat across files. */
async function unstore(stored: Stored): Promise<void> {
  if (stored.features.length) {
    await ok('archiving the flags', app.post(`/api/admin/projects/${PROJECT}/archive`, { features: stored.features }), 202);
    await ok('deleting the flags', app.post(`/api/admin/projects/${PROJECT}/delete`, { features: stored.features }));
  }
  for (const id of stored.segmentIds) await ok(`deleting segment ${id}`, app.del(`/api/admin/segments/${id}`), 200, 204);
}

// ---- the cases ---------------------------------------------------------------------------------------------------

/** What getVariant answered, in the keys the case expects (`feature_enabled` only when the case names it). */
function variantAnswer(sdk: SdkHandle['sdk'], tc: SpecCase): Record<string, unknown> {
  const expected = tc.expectedResult as Record<string, unknown>;
  const got = sdk.getVariant(tc.toggleName, tc.context as never) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { name: got.name, enabled: got.enabled };
  if (got.payload !== undefined || expected.payload !== undefined) out.payload = got.payload;
  if ('feature_enabled' in expected) out.feature_enabled = got.feature_enabled;
  return out;
}

beforeAll(async () => {
  app = await startTestApp();
  for (const f of await ok<Array<{ name: string }>>('context fields', app.get('/api/admin/context'))) contextFields.add(f.name);
  token = (await ok('client token', app.post('/api/admin/api-tokens', { tokenName: 'sdk-spec', type: 'client', environment: ENVIRONMENT, projects: [PROJECT] }), 201)).secret;
});
afterAll(async () => {
  await app.close();
  const lines = skipped.map((s) => `  - ${s}`);
  if (lines.length === 0) lines.push('  (none)');
  const counts = ALL_SDK_MODES.map((m) => `${m} ${ran.get(m) ?? 0}`).join(', ');
  console.log(`client specification ${SPEC_VERSION} through the Node SDK: cases run per mode: ${counts}; ${skipped.length} skipped\n${lines.join('\n')}`);
});

describe(`@unleash/client-specification ${SPEC_VERSION} through the official Node SDK`, () => {
  const files = specificationFiles();

  it('reads every file the specification lists', () => {
    expect(files.length).toBeGreaterThanOrEqual(22);
  });

  for (const file of files) {
    const names = new Set([...file.tests, ...file.variantTests].map((tc) => tc.toggleName));
    const reasons = new Map<string, string | null>([...names].map((n) => [n, unstorable(file.state, n)]));
    const storable = new Set(file.state.features.map((f) => f.name).filter((n) => unstorable(file.state, n) === null));
    const snapshots = { original: snapshotOf(file.state), stored: snapshotOf(asStored(file.state)) };
    const cases = [
      ...file.tests.map((tc) => ({ tc, variantCase: false })),
      ...file.variantTests.map((tc) => ({ tc, variantCase: true })),
    ].map(({ tc, variantCase }) => {
      const title = variantCase ? `variant: ${tc.description}` : tc.description;
      const reason = reasons.get(tc.toggleName) ?? weightsChangeAnswer(file, tc, variantCase, snapshots);
      return { tc, variantCase, title, reason };
    });
    for (const c of cases) if (c.reason) skipped.push(`${file.fileName} / ${c.title}: ${c.reason}`);
    const runnable = cases.filter((c) => !c.reason);

    describe(file.fileName, () => {
      let stored: Stored | undefined;
      beforeAll(async () => {
        if (runnable.length > 0) stored = await store(file.state, storable);
      }, 30_000);
      afterAll(async () => {
        if (stored) await unstore(stored);
      }, 30_000);

      for (const mode of ALL_SDK_MODES) {
        describe(`${mode} mode`, () => {
          let handle: SdkHandle | undefined;
          beforeAll(async () => {
            if (runnable.length > 0) handle = await startSdk(app, token, mode, { appName: `spec-${mode}` });
          });
          afterAll(() => handle?.destroy());

          if (runnable.length > 0) {
            it('the SDK holds exactly what the client API answers', async () => {
              expect(stateDifferences(await clientAnswer(app, token), await sdkState(handle!))).toEqual([]);
            });
          }
          for (const c of cases) {
            const why = c.reason;
            if (why) {
              it.skip(`${c.title} (skipped: ${why})`, () => undefined);
              continue;
            }
            it(c.title, () => {
              ran.set(mode, (ran.get(mode) ?? 0) + 1);
              const sdk = handle!.sdk;
              const got = c.variantCase ? variantAnswer(sdk, c.tc) : sdk.isEnabled(c.tc.toggleName, c.tc.context as never);
              // The case, its context and the mode in the failure message, so a report names what failed.
              expect({ mode, file: file.fileName, toggle: c.tc.toggleName, context: c.tc.context, answer: got })
                .toEqual({ mode, file: file.fileName, toggle: c.tc.toggleName, context: c.tc.context, answer: c.tc.expectedResult });
            });
          }
          if (runnable.length > 0) {
            it('the SDK reported no error or warning and kept its mode', () => {
              expect({ errors: handle!.errors, warnings: handle!.warnings, modeChanges: handle!.modeChanges }).toEqual({ errors: [], warnings: [], modeChanges: [] });
            });
          }
        });
      }
    });
  }
});
