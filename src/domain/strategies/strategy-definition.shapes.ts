import { z } from 'zod';
import { named } from '../shapes';

/** What both doors answer for strategy types (definitions) (src/domain/shapes.ts says how shapes are used). */

/** The parameter types a strategy definition may declare (Unleash's list). */
export const STRATEGY_PARAMETER_TYPES = ['string', 'percentage', 'list', 'number', 'boolean'] as const;
export type StrategyParameterType = (typeof STRATEGY_PARAMETER_TYPES)[number];

/** One declared parameter of a strategy definition. */
export const StrategyParameter = named('StrategyParameter', z.object({
  name: z.string(),
  type: z.enum(STRATEGY_PARAMETER_TYPES),
  description: z.string(),
  required: z.boolean(),
}));
export type StrategyParameter = z.output<typeof StrategyParameter>;

/** A strategy type (Unleash's strategy shape); `editable` is false for the built-in definitions, which cannot be changed or deleted. */
export const StrategyDefinition = named('StrategyDefinition', z.object({
  name: z.string(),
  displayName: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  editable: z.boolean().describe('False for the built-in strategy types'),
  deprecated: z.boolean(),
  parameters: z.array(StrategyParameter),
}));
export type StrategyDefinition = z.output<typeof StrategyDefinition>;
