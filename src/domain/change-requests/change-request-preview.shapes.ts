import { z } from 'zod';
import { named } from '../shapes';
import { FeatureDependency, FeatureStrategy } from '../features/feature.shapes';
import { Variant } from '../features/variant.shapes';
import { PlaygroundFeature } from '../playground/playground.shapes';

/** What a preview of a change request answers (change-request-preview.service.ts; src/domain/shapes.ts says how shapes are used). */

/** A feature's configuration in the request's environment, as the REST feature environment shows it. */
const PreviewConfiguration = z.object({
  enabled: z.boolean(),
  strategies: z.array(FeatureStrategy),
  variants: z.array(Variant),
  dependencies: z.array(FeatureDependency),
});
export type PreviewConfiguration = z.output<typeof PreviewConfiguration>;

/** Why a feature is in the preview: a change names it, a changed segment is used by it, or a feature it depends on is in it. */
const PreviewReason = z.enum(['change', 'segment', 'parent']);
export type PreviewReason = z.output<typeof PreviewReason>;

/** One context evaluated against a feature before and after the request (null: the feature is not evaluated). */
const PreviewResult = z.object({
  context: z.record(z.string(), z.unknown()).describe('The context as sent'),
  before: PlaygroundFeature.nullable(),
  after: PlaygroundFeature.nullable(),
  changed: z.boolean().describe('`isEnabled` or the variant name differs'),
});
export type PreviewResult = z.output<typeof PreviewResult>;

const PreviewFeature = z.object({
  name: z.string(),
  project: z.string(),
  reasons: z.array(PreviewReason).describe('A change names it, it uses a changed segment, or it depends on a feature in the preview'),
  before: PreviewConfiguration.nullable().describe('Null: the feature is not active now'),
  after: PreviewConfiguration.nullable().describe('Null: the request archives it (or it is not active now)'),
  results: z.array(PreviewResult).describe('One per context, in the order sent'),
});
export type PreviewFeature = z.output<typeof PreviewFeature>;

/** A change the preview left out because applying it would be refused now (`feature` null for segment changes). */
const PreviewWarning = z.object({
  changeId: z.number().int(),
  action: z.string(),
  feature: z.string().nullable(),
  message: z.string(),
});
export type PreviewWarning = z.output<typeof PreviewWarning>;

export const ChangeRequestPreview = named('ChangeRequestPreview', z.object({
  id: z.number().int(),
  project: z.string(),
  environment: z.string(),
  features: z.array(PreviewFeature),
  changedCount: z.number().int(),
  warnings: z.array(PreviewWarning).describe('Changes left out because applying them would be refused now'),
}));
export type ChangeRequestPreview = z.output<typeof ChangeRequestPreview>;
