/**
 * Evaluation of a compiled snapshot against one client context (reference §3): the detailed playground result
 * (`evaluate`) and a fast path that only decides `isEnabled` and `variant` (`evaluateFast`, `evaluateFeatureFast`).
 * Both share the constraint (operators.ts), strategy (strategies.ts) and variant (variants.ts) code. The context is
 * resolved once per call into slot values (resolved-context.ts). Per feature the fast path allocates nothing but the
 * hash key string: it returns decisions and variants the snapshot built once. The detailed path allocates only the
 * objects that carry context-dependent results.
 */
import * as compiled from './compiled';
import type { CompiledFeature, CompiledSnapshot, CompiledStrategy } from './compiled';
import * as operators from './operators';
import * as resolved from './resolved-context';
import type { ResolvedContext } from './resolved-context';
import * as strategies from './strategies';
import type { EvaluationOptions, FeatureDecision, PlaygroundContext } from './types';
import type { PlaygroundFeatureEvaluation, PlaygroundStrategyEvaluation, PlaygroundVariant } from './playground.shapes';
import * as variants from './variants';

// Imported bindings copied into module constants once: some transpilers (esbuild, used by tsx) turn every access to
// an imported binding into a getter call, which is measurable in these loops.
const { DISABLED_VARIANT } = compiled;
const { allPass, segmentsPass } = operators;
const { ResolvedContext: Resolved } = resolved;
const { strategyCondition, strategyEvaluation } = strategies;
const { selectVariantIndex, variantList } = variants;

const NO_VARIANTS: PlaygroundFeatureEvaluation['variants'] = Object.freeze([]) as never;

// ---- dependencies -------------------------------------------------------------------------------------------

/** Reference §3.6, given the parents' decisions in this evaluation (parents never have dependencies themselves). */
export function dependenciesSatisfied(f: CompiledFeature, parentDecision: (index: number) => FeatureDecision): boolean {
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
  const ctx = new Resolved(snapshot, context, options);
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
  const ctx = new Resolved(snapshot, context, options);
  return decide(feature, ctx, (index) => decide(snapshot.features[index], ctx, noParent));
}

function noParent(): FeatureDecision {
  throw new Error('a feature without dependencies has no parent to decide');
}

// ---- detailed result ----------------------------------------------------------------------------------------

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
  const ctx = new Resolved(snapshot, context, options);
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
