/**
 * Variants (reference §3.5), of a feature's environment or of a strategy: compiling a list (weights summed, override
 * values in Sets, stickiness resolved to a context slot, and the variant objects and fast-path decisions built once
 * and frozen), choosing one for a resolved context, and the frozen copy of the list the detailed result shows.
 */
import type { FeatureVariant, StrategyVariant } from '../features/variant.shapes';
import * as compiled from './compiled';
import type { CompiledVariants, SnapshotCompiler } from './compiled';
import * as hashing from './hashing';
import type { ResolvedContext } from './resolved-context';
import type { PlaygroundVariant } from './playground.shapes';

// Imported bindings copied into module constants once: some transpilers (esbuild, used by tsx) turn every access to
// an imported binding into a getter call, which is measurable in the evaluation loops.
const { EMPTY, STICKY_DEFAULT, STICKY_FIELD, frozen } = compiled;
const { VARIANT_SEED, bucket } = hashing;

/**
 * Variants with group id `groupId`. A variant list without stickiness on its first variant (only possible in
 * data not written by this service) falls back to `fallbackStickiness`, as the client specification expects.
 */
export function compileVariants(list: ReadonlyArray<FeatureVariant | StrategyVariant> | null | undefined, groupId: string, featureName: string,
  fallbackStickiness: string, compiler: SnapshotCompiler): CompiledVariants | null {
  if (!list || list.length === 0) return null;
  const weights = list.map((v) => (typeof v.weight === 'number' ? v.weight : Number(v.weight) || 0));
  const results = list.map((v) => frozen<PlaygroundVariant>(v.payload
    ? { name: v.name, enabled: true, payload: frozen({ ...v.payload }) }
    : { name: v.name, enabled: true }));
  const overrides: CompiledVariants['overrides'] = [];
  list.forEach((v, index) => {
    for (const o of (v as FeatureVariant).overrides ?? EMPTY) {
      overrides.push({ slot: compiler.slot(o.contextName), values: new Set(o.values ?? EMPTY), index });
    }
  });
  const stickinessName = list[0].stickiness || fallbackStickiness || 'default';
  // Variant stickiness has no "random" keyword: any name but "default" is a context field.
  const [stickiness, stickinessSlot] = stickinessName === 'default' ? [STICKY_DEFAULT, -1] : [STICKY_FIELD, compiler.slot(stickinessName)];
  return {
    source: list,
    list: null,
    prefix: `${groupId}:`,
    totalWeight: weights.reduce((a, b) => a + b, 0),
    weights,
    results,
    decisions: results.map((variant) => frozen({ name: featureName, isEnabled: true, variant })),
    overrides,
    stickiness,
    stickinessSlot,
    seed: VARIANT_SEED,
  };
}

/** Index of the variant chosen (reference §3.5), or -1 when none can be (total weight ≤ 0). */
export function selectVariantIndex(v: CompiledVariants, ctx: ResolvedContext): number {
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

/** The variants as the detailed result lists them: a frozen copy, made on first use and shared. */
export function variantList(v: CompiledVariants): ReadonlyArray<FeatureVariant | StrategyVariant> {
  return v.list ??= Object.freeze(v.source.map((variant) => Object.freeze({
    ...variant,
    ...(variant.payload ? { payload: Object.freeze({ ...variant.payload }) } : {}),
  })));
}
