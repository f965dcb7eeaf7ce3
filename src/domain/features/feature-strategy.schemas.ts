import { z } from 'zod';
import { ownRecord } from '../records';
import { constraintsSchema } from './constraints';
import { featureVariantsSchema, strategyVariantsSchema } from './variants';

/** The inputs of strategy, environment and variant changes (REST bodies, GraphQL inputs, change-request payloads). */

const parameterValue = z.union([z.string().max(10_000), z.number(), z.boolean()]).transform((v) => String(v));
/** Most segments one strategy may use (the UI config reports it as `strategySegmentsLimit`). */
export const MAX_STRATEGY_SEGMENTS = 100;

const strategyFields = {
  title: z.string().max(255).nullable().optional(),
  disabled: z.boolean().nullable().optional(),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  // Parameter names are the user's: `__proto__` and `constructor` are names like any other (see records.ts).
  parameters: ownRecord(z.string().min(1).max(100), parameterValue).optional(),
  constraints: constraintsSchema.optional(),
  variants: strategyVariantsSchema.optional(),
  segments: z.array(z.number().int().min(1).max(2_147_483_647)).max(MAX_STRATEGY_SEGMENTS).optional(),
};
// Clients may send back the strategy they read: `id` and `featureName` are accepted when they match.
const identity = { id: z.string().optional(), featureName: z.string().optional(), environment: z.string().optional() };
export const createSchema = z.object({ name: z.string().min(1).max(100), ...strategyFields, ...identity }).strict();
export const updateSchema = z.object({ name: z.string().min(1).max(100).optional(), ...strategyFields, ...identity }).strict();
export const sortOrderSchema = z.array(z.object({ id: z.string().min(1).max(100), sortOrder: z.number().int().min(-1_000_000).max(1_000_000) }).strict()).min(1).max(1000);
export const switchSchema = z.object({ shouldActivateDisabledStrategies: z.boolean().optional() }).strict();
export const batchVariantsSchema = z.object({ variants: featureVariantsSchema, environments: z.array(z.string().min(1).max(100)).min(1).max(100) }).strict();

export type StrategyInput = z.input<typeof createSchema>;

/** The payload shapes of direct strategy changes, which change requests validate their changes with (issue 12). */
export const strategyPayloadSchemas = { create: createSchema, update: updateSchema, sortOrder: sortOrderSchema, switch: switchSchema } as const;
export type StrategyData = z.output<typeof updateSchema>;
