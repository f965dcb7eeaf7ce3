import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { Tag } from '../tags/tag.shapes';

/**
 * The items of a project's feature overview, which the project feature list and the health report show (read by
 * feature-overview.read-model.ts; src/domain/shapes.ts says how shapes are used).
 */

/** A feature's environment in the project overview (the feature list and the health report). */
export const FeatureOverviewEnvironment = named('FeatureOverviewEnvironment', z.object({
  name: z.string(),
  enabled: z.boolean().describe('Whether the feature is on in this environment'),
  type: z.string().describe('The environment type'),
  sortOrder: z.number().int(),
  variantCount: z.number().int(),
  lastSeenAt: timestamp.nullable().describe('When an SDK last reported metrics for the feature here'),
  hasStrategies: z.boolean(),
  hasEnabledStrategies: z.boolean(),
}), 'A feature in one environment of the project overview, without strategies');
export type OverviewEnvironment = z.output<typeof FeatureOverviewEnvironment>;

const overviewFields = {
  type: z.string().describe('The feature type'),
  description: z.string().nullable(),
  name: z.string(),
  createdAt: timestamp,
  lastSeenAt: timestamp.nullable().describe('Deprecated: use the environments’ lastSeenAt'),
  stale: z.boolean(),
  impressionData: z.boolean(),
  environments: z.array(FeatureOverviewEnvironment).describe('Every switched-on environment of the project, by sort order then name'),
  tags: z.array(Tag).optional().describe('Only when the feature has tags'),
};

export const FeatureListItem = named('FeatureListItem', z.object({
  ...overviewFields,
  favorite: z.boolean(),
}), 'A non-archived feature of a project list, as the project overview shows it');

/** A feature of the health report: the list's item without `favorite`. */
export const HealthReportFeature = named('HealthReportFeature', z.object(overviewFields), 'A non-archived feature of the project');

/**
 * A feature of the overview as the domain keeps it: the health report's feature, its tags always present (empty when
 * it has none; REST then leaves the property out, as Unleash does).
 */
export type OverviewFeature = Omit<z.output<typeof HealthReportFeature>, 'tags'> & { tags: Tag[] };
