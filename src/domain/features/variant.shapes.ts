import { z } from 'zod';
import { named } from '../shapes';

/**
 * Variants of strategies and of features in an environment, as both doors answer them and as they are stored
 * (`canonicalVariant`, variants.ts; src/domain/shapes.ts says how shapes are used).
 */

export const FeatureVariantPayload = named('FeatureVariantPayload', z.object({
  type: z.enum(['json', 'csv', 'string', 'number']),
  value: z.string().describe('The payload as text (JSON text for `json`)'),
}));
export type FeatureVariantPayload = z.output<typeof FeatureVariantPayload>;

const variantFields = {
  name: z.string(),
  weight: z.number().int().min(0).max(1000).describe('Share of 1000; `variable` weights are shared out so that all add up to 1000'),
  weightType: z.enum(['variable', 'fix']),
  stickiness: z.string().describe('The context field that keeps a user on the same variant (`default`: userId, then sessionId, then random)'),
  payload: FeatureVariantPayload.optional(),
};

export const StrategyVariant = named('StrategyVariant', z.object(variantFields), 'A variant of a strategy');
export type StrategyVariant = z.output<typeof StrategyVariant>;

/** A feature's variant in an environment: a strategy variant's fields and the overrides. */
export const Variant = named('Variant', z.object({
  ...variantFields,
  overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) }))
    .describe('Context values that always get this variant, whatever the weights'),
}), 'A variant of a feature in an environment');
export type FeatureVariant = z.output<typeof Variant>;

/** A feature's variant where `overrides` may be left out (the client answer and the exports send it only when set). */
export const SentVariant = Variant.partial({ overrides: true });
export type SentVariant = z.output<typeof SentVariant>;
