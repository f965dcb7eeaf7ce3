import { z } from 'zod';
import { ValidationError } from '../errors';
import type { FeatureVariant, StrategyVariant } from './variant.shapes';

export const payloadSchema = z.object({
  type: z.enum(['json', 'csv', 'string', 'number']),
  value: z.string().max(10_000),
}).strict().superRefine((p, ctx) => {
  if (p.type === 'json') {
    try {
      JSON.parse(p.value);
    } catch {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be valid JSON for a json payload' });
    }
  }
  if (p.type === 'number' && (p.value.trim() === '' || !Number.isFinite(Number(p.value)))) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be a number for a number payload' });
  }
});

const variantFields = {
  name: z.string().min(1).max(100),
  weight: z.number().int().min(0).max(1000).optional(),
  weightType: z.enum(['variable', 'fix']).optional(),
  stickiness: z.string().min(1).max(100).optional(),
  payload: payloadSchema.optional(),
};

const overrideSchema = z.object({ contextName: z.string().min(1).max(100), values: z.array(z.string().max(100)).max(1000) }).strict();

function uniqueNames<T extends { name: string }>(list: T[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  list.forEach((v, i) => {
    if (seen.has(v.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `must be unique; "${v.name}" appears more than once` });
    seen.add(v.name);
  });
}

export const strategyVariantsSchema = z.array(z.object(variantFields).strict()).max(100).superRefine(uniqueNames);
export const featureVariantsSchema = z.array(z.object({ ...variantFields, overrides: z.array(overrideSchema).max(100).optional() }).strict())
  .max(100).superRefine(uniqueNames);

type VariantInput = z.output<typeof strategyVariantsSchema>[number] & { overrides?: FeatureVariant['overrides'] };

/**
 * Resolves weights at save time (reference §3.5): `fix` variants keep their weight, the rest of 1000 is shared by the
 * `variable` ones (the remainder going one by one to the first), and the list is sorted by name. At least one variable
 * variant is needed, and fixed weights may not exceed 1000. `path` names the list in error details.
 */
export function fixVariantWeights<T extends VariantInput>(input: T[], path: string): Array<T & { weight: number; weightType: 'variable' | 'fix'; stickiness: string }> {
  if (input.length === 0) return [];
  const variants = input.map((v) => ({ ...v, weightType: v.weightType ?? 'variable', stickiness: v.stickiness ?? 'default' }));
  const fixed = variants.filter((v) => v.weightType === 'fix');
  const variable = variants.filter((v) => v.weightType === 'variable');
  if (fixed.some((v) => v.weight === undefined)) {
    throw ValidationError.single(path, 'Every "fix" variant needs a weight.');
  }
  if (variable.length === 0) throw ValidationError.single(path, 'There must be at least one "variable" variant');
  const fixedTotal = fixed.reduce((sum, v) => sum + (v.weight ?? 0), 0);
  if (fixedTotal > 1000) throw ValidationError.single(path, 'The traffic distribution total must equal 100%');
  const share = Math.floor((1000 - fixedTotal) / variable.length);
  let remainder = (1000 - fixedTotal) % variable.length;
  const resolved = variants.map((v) => {
    if (v.weightType === 'fix') return { ...v, weight: v.weight as number };
    const weight = share + (remainder > 0 ? 1 : 0);
    if (remainder > 0) remainder -= 1;
    return { ...v, weight };
  });
  return resolved.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A variant in the stored and returned form: keys in the documented order, `payload` only when set, `overrides`
 * kept for feature variants. Applied on write and on read (jsonb does not keep key order).
 */
export function canonicalVariant<V extends StrategyVariant & { overrides?: FeatureVariant['overrides'] }>(v: V): V {
  const out = { name: v.name, weight: v.weight, weightType: v.weightType, stickiness: v.stickiness } as V;
  if (v.payload) out.payload = { type: v.payload.type, value: v.payload.value };
  if (v.overrides) out.overrides = v.overrides.map((o) => ({ contextName: o.contextName, values: o.values }));
  return out;
}

/** Strategy variants as stored (no overrides). */
export function toStrategyVariants(input: z.output<typeof strategyVariantsSchema>, path: string): StrategyVariant[] {
  return fixVariantWeights(input, path).map(({ name, weight, weightType, stickiness, payload }) => canonicalVariant({ name, weight, weightType, stickiness, payload }));
}

/** Feature (environment) variants as stored, overrides defaulting to []. */
export function toFeatureVariants(input: z.output<typeof featureVariantsSchema>, path: string): FeatureVariant[] {
  return fixVariantWeights(input, path).map(({ name, weight, weightType, stickiness, payload, overrides }) =>
    canonicalVariant({ name, weight, weightType, stickiness, payload, overrides: overrides ?? [] }));
}
