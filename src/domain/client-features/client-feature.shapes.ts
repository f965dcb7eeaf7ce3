import { z } from 'zod';
import { OPERATORS } from '../features/constraint.shapes';
import { named } from '../shapes';
import { SentVariant, StrategyVariant } from '../features/variant.shapes';

/**
 * What backend SDKs receive of a feature, a strategy, a segment and a constraint (Unleash v5.8's shapes;
 * src/domain/shapes.ts says how shapes are used): client-features.read-model.ts reads the snapshot in these types. The
 * answers' envelopes (`{version: 2, features, query, segments}`, the delta events) are the SDK door's
 * (src/rest/openapi/routes/sdk.docs.ts).
 */

/**
 * A constraint as SDKs receive it: `caseInsensitive` and `inverted` only when true (SDKs read an absent flag as false,
 * and Unleash sends them only when they were given), so a large answer is not mostly repeated `false`s.
 */
export const ClientConstraint = named('ClientConstraint', z.object({
  contextName: z.string(),
  operator: z.enum(OPERATORS),
  values: z.array(z.string()),
  value: z.string().optional().describe('The single value of the number, date and semver operators, or the RE2 pattern of REGEX (searched anywhere in the context value)'),
  caseInsensitive: z.literal(true).optional().describe('Present only when true'),
  inverted: z.literal(true).optional().describe('Present only when true'),
}));
export type ClientConstraint = z.output<typeof ClientConstraint>;

/**
 * A strategy as backend SDKs receive it from Unleash v5.8: no id (old Go SDKs break on it), title, sort order (the list
 * is already in that order) or `disabled` (disabled strategies are left out); `segments` holds ids and is left out when
 * the strategy has none.
 */
export const ClientStrategy = named('ClientStrategy', z.object({
  name: z.string(),
  constraints: z.array(ClientConstraint),
  parameters: z.record(z.string(), z.string()),
  variants: z.array(StrategyVariant),
  segments: z.array(z.number().int()).optional().describe('Segment ids; absent when the strategy has none, or when segments are inlined into `constraints`'),
}), 'An enabled strategy as SDKs evaluate it (disabled strategies are left out)');
export type ClientStrategy = z.output<typeof ClientStrategy>;

/** A parent of a feature: `variants` only when the parent must be enabled with one of them. */
export const ClientDependency = z.object({ feature: z.string(), enabled: z.boolean(), variants: z.array(z.string()).optional() });
export type ClientDependency = z.output<typeof ClientDependency>;

/** A feature as backend SDKs receive it (`GET /api/client/features`, Unleash v5.8). */
export const ClientFeature = named('ClientFeature', z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  stale: z.boolean(),
  impressionData: z.boolean(),
  project: z.string(),
  strategies: z.array(ClientStrategy),
  variants: z.array(SentVariant),
  dependencies: z.array(ClientDependency).optional(),
}));
export type ClientFeature = z.output<typeof ClientFeature>;

export const ClientSegment = named('ClientSegment', z.object({ id: z.number().int(), name: z.string(), constraints: z.array(ClientConstraint) }));
export type ClientSegment = z.output<typeof ClientSegment>;
