/**
 * The variant editors' rules, with no React: how weights are shared (the service's own rule, so what the editor shows
 * is what gets stored), payload checks, and conversion between the editor's state and `FeatureVariantInput` /
 * `StrategyVariantInput`. Weights are per mille in the API (0..1000); the editor shows percentages.
 */

export type WeightType = 'variable' | 'fix';
export const PAYLOAD_TYPES = ['string', 'json', 'csv', 'number'] as const;
export type PayloadType = (typeof PAYLOAD_TYPES)[number];

export interface OverrideDraft {
  key: number;
  contextName: string;
  values: string[];
}

/** One variant as the editor holds it. `weight` is per mille and matters for `fix` variants only. */
export interface VariantDraft {
  key: number;
  name: string;
  weightType: WeightType;
  weight: number;
  stickiness: string;
  /** '' for no payload. */
  payloadType: PayloadType | '';
  payloadValue: string;
  overrides: OverrideDraft[];
}

/** A variant as the API returns it (FeatureVariant / StrategyVariant). */
export interface VariantShape {
  name: string;
  weight: number;
  weightType: string;
  stickiness: string;
  payload?: { type: string; value: string } | null;
  overrides?: Array<{ contextName: string; values: string[] }> | null;
}

let nextKey = 1;

export const percentToPermille = (percent: number): number => Math.round(percent * 10);
export const permilleToPercent = (weight: number): number => weight / 10;
/** A weight as a person reads it: "33.4%". */
export const formatPercent = (weight: number): string => `${Number.isInteger(weight / 10) ? weight / 10 : (weight / 10).toFixed(1)}%`;

/** A new variant: variable weight, `stickiness` as given (the project's default or "default"). */
export function emptyVariant(name = '', stickiness = 'default'): VariantDraft {
  return { key: nextKey++, name, weightType: 'variable', weight: 0, stickiness, payloadType: '', payloadValue: '', overrides: [] };
}

export function emptyOverride(contextName = ''): OverrideDraft {
  return { key: nextKey++, contextName, values: [] };
}

export function fromVariant(v: VariantShape): VariantDraft {
  const type = (PAYLOAD_TYPES as readonly string[]).includes(v.payload?.type ?? '') ? (v.payload!.type as PayloadType) : '';
  return {
    key: nextKey++,
    name: v.name,
    weightType: v.weightType === 'fix' ? 'fix' : 'variable',
    weight: v.weight,
    stickiness: v.stickiness || 'default',
    payloadType: type,
    payloadValue: type ? v.payload!.value : '',
    overrides: (v.overrides ?? []).map((o) => ({ key: nextKey++, contextName: o.contextName, values: [...o.values] })),
  };
}

/** The outcome of sharing 1000 among the variants: a weight per variant, or why it cannot be shared. */
export interface Distribution {
  weights: number[];
  total: number;
  error?: string;
}

/**
 * Resolves weights as the service does when saving: `fix` variants keep their weight, the variable ones share what is
 * left (floor of the share each, the remainder one by one to the first ones), so the total is exactly 1000. It cannot
 * when the fixed weights pass 1000, or when there are variants and none is variable.
 */
export function distributeWeights(variants: ReadonlyArray<Pick<VariantDraft, 'weightType' | 'weight'>>): Distribution {
  if (variants.length === 0) return { weights: [], total: 0 };
  const fixedTotal = variants.reduce((sum, v) => sum + (v.weightType === 'fix' ? v.weight : 0), 0);
  const variableCount = variants.filter((v) => v.weightType === 'variable').length;
  const left = Math.max(0, 1000 - fixedTotal);
  const share = variableCount > 0 ? Math.floor(left / variableCount) : 0;
  let remainder = variableCount > 0 ? left % variableCount : 0;
  const weights = variants.map((v) => {
    if (v.weightType === 'fix') return v.weight;
    const w = share + (remainder > 0 ? 1 : 0);
    if (remainder > 0) remainder -= 1;
    return w;
  });
  const total = weights.reduce((a, b) => a + b, 0);
  if (variants.some((v) => v.weightType === 'fix' && (!Number.isInteger(v.weight) || v.weight < 0 || v.weight > 1000))) {
    return { weights, total, error: 'A fixed weight is between 0% and 100%.' };
  }
  if (fixedTotal > 1000) return { weights, total, error: `The fixed weights add up to ${formatPercent(fixedTotal)}, more than 100%.` };
  if (variableCount === 0) return { weights, total, error: 'At least one variant must have a variable weight, to take what the fixed ones leave.' };
  return { weights, total };
}

/** What is wrong with a payload value for its type; undefined when it is fine. */
export function payloadError(type: PayloadType | '', value: string): string | undefined {
  if (type === '') return undefined;
  if (value.trim() === '') return 'Enter the payload value.';
  if (value.length > 10_000) return 'The payload is at most 10 000 characters.';
  if (type === 'json') {
    try {
      JSON.parse(value);
    } catch (e) {
      return `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (type === 'number' && !Number.isFinite(Number(value))) return `"${value}" is not a number.`;
  return undefined;
}

export interface VariantErrors {
  name?: string;
  weight?: string;
  payload?: string;
  overrides?: string;
}

export interface VariantsValidation {
  variants: VariantErrors[];
  /** About the list as a whole (the weights). */
  list?: string;
  ok: boolean;
}

/** Validates the variants before sending: names (present, unique, ≤ 100), weights, payloads, overrides. */
export function validateVariants(variants: readonly VariantDraft[]): VariantsValidation {
  const seen = new Map<string, number>();
  variants.forEach((v) => seen.set(v.name.trim(), (seen.get(v.name.trim()) ?? 0) + 1));
  const errors = variants.map((v): VariantErrors => {
    const e: VariantErrors = {};
    const name = v.name.trim();
    if (name === '') e.name = 'Enter a name.';
    else if (name.length > 100) e.name = 'A name is at most 100 characters.';
    else if ((seen.get(name) ?? 0) > 1) e.name = `Another variant is named ${name}.`;
    if (v.weightType === 'fix' && (!Number.isInteger(v.weight) || v.weight < 0 || v.weight > 1000)) e.weight = 'Between 0% and 100%.';
    const p = payloadError(v.payloadType, v.payloadValue);
    if (p) e.payload = p;
    if (v.overrides.some((o) => !o.contextName || o.values.length === 0)) e.overrides = 'Each override needs a context field and at least one value.';
    return e;
  });
  const list = distributeWeights(variants).error;
  const ok = !list && errors.every((e) => !Object.values(e).some(Boolean));
  return { variants: errors, ...(list ? { list } : {}), ok };
}

export interface VariantInputShape {
  name: string;
  weightType: WeightType;
  weight: number;
  stickiness: string;
  payload?: { type: string; value: string };
  overrides?: Array<{ contextName: string; values: string[] }>;
}

/**
 * The variants as mutation input, weights resolved (the service resolves them again the same way). `withOverrides`
 * for feature variants; strategy variants have none.
 */
export function toVariantInputs(variants: readonly VariantDraft[], withOverrides: boolean): VariantInputShape[] {
  const { weights } = distributeWeights(variants);
  return variants.map((v, i) => {
    const out: VariantInputShape = { name: v.name.trim(), weightType: v.weightType, weight: weights[i], stickiness: v.stickiness || 'default' };
    if (v.payloadType) out.payload = { type: v.payloadType, value: v.payloadValue };
    if (withOverrides) out.overrides = v.overrides.map((o) => ({ contextName: o.contextName, values: o.values.map((x) => x.trim()).filter(Boolean) }));
    return out;
  });
}

/** A refusal's detail path (`variants/0/payload/value`, or dotted) as a variant and field, when it names one. */
export function variantErrorAt(path: string, prefix = 'variants'): { index: number | null; field: keyof VariantErrors | null } | null {
  const parts = path.split(/[./]/);
  if (parts[0] !== prefix) return null;
  if (parts[1] === undefined || !/^\d+$/.test(parts[1])) return { index: null, field: null };
  const field = parts[2];
  const f: keyof VariantErrors = field === 'name' ? 'name' : field === 'payload' ? 'payload' : field === 'overrides' ? 'overrides' : 'weight';
  return { index: Number(parts[1]), field: f };
}
