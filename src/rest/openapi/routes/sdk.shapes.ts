import { z } from 'zod';
import { OPERATORS } from '../../../domain/features/constraints';
import { PROJECT_MODES } from '../../../domain/projects/project.read-model';
import { named, timestamp } from '../../../domain/shapes';
import { Tag, TagType } from '../../../domain/tags/tag.shapes';
export { Application, ApplicationDetails } from '../../../domain/metrics/application.shapes';
import { FeatureMetricsBucket, FeatureUsage } from '../../../domain/metrics/application.shapes';
import { ClientFeature, ClientSegment, FeatureVariant } from '../../../domain/client-features/client-feature.shapes';
export { ClientFeature };
export { ExportResult, ImportResult, ImportValidation } from '../../../domain/import-export/import-export.shapes';
export { StateExport } from '../../../domain/import-export/state-export.shapes';
export { Addon, AddonDefinition, AddonDelivery, AddonDeliveryPage } from '../../../domain/addons/addon.shapes';
import { Constraint, FeatureDependency, FeatureStrategy, FeatureSummary, FeatureVariantPayload, StrategyVariant, Variant } from './features.shapes';
import { Segment, StrategyDefinition } from './projects.shapes';


/**
 * The answers of the addon, application metrics, import and export, state export, client (backend SDK), frontend
 * (browser SDK) and health routes. Shapes of other groups that appear inside these answers (a feature strategy, a
 * variant, a constraint, a strategy type, a segment) come from features.shapes.ts and projects.shapes.ts.
 */

// ---- Applications and usage metrics ----

export const ApplicationFeatureUsage = named('ApplicationFeatureUsage', z.object({
  version: z.literal(1),
  maturity: z.literal('stable'),
  ...FeatureUsage.shape,
}), 'The use of a feature in the last hour per environment, and the applications seen using it');

export const ApplicationFeatureMetrics = named('ApplicationFeatureMetrics', z.object({
  version: z.literal(1),
  maturity: z.literal('stable'),
  data: z.array(FeatureMetricsBucket),
}), 'A feature’s use hour by hour, per environment and application');

// ---- Client API (backend SDKs) ----

export const ClientQuery = named('ClientQuery', z.object({
  tag: z.array(z.tuple([z.string(), z.string()])).optional(),
  project: z.array(z.string()).optional(),
  namePrefix: z.string().optional(),
  environment: z.string(),
  inlineSegmentConstraints: z.boolean(),
}), 'What the SDK asked for, as resolved against its token');

export const ClientFeaturesAnswer = named('ClientFeaturesAnswer', z.object({
  version: z.literal(2),
  features: z.array(ClientFeature),
  query: ClientQuery,
  segments: z.array(ClientSegment).optional().describe('Present when `Unleash-Client-Spec` is 4.2.0 or later; otherwise segment constraints are inlined'),
}));

const eventId = z.number().int().describe('The revision the event reflects (events come in increasing order)');
export const ClientDeltaEvent = named('ClientDeltaEvent', z.discriminatedUnion('type', [
  z.object({ eventId, type: z.literal('hydration'), features: z.array(ClientFeature), segments: z.array(ClientSegment) }),
  z.object({ eventId, type: z.literal('feature-updated'), feature: ClientFeature }),
  z.object({ eventId, type: z.literal('feature-removed'), featureName: z.string(), project: z.string() }),
  z.object({ eventId, type: z.literal('segment-updated'), segment: ClientSegment }),
  z.object({ eventId, type: z.literal('segment-removed'), segmentId: z.number().int() }),
]), 'One change of what an SDK holds; applied in order');

export const ClientDelta = named('ClientDelta', z.object({ events: z.array(ClientDeltaEvent) }),
  'What an SDK lacks: a `hydration` (the whole state), or the changes since its revision');

// ---- Frontend API (browser and mobile SDKs) ----

export const FrontendVariant = named('FrontendVariant', z.object({
  name: z.string().describe('`disabled` when the feature has no variant for this context'),
  enabled: z.boolean(),
  payload: FeatureVariantPayload.optional(),
}));

export const FrontendToggle = named('FrontendToggle', z.object({
  name: z.string(),
  enabled: z.literal(true),
  variant: FrontendVariant,
  impressionData: z.boolean(),
}), 'A feature enabled for the context');

export const FrontendAnswer = named('FrontendAnswer', z.object({ toggles: z.array(FrontendToggle) }), 'The features enabled for the context (only those)');

// ---- Health ----

export const HealthGood = z.object({ health: z.literal('GOOD') });
export const HealthBad = z.object({ health: z.literal('BAD') });
