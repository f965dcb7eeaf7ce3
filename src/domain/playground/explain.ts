/**
 * The fast path's decision with why it was taken (OFREP's `reason`, issue 45): the same steps as `decide` in
 * evaluate.ts, in the same order, noting which one settled the answer. Kept apart so the frontend API's loop, which
 * needs no reason, stays as it is; test/unit/client-specification.test.ts holds the two to the same decisions.
 */
import * as compiled from './compiled';
import type { CompiledFeature, CompiledSnapshot, CompiledStrategy, CompiledVariants } from './compiled';
import { dependenciesSatisfied } from './evaluate';
import { allPass, segmentsPass } from './operators';
import { ResolvedContext } from './resolved-context';
import { strategyCondition } from './strategies';
import type { EvaluationOptions, FeatureDecision, PlaygroundContext } from './types';
import { selectVariantIndex } from './variants';

/**
 * OpenFeature's resolution reasons, as flagdeck gives them: the environment switched off is DISABLED; on with no
 * strategy, or a strategy that targets nobody in particular (default, a rollout at 100%), is STATIC; a strategy that
 * matched on the context (constraints, segments, user ids, addresses) is TARGETING_MATCH; a rollout under 100% or a
 * variant drawn by weight is SPLIT; nothing matched, or a parent flag is not as required, is DEFAULT (the flag is off).
 */
export type DecisionReason = 'STATIC' | 'TARGETING_MATCH' | 'SPLIT' | 'DISABLED' | 'DEFAULT';

export interface ExplainedDecision {
  decision: FeatureDecision;
  reason: DecisionReason;
}

const ROLLOUTS: ReadonlySet<number> = new Set([compiled.K_FLEXIBLE_ROLLOUT, compiled.K_GRADUAL_USER_ID, compiled.K_GRADUAL_SESSION_ID, compiled.K_GRADUAL_RANDOM]);

function strategyReason(s: CompiledStrategy): DecisionReason {
  if (ROLLOUTS.has(s.kind) && s.percentage < 100) return 'SPLIT';
  if (s.constraints.length > 0 || s.segments.length > 0 || s.kind === compiled.K_USER_WITH_ID || s.kind === compiled.K_REMOTE_ADDRESS) return 'TARGETING_MATCH';
  return 'STATIC';
}

/** A variant drawn among several by weight splits the audience; one picked by an override targets. */
function variantReason(reason: DecisionReason, variants: CompiledVariants, index: number, ctx: ResolvedContext): DecisionReason {
  for (const o of variants.overrides) {
    if (o.index === index) {
      const value = ctx.values[o.slot];
      if (value !== undefined && o.values.has(value)) return 'TARGETING_MATCH';
    }
  }
  if (reason !== 'STATIC') return reason;
  let weighted = 0;
  for (const w of variants.weights) if (w > 0 && ++weighted > 1) return 'SPLIT';
  return reason;
}

function explain(f: CompiledFeature, ctx: ResolvedContext, parentDecision: (index: number) => FeatureDecision): ExplainedDecision {
  if (!f.enabled) return { decision: f.off, reason: 'DISABLED' };
  if (f.dependencies.length > 0 && !dependenciesSatisfied(f, parentDecision)) return { decision: f.off, reason: 'DEFAULT' };
  let reason: DecisionReason = 'STATIC';
  if (f.strategies.length > 0) {
    let winner: CompiledStrategy | null = null;
    for (const s of f.active) {
      if (allPass(s.constraints, ctx) && segmentsPass(s.segments, ctx) && strategyCondition(s, ctx)) {
        winner = s;
        break;
      }
    }
    if (winner === null) return { decision: f.off, reason: 'DEFAULT' };
    reason = strategyReason(winner);
    if (winner.variants !== null) {
      const index = selectVariantIndex(winner.variants, ctx);
      if (index >= 0) return { decision: winner.variants.decisions[index], reason: variantReason(reason, winner.variants, index, ctx) };
    }
  }
  if (f.variants !== null) {
    const index = selectVariantIndex(f.variants, ctx);
    if (index >= 0) return { decision: f.variants.decisions[index], reason: variantReason(reason, f.variants, index, ctx) };
  }
  return { decision: f.onWithoutVariant, reason };
}

/**
 * The explained decisions of `names` (every feature of the snapshot when absent), in that order; a name the snapshot
 * does not hold is left out. Parents are decided without a reason (they never have dependencies themselves).
 */
export function evaluateExplained(snapshot: CompiledSnapshot, context: PlaygroundContext, names?: readonly string[],
  options?: EvaluationOptions): Array<{ feature: CompiledFeature; explained: ExplainedDecision }> {
  const ctx = new ResolvedContext(snapshot, context, options);
  const parents = new Map<number, FeatureDecision>();
  const parentDecision = (index: number): FeatureDecision => {
    let d = parents.get(index);
    if (d === undefined) {
      d = explain(snapshot.features[index], ctx, noParent).decision;
      parents.set(index, d);
    }
    return d;
  };
  const features = names === undefined ? snapshot.features : names.flatMap((n) => snapshot.byName.get(n) ?? []);
  return features.map((feature) => ({ feature, explained: explain(feature, ctx, parentDecision) }));
}

function noParent(): FeatureDecision {
  throw new Error('a feature without dependencies has no parent to decide');
}
