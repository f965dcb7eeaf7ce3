/**
 * Evaluation of a compiled snapshot against one client context (reference §3): the detailed playground result
 * (`evaluate`) and a fast path that only decides `isEnabled` and `variant` (`evaluateFast`, `evaluateFeatureFast`).
 * Both share the constraint, strategy and variant code below. The context is resolved once per call into slot
 * values. Per feature the fast path allocates nothing but the hash key string: it returns decisions and variants the
 * snapshot built once. The detailed path allocates only the objects that carry context-dependent results.
 */
import type SemVer from 'semver/classes/semver';
import type { FeatureVariant, StrategyVariant } from '../features/variants';
import * as compiled from './compile';
import type {
  CompiledConstraint, CompiledFeature, CompiledSegment, CompiledSnapshot, CompiledStrategy, CompiledVariants,
} from './compile';
import * as hashing from './hashing';
import * as ipv4 from './ipv4';
import type {
  EvaluationOptions, FeatureDecision, PlaygroundConstraintResult, PlaygroundContext, PlaygroundFeatureEvaluation,
  PlaygroundSegmentResult, PlaygroundStrategyEvaluation, PlaygroundStrategyResult, PlaygroundVariant,
} from './types';

// Imported bindings copied into module constants once: some transpilers (esbuild, used by tsx) turn every access to
// an imported binding into a getter call, which is measurable in these loops.
const {
  DISABLED_VARIANT, K_DEFAULT, K_FLEXIBLE_ROLLOUT, K_GRADUAL_RANDOM, K_GRADUAL_SESSION_ID, K_GRADUAL_USER_ID, K_REMOTE_ADDRESS,
  K_UNKNOWN, K_USER_WITH_ID, OP_DATE_AFTER, OP_DATE_BEFORE, OP_IN, OP_NOT_IN, OP_NUM_EQ, OP_NUM_GT, OP_NUM_GTE, OP_NUM_LT,
  OP_NUM_LTE, OP_REGEX, OP_SEMVER_EQ, OP_SEMVER_GT, OP_SEMVER_GTE, OP_SEMVER_LT, OP_SEMVER_LTE, OP_STR_CONTAINS,
  OP_STR_ENDS_WITH, OP_STR_STARTS_WITH, OP_UNKNOWN, STICKY_DEFAULT, STICKY_RANDOM, parseSemver,
} = compiled;
const { STRATEGY_SEED, bucket } = hashing;
const { matchesAddress, parseIpv4 } = ipv4;

const UNEVALUATED: PlaygroundStrategyResult = Object.freeze({ enabled: 'unknown', evaluationStatus: 'unevaluated' });
const INCOMPLETE_UNKNOWN: PlaygroundStrategyResult = Object.freeze({ enabled: 'unknown', evaluationStatus: 'incomplete' });
const INCOMPLETE_FALSE: PlaygroundStrategyResult = Object.freeze({ enabled: false, evaluationStatus: 'incomplete' });
const COMPLETE_TRUE: PlaygroundStrategyResult = Object.freeze({ enabled: true, evaluationStatus: 'complete' });
const COMPLETE_FALSE: PlaygroundStrategyResult = Object.freeze({ enabled: false, evaluationStatus: 'complete' });
const NO_VARIANTS: PlaygroundFeatureEvaluation['variants'] = Object.freeze([]) as never;

/** A context value as constraints see it: a truthy string (numbers and booleans as text), else undefined. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if ((typeof value === 'number' && value !== 0 && !Number.isNaN(value)) || value === true) return String(value);
  return undefined;
}

const NOT_PARSED = -2;
const NOT_COMPUTED = undefined;

/** One context, resolved against a snapshot's field slots. Lower-cased and semver forms are computed on first use. */
class ResolvedContext {
  readonly values: Array<string | undefined>;
  private lowered: Array<string | undefined> | null = null;
  private semvers: Array<SemVer | null | undefined> | null = null;
  readonly userId: string | undefined;
  readonly sessionId: string | undefined;
  readonly remoteAddress: string | undefined;
  private remoteInt = NOT_PARSED;
  readonly now: number;
  readonly random: () => number;
  private readonly context: PlaygroundContext;

  constructor(snapshot: CompiledSnapshot, context: PlaygroundContext, options: EvaluationOptions | undefined) {
    this.context = context;
    const properties = context.properties !== null && typeof context.properties === 'object' ? context.properties : undefined;
    const names = snapshot.fieldNames;
    const values = new Array<string | undefined>(names.length);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      let value: string | undefined;
      if (name === 'environment' && (!Object.hasOwn(context, 'environment') || context.environment === undefined)) {
        // The static context's environment (reference §3.1): the request's own, else "default".
        value = 'default';
      } else {
        // Own properties only: a field named `toString` or `__proto__` has a value only when the context gives one.
        value = Object.hasOwn(context, name) ? textOf(context[name]) : undefined;
        if (value === undefined && properties !== undefined && Object.hasOwn(properties, name)) value = textOf(properties[name]);
      }
      values[i] = value;
    }
    this.values = values;
    this.userId = textOf(context.userId);
    this.sessionId = textOf(context.sessionId);
    this.remoteAddress = textOf(context.remoteAddress);
    const time = context.currentTime;
    this.now = time ? (time instanceof Date ? time.getTime() : new Date(String(time)).getTime()) : (options?.now ?? Date.now)();
    this.random = options?.random ?? Math.random;
  }

  lower(slot: number): string | undefined {
    if (this.lowered === null) this.lowered = new Array(this.values.length);
    let v = this.lowered[slot];
    if (v === NOT_COMPUTED) {
      v = this.values[slot]?.toLowerCase();
      this.lowered[slot] = v;
    }
    return v;
  }

  semver(slot: number): SemVer | null {
    if (this.semvers === null) this.semvers = new Array(this.values.length);
    let v = this.semvers[slot];
    if (v === NOT_COMPUTED) {
      v = parseSemver(this.values[slot]);
      this.semvers[slot] = v;
    }
    return v;
  }

  remoteAsInt(): number {
    if (this.remoteInt === NOT_PARSED) this.remoteInt = this.remoteAddress === undefined ? -1 : parseIpv4(this.remoteAddress);
    return this.remoteInt;
  }

  /** The group id fallback of flexibleRollout without a groupId parameter. */
  featureToggle(): string {
    return (Object.hasOwn(this.context, 'featureToggle') ? textOf(this.context.featureToggle) : undefined) ?? '';
  }
}

// ---- constraints ----------------------------------------------------------------------------------------------

function operatorResult(c: CompiledConstraint, ctx: ResolvedContext): boolean {
  switch (c.op) {
    case OP_IN:
    case OP_NOT_IN: {
      const v = c.caseInsensitive ? ctx.lower(c.slot) : ctx.values[c.slot];
      const found = v !== undefined && c.set.has(v);
      return c.op === OP_IN ? found : !found;
    }
    case OP_STR_STARTS_WITH:
    case OP_STR_ENDS_WITH:
    case OP_STR_CONTAINS: {
      const v = c.caseInsensitive ? ctx.lower(c.slot) : ctx.values[c.slot];
      if (v === undefined) return false;
      const list = c.list;
      for (let i = 0; i < list.length; i++) {
        if (c.op === OP_STR_STARTS_WITH ? v.startsWith(list[i]) : c.op === OP_STR_ENDS_WITH ? v.endsWith(list[i]) : v.includes(list[i])) return true;
      }
      return false;
    }
    case OP_NUM_EQ:
    case OP_NUM_GT:
    case OP_NUM_GTE:
    case OP_NUM_LT:
    case OP_NUM_LTE: {
      const v = Number(ctx.values[c.slot]);
      if (Number.isNaN(v) || Number.isNaN(c.num)) return false;
      switch (c.op) {
        case OP_NUM_EQ: return v === c.num;
        case OP_NUM_GT: return v > c.num;
        case OP_NUM_GTE: return v >= c.num;
        case OP_NUM_LT: return v < c.num;
        default: return v <= c.num;
      }
    }
    // The date operators compare the evaluation time, whatever the constraint's contextName (reference §3.4).
    case OP_DATE_AFTER: return ctx.now > c.num;
    case OP_DATE_BEFORE: return ctx.now < c.num;
    case OP_SEMVER_EQ:
    case OP_SEMVER_GT:
    case OP_SEMVER_LT:
    case OP_SEMVER_GTE:
    case OP_SEMVER_LTE: {
      if (c.semver === null) return false;
      const v = ctx.semver(c.slot);
      if (v === null) return false;
      const order = v.compare(c.semver);
      switch (c.op) {
        case OP_SEMVER_EQ: return order === 0;
        case OP_SEMVER_GT: return order > 0;
        case OP_SEMVER_LT: return order < 0;
        case OP_SEMVER_GTE: return order >= 0;
        default: return order <= 0;
      }
    }
    // An unanchored search, as SDKs' `matcher(value).find()`; a missing value or a pattern RE2 refused is false.
    case OP_REGEX: {
      const v = ctx.values[c.slot];
      return c.regex !== null && v !== undefined && c.regex.test(v);
    }
    default:
      return false;
  }
}

/** One constraint: the operator, negated when inverted; an unknown operator is false either way. */
export function constraintPasses(c: CompiledConstraint, ctx: ResolvedContext): boolean {
  if (c.op === OP_UNKNOWN) return false;
  const result = operatorResult(c, ctx);
  return c.inverted ? !result : result;
}

function allPass(constraints: CompiledConstraint[], ctx: ResolvedContext): boolean {
  for (let i = 0; i < constraints.length; i++) if (!constraintPasses(constraints[i], ctx)) return false;
  return true;
}

function segmentsPass(segments: CompiledSegment[], ctx: ResolvedContext): boolean {
  for (let i = 0; i < segments.length; i++) if (!allPass(segments[i].constraints, ctx)) return false;
  return true;
}

// ---- strategies ---------------------------------------------------------------------------------------------

/** flexibleRollout's random stickiness: a string "1".."101" (reference §3.3). */
function randomRolloutId(ctx: ResolvedContext): string {
  return String(Math.round(ctx.random() * 100) + 1);
}

function rolloutHit(prefix: string, id: string, percentage: number): boolean {
  if (!(percentage > 0)) return false;
  if (percentage >= 100) return true;
  return bucket(prefix, id, 100, STRATEGY_SEED) <= percentage;
}

/** The strategy's own condition, for the known kinds (constraints and segments are checked separately). */
function strategyCondition(s: CompiledStrategy, ctx: ResolvedContext): boolean {
  switch (s.kind) {
    case K_DEFAULT:
      return true;
    case K_FLEXIBLE_ROLLOUT: {
      const id = s.stickiness === STICKY_DEFAULT ? ctx.userId || ctx.sessionId || randomRolloutId(ctx)
        : s.stickiness === STICKY_RANDOM ? randomRolloutId(ctx)
          : ctx.values[s.stickinessSlot];
      if (id === undefined) return false;
      return rolloutHit(s.groupPrefix ?? `${ctx.featureToggle()}:`, id, s.percentage);
    }
    case K_USER_WITH_ID:
      return ctx.userId !== undefined && s.userIds!.has(ctx.userId);
    case K_GRADUAL_USER_ID:
      return ctx.userId !== undefined && rolloutHit(s.groupPrefix!, ctx.userId, s.percentage);
    case K_GRADUAL_SESSION_ID:
      return ctx.sessionId !== undefined && rolloutHit(s.groupPrefix!, ctx.sessionId, s.percentage);
    case K_GRADUAL_RANDOM:
      return s.percentage >= Math.floor(ctx.random() * 100) + 1;
    case K_REMOTE_ADDRESS: {
      const rules = s.addressRules;
      const remote = ctx.remoteAddress;
      if (rules === null || remote === undefined) return false;
      const remoteInt = ctx.remoteAsInt();
      for (let i = 0; i < rules.length; i++) if (matchesAddress(rules[i], remote, remoteInt)) return true;
      return false;
    }
    default:
      return false;
  }
}

// ---- variants -----------------------------------------------------------------------------------------------

/** Index of the variant chosen (reference §3.5), or -1 when none can be (total weight ≤ 0). */
function selectVariantIndex(v: CompiledVariants, ctx: ResolvedContext): number {
  if (!(v.totalWeight > 0)) return -1;
  const overrides = v.overrides;
  for (let i = 0; i < overrides.length; i++) {
    const value = ctx.values[overrides[i].slot];
    if (value !== undefined && overrides[i].values.has(value)) return overrides[i].index;
  }
  let seed: string | undefined;
  if (v.stickiness === STICKY_DEFAULT) seed = ctx.userId || ctx.sessionId || ctx.remoteAddress;
  else seed = ctx.values[v.stickinessSlot];
  if (seed === undefined) seed = String(Math.round(ctx.random() * 100000));
  const target = bucket(v.prefix, seed, v.totalWeight, v.seed);
  const weights = v.weights;
  let counter = 0;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] <= 0) continue;
    counter += weights[i];
    if (counter >= target) return i;
  }
  return -1;
}

// ---- dependencies -------------------------------------------------------------------------------------------

/** Reference §3.6, given the parents' decisions in this evaluation (parents never have dependencies themselves). */
function dependenciesSatisfied(f: CompiledFeature, parentDecision: (index: number) => FeatureDecision): boolean {
  const deps = f.dependencies;
  for (let i = 0; i < deps.length; i++) {
    const d = deps[i];
    if (d.parent < 0) return false;
    const parent = parentDecision(d.parent);
    if (d.enabled) {
      if (!d.parentEnabled) return false;
      if (d.variants !== null ? !d.variants.has(parent.variant.name) : !parent.isEnabled) return false;
    } else if (d.parentEnabled || parent.isEnabled) {
      return false;
    }
  }
  return true;
}

// ---- fast path ----------------------------------------------------------------------------------------------

function decide(f: CompiledFeature, ctx: ResolvedContext, parentDecision: (index: number) => FeatureDecision): FeatureDecision {
  if (!f.enabled) return f.off;
  if (f.dependencies.length > 0 && !dependenciesSatisfied(f, parentDecision)) return f.off;
  if (f.strategies.length > 0) {
    const active = f.active;
    let winner: CompiledStrategy | null = null;
    for (let i = 0; i < active.length; i++) {
      const s = active[i];
      if (allPass(s.constraints, ctx) && segmentsPass(s.segments, ctx) && strategyCondition(s, ctx)) {
        winner = s;
        break;
      }
    }
    if (winner === null) return f.off;
    if (winner.variants !== null) {
      const index = selectVariantIndex(winner.variants, ctx);
      if (index >= 0) return winner.variants.decisions[index];
    }
  }
  if (f.variants !== null) {
    const index = selectVariantIndex(f.variants, ctx);
    if (index >= 0) return f.variants.decisions[index];
  }
  return f.onWithoutVariant;
}

/** `isEnabled` and `variant` of every feature of the snapshot, in snapshot order. */
export function evaluateFast(snapshot: CompiledSnapshot, context: PlaygroundContext, options?: EvaluationOptions): FeatureDecision[] {
  const ctx = new ResolvedContext(snapshot, context, options);
  const features = snapshot.features;
  const out = new Array<FeatureDecision>(features.length);
  if (!snapshot.hasDependencies) {
    for (let i = 0; i < features.length; i++) out[i] = decide(features[i], ctx, noParent);
    return out;
  }
  // Parents never have dependencies themselves, so deciding those first gives every child its parents' decisions.
  for (let i = 0; i < features.length; i++) if (features[i].dependencies.length === 0) out[i] = decide(features[i], ctx, noParent);
  const parentDecision = (index: number) => out[index];
  for (let i = 0; i < features.length; i++) if (features[i].dependencies.length > 0) out[i] = decide(features[i], ctx, parentDecision);
  return out;
}

/** The fast path for one feature by name; undefined when the snapshot has no such feature. */
export function evaluateFeatureFast(snapshot: CompiledSnapshot, featureName: string, context: PlaygroundContext,
  options?: EvaluationOptions): FeatureDecision | undefined {
  const feature = snapshot.byName.get(featureName);
  if (feature === undefined) return undefined;
  const ctx = new ResolvedContext(snapshot, context, options);
  return decide(feature, ctx, (index) => decide(snapshot.features[index], ctx, noParent));
}

function noParent(): FeatureDecision {
  throw new Error('a feature without dependencies has no parent to decide');
}

// ---- detailed result ----------------------------------------------------------------------------------------

/** Fills `out` with each constraint's result (all are evaluated, so all are listed); true when all pass. */
function listConstraints(list: CompiledConstraint[], ctx: ResolvedContext, out: PlaygroundConstraintResult[]): boolean {
  let ok = true;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    const pass = constraintPasses(c, ctx);
    out[i] = pass ? (c.outTrue ?? constraintOutput(c, true)) : (c.outFalse ?? constraintOutput(c, false));
    if (!pass) ok = false;
  }
  return ok;
}

/** `{...constraint, result}` with `values`, `inverted` and `caseInsensitive` defaulted, built once per result value. */
function constraintOutput(c: CompiledConstraint, result: boolean): PlaygroundConstraintResult {
  const src = c.source;
  const out: PlaygroundConstraintResult = Object.freeze({
    ...src,
    values: Object.freeze([...(src.values ?? [])]) as string[],
    caseInsensitive: src.caseInsensitive ?? false,
    inverted: src.inverted ?? false,
    result,
  });
  if (result) c.outTrue = out;
  else c.outFalse = out;
  return out;
}

function parametersOf(s: CompiledStrategy): Record<string, string> {
  return s.parameters ??= Object.freeze({ ...s.parametersSource });
}

function variantList(v: CompiledVariants): ReadonlyArray<FeatureVariant | StrategyVariant> {
  return v.list ??= Object.freeze(v.source.map((variant) => Object.freeze({
    ...variant,
    ...(variant.payload ? { payload: Object.freeze({ ...variant.payload }) } : {}),
  })));
}

function linksFor(s: CompiledStrategy, environment: string): { edit: string } {
  if (s.links === null || s.linksEnvironment !== environment) {
    s.links = Object.freeze({
      edit: `/projects/${s.project}/features/${s.featureName}/strategies/edit?environmentId=${environment}&strategyId=${s.id}`,
    });
    s.linksEnvironment = environment;
  }
  return s.links;
}

function strategyEvaluation(s: CompiledStrategy, ctx: ResolvedContext, environment: string): PlaygroundStrategyEvaluation {
  const constraints = new Array<PlaygroundConstraintResult>(s.constraints.length);
  let ok = listConstraints(s.constraints, ctx, constraints);
  const segments = new Array<PlaygroundSegmentResult>(s.segments.length);
  for (let i = 0; i < s.segments.length; i++) {
    const segment = s.segments[i];
    const segmentConstraints = new Array<PlaygroundConstraintResult>(segment.constraints.length);
    const pass = listConstraints(segment.constraints, ctx, segmentConstraints);
    segments[i] = { id: segment.id, name: segment.name, result: pass, constraints: segmentConstraints };
    if (!pass) ok = false;
  }
  let result: PlaygroundStrategyResult;
  if (s.disabled) {
    result = UNEVALUATED;
  } else if (s.kind === K_UNKNOWN) {
    result = ok ? INCOMPLETE_UNKNOWN : INCOMPLETE_FALSE;
  } else if (!ok || !strategyCondition(s, ctx)) {
    result = COMPLETE_FALSE;
  } else if (s.variants !== null) {
    const index = selectVariantIndex(s.variants, ctx);
    result = index < 0 ? COMPLETE_TRUE : {
      enabled: true,
      evaluationStatus: 'complete',
      variant: s.variants.results[index],
      variants: variantList(s.variants) as StrategyVariant[],
    };
  } else {
    result = COMPLETE_TRUE;
  }
  const links = linksFor(s, environment);
  const parameters = parametersOf(s);
  return s.title !== null
    ? { name: s.name, id: s.id, title: s.title, disabled: s.disabled, parameters, result, constraints, segments, links }
    : { name: s.name, id: s.id, disabled: s.disabled, parameters, result, constraints, segments, links };
}

function featureEvaluation(f: CompiledFeature, ctx: ResolvedContext, environment: string,
  parentDecision: (index: number) => FeatureDecision): PlaygroundFeatureEvaluation {
  const n = f.strategies.length;
  const data = new Array<PlaygroundStrategyEvaluation>(n);
  let result: boolean | 'unknown';
  let strategyVariant: PlaygroundVariant | undefined;
  let strategyVariants: PlaygroundFeatureEvaluation['variants'] | undefined;
  if (n === 0) {
    result = f.enabled;
  } else {
    let enabled = false;
    let unknown = false;
    for (let i = 0; i < n; i++) {
      const evaluation = strategyEvaluation(f.strategies[i], ctx, environment);
      data[i] = evaluation;
      const r = evaluation.result;
      if (r.enabled === true) {
        if (!enabled && r.evaluationStatus === 'complete') {
          // The first enabling strategy in sort order supplies the strategy variant.
          enabled = true;
          strategyVariant = r.variant;
          strategyVariants = r.variants;
        }
      } else if (r.enabled === 'unknown') {
        unknown = true;
      }
    }
    result = enabled ? true : unknown ? 'unknown' : false;
  }
  const hasUnsatisfiedDependency = f.dependencies.length > 0 && !dependenciesSatisfied(f, parentDecision);
  const isEnabled = result === true && f.enabled && !hasUnsatisfiedDependency;
  let variant = DISABLED_VARIANT;
  if (isEnabled) {
    if (strategyVariant !== undefined) {
      variant = strategyVariant;
    } else if (f.variants !== null) {
      const index = selectVariantIndex(f.variants, ctx);
      if (index >= 0) variant = f.variants.results[index];
    }
  }
  return {
    name: f.name,
    projectId: f.project,
    strategies: { result, data },
    hasUnsatisfiedDependency,
    isEnabledInCurrentEnvironment: f.enabled,
    isEnabled,
    variant,
    variants: strategyVariant !== undefined && strategyVariants !== undefined ? strategyVariants
      : f.variants !== null ? variantList(f.variants) as PlaygroundFeatureEvaluation['variants'] : NO_VARIANTS,
  };
}

/**
 * The spec's Playground evaluation result for every feature of the snapshot, in snapshot order.
 * `environment` only builds the strategies' `links.edit`: constraints on `environment` see the context's own field.
 * Parts of the result that do not depend on the context are shared with the snapshot and frozen: treat it as read-only.
 */
export function evaluate(snapshot: CompiledSnapshot, context: PlaygroundContext, environment: string,
  options?: EvaluationOptions): PlaygroundFeatureEvaluation[] {
  const ctx = new ResolvedContext(snapshot, context, options);
  const features = snapshot.features;
  const out = new Array<PlaygroundFeatureEvaluation>(features.length);
  if (!snapshot.hasDependencies) {
    for (let i = 0; i < features.length; i++) out[i] = featureEvaluation(features[i], ctx, environment, noParent);
    return out;
  }
  for (let i = 0; i < features.length; i++) {
    if (features[i].dependencies.length === 0) out[i] = featureEvaluation(features[i], ctx, environment, noParent);
  }
  const parentDecision = (index: number): FeatureDecision => out[index];
  for (let i = 0; i < features.length; i++) {
    if (features[i].dependencies.length > 0) out[i] = featureEvaluation(features[i], ctx, environment, parentDecision);
  }
  return out;
}
