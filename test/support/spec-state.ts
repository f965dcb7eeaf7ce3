/**
 * Storing a client specification file's `state` in flagdeck through the admin API, for the tests that ask flagdeck's
 * doors what the specification expects: the Node SDK's (test/e2e/rest/sdk-specification.test.ts) and OFREP's
 * (test/e2e/ofrep-sdk/client-specification.test.ts). What flagdeck cannot store is left out with the reason
 * (`unstorable`), strategy variants get their strategy's stickiness, context fields are created first, and `unstore`
 * removes everything again (flag names repeat across files).
 */
import { RE2JS } from 're2js';
import semverValid from 'semver/functions/valid';
import { OPERATORS } from '../../src/domain/features/constraint.shapes';
import { fixVariantWeights } from '../../src/domain/features/variants';
import { compile, evaluateFeatureFast } from '../../src/domain/playground/engine';
import { seededRandom } from '../../src/domain/playground/hashing';
import { URL_FRIENDLY } from '../../src/domain/validation';
import { engineInput, type SpecCase, type SpecConstraint, type SpecFeature, type SpecState, type SpecStrategy, type SpecVariant } from './client-specification';
import type { Reply, TestApp } from './harness';

/** The operator the vectors use on purpose to show that an unknown operator evaluates false. */
const INVALID_OPERATOR_PROBE = 'NOT_A_VALID_OPERATOR';
const LIST_OPERATORS = new Set(['IN', 'NOT_IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS']);
const KNOWN_OPERATORS: ReadonlySet<string> = new Set(OPERATORS);

export const ENVIRONMENT = 'development';
export const PROJECT = 'default';
const P = `/api/admin/projects/${PROJECT}/features`;
const env = (feature: string) => `${P}/${encodeURIComponent(feature)}/environments/${ENVIRONMENT}`;

export const ok = async <T = any>(what: string, reply: Promise<Reply<T>>, ...statuses: number[]): Promise<T> => {
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
export function unstorable(state: SpecState, name: string, seen = new Set<string>()): string | null {
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
export function asStored(state: SpecState): SpecState {
  const resolve = (variants: SpecVariant[] | undefined) => (variants?.length
    ? fixVariantWeights(variants.map((v) => ({ ...v, weightType: v.weightType === 'fix' ? 'fix' : 'variable' })) as never[], 'variants')
      .map((v: SpecVariant) => ({ ...v }))
    : variants);
  return {
    segments: state.segments,
    features: state.features.map((f) => ({ ...f, variants: resolve(f.variants), strategies: f.strategies?.map((s) => ({ ...s, variants: resolve(strategyVariants(s)) })) })),
  };
}

/** A function telling whether a case of `state`, as stored, answers differently with different random draws. */
export function randomnessOf(state: SpecState): (tc: SpecCase) => boolean {
  const input = engineInput(asStored(state));
  const snapshot = compile(input.features, input.segments);
  return (tc) => {
    const answers = [1, 2, 3, 4, 5].map((seed) => {
      const r = evaluateFeatureFast(snapshot, tc.toggleName, tc.context, { random: seededRandom(seed) });
      return JSON.stringify([r?.isEnabled ?? false, r?.variant?.name ?? 'disabled']);
    });
    return new Set(answers).size > 1;
  };
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

export interface Stored { features: string[]; segmentIds: number[] }

/** Stores the storable part of `state` in the default project's development environment; `contextFields` holds the fields that exist (and gets those made). */
export async function store(app: TestApp, state: SpecState, storable: Set<string>, contextFields: Set<string>): Promise<Stored> {
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
export async function unstore(app: TestApp, stored: Stored): Promise<void> {
  if (stored.features.length) {
    await ok('archiving the flags', app.post(`/api/admin/projects/${PROJECT}/archive`, { features: stored.features }), 202);
    await ok('deleting the flags', app.post(`/api/admin/projects/${PROJECT}/delete`, { features: stored.features }));
  }
  for (const id of stored.segmentIds) await ok(`deleting segment ${id}`, app.del(`/api/admin/segments/${id}`), 200, 204);
}
