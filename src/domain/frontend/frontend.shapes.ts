import { z } from 'zod';
import { named } from '../shapes';
import { FeatureVariantPayload } from '../features/variant.shapes';

/**
 * What browser and mobile SDKs receive of a feature enabled for their context (Unleash v5.8's shape; src/domain/shapes.ts
 * says how shapes are used): the engine's decision (src/domain/playground/engine) with the feature's name and
 * impression flag. The answer's envelope (`{toggles}`) is the SDK door's (src/rest/openapi/routes/sdk.docs.ts).
 */

/** The disabled variant is `{name: "disabled", enabled: false}` with no payload key. */
export const FrontendVariant = named('FrontendVariant', z.object({
  name: z.string().describe('`disabled` when the feature has no variant for this context'),
  enabled: z.boolean(),
  payload: FeatureVariantPayload.optional(),
}));
export type FrontendVariant = z.output<typeof FrontendVariant>;

export const FrontendToggle = named('FrontendToggle', z.object({
  name: z.string(),
  enabled: z.literal(true),
  variant: FrontendVariant,
  impressionData: z.boolean(),
}), 'A feature enabled for the context');
export type FrontendToggle = z.output<typeof FrontendToggle>;
