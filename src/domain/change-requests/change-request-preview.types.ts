import type { FeatureDependency, FeatureStrategy } from '../features/feature.shapes';
import type { FeatureVariant } from '../features/variant.shapes';
import type { PlaygroundFeatureEvaluation } from '../playground/playground.shapes';

/** What a preview of a change request answers (change-request-preview.service.ts). */

/** A change the preview left out because applying it would be refused now. */
export interface PreviewWarning {
  changeId: number;
  action: string;
  /** The feature it names; null for segment changes. */
  feature: string | null;
  message: string;
}

/** Why a feature is in the preview: a change names it, a changed segment is used by it, or a feature it depends on is in it. */
export type PreviewReason = 'change' | 'segment' | 'parent';

/** A feature's configuration in the request's environment, as the REST feature environment shows it. */
export interface PreviewConfiguration {
  enabled: boolean;
  /** In evaluation order (sort order, then creation), as REST lists them. */
  strategies: FeatureStrategy[];
  variants: FeatureVariant[];
  dependencies: FeatureDependency[];
}

export interface PreviewResult {
  /** The context as sent. */
  context: Record<string, unknown>;
  /** The playground's evaluation result; null when the feature is not evaluated (does not exist, or archived). */
  before: PlaygroundFeatureEvaluation | null;
  after: PlaygroundFeatureEvaluation | null;
  /** `isEnabled` or the variant name differs (a missing feature counts as off with the `disabled` variant). */
  changed: boolean;
}

export interface PreviewFeature {
  name: string;
  project: string;
  reasons: PreviewReason[];
  /** Null: the feature is not active now (archived, or gone since the change was proposed). */
  before: PreviewConfiguration | null;
  /** Null: the request archives it (or it is not active now). */
  after: PreviewConfiguration | null;
  /** One per context, in the order sent. */
  results: PreviewResult[];
}

export interface ChangeRequestPreview {
  id: number;
  project: string;
  environment: string;
  features: PreviewFeature[];
  /** (feature, context) pairs whose `isEnabled` or variant name differs. */
  changedCount: number;
  /** Changes the preview left out because applying them would be refused now. */
  warnings: PreviewWarning[];
}
