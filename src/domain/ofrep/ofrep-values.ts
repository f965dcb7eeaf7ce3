import type { CompiledFeature } from '../playground/compiled';
import type { ExplainedDecision } from '../playground/explain';

/**
 * What an OpenFeature SDK reads of a flag (issue 45), as the OpenFeature providers for Unleash read it: a flag without
 * variants is a boolean, its enabled state; a flag with variants is its variant's payload, typed by the payload's type
 * (`string` and `csv` as text, `number` as a number, `json` as the parsed value), or the variant's name when it has no
 * payload. Off, such a flag has no value: the SDK answers with the caller's default (OFREP ADR 0006). OpenFeature's
 * typed getters then refuse a value of another type (TYPE_MISMATCH) rather than being handed a wrong one.
 */
export interface OfrepValue {
  /** Absent: the caller's default applies. */
  value?: unknown;
  variant: string;
}

/** Has the flag variants anywhere (its own, or a strategy's): then it is read as a variant's payload, not a boolean. */
export const hasVariants = (f: CompiledFeature): boolean => f.variants !== null || f.strategies.some((s) => s.variants !== null);

/** A `number` payload that is not a finite number, or a `json` one that does not parse, is handed over as its text. */
function payloadValue(payload: { type: string; value: string }): unknown {
  if (payload.type === 'number') {
    const n = Number(payload.value);
    return payload.value.trim() !== '' && Number.isFinite(n) ? n : payload.value;
  }
  if (payload.type === 'json') {
    try {
      return JSON.parse(payload.value) as unknown;
    } catch {
      return payload.value;
    }
  }
  return payload.value;
}

export function ofrepValue(feature: CompiledFeature, { decision }: ExplainedDecision): OfrepValue {
  if (!hasVariants(feature)) return { value: decision.isEnabled, variant: decision.isEnabled ? 'on' : 'off' };
  const variant = decision.variant;
  if (!decision.isEnabled || !variant.enabled) return { variant: 'disabled' };
  return { value: variant.payload ? payloadValue(variant.payload) : variant.name, variant: variant.name };
}
