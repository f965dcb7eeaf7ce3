import { z } from 'zod';
import { named } from '../shapes';
import { Tag, TagType } from '../tags/tag.shapes';
import { SentVariant } from '../features/variant.shapes';
import { FeatureDependency, FeatureStrategy } from '../features/feature.shapes';

/**
 * What both doors answer for the batch export, import validation and import (src/domain/shapes.ts says how shapes are
 * used): import-export.read-model.ts builds the export, import-plan.ts and import-feature-plan.ts the validation.
 */

/** The batch export: the import payload's `data` (spec "Import payload"), for one environment. */
export const ExportResult = named('ExportResult', z.object({
  features: z.array(z.object({
    name: z.string(), type: z.string(), description: z.string().nullable(), project: z.string(), stale: z.boolean(),
    impressionData: z.boolean(), archived: z.boolean(),
  })),
  featureStrategies: z.array(FeatureStrategy),
  featureEnvironments: z.array(z.object({ name: z.string(), featureName: z.string(), environment: z.string(), enabled: z.boolean(), variants: z.array(SentVariant) })),
  contextFields: z.array(z.object({
    name: z.string(), description: z.string().nullable(), stickiness: z.boolean(), sortOrder: z.number().int(),
    legalValues: z.array(z.object({ value: z.string(), description: z.string().optional() })),
  })),
  featureTags: z.array(z.object({ featureName: z.string(), tagType: z.string(), tagValue: z.string() })),
  segments: z.array(z.object({ id: z.number().int(), name: z.string() })),
  tagTypes: z.array(TagType),
  dependencies: z.array(z.object({ feature: z.string(), dependencies: z.array(FeatureDependency) })),
}), 'The chosen features’ configuration in one environment: the `data` of an import');
export type ExportResult = z.output<typeof ExportResult>;

/** One line of the validation answer (Unleash's shape): a message and the names it is about. */
export const ImportItem = named('ImportItem', z.object({ message: z.string(), affectedItems: z.array(z.string()) }));
export type ImportItem = z.output<typeof ImportItem>;

/** A metadata property an import changes, with its value before and after. */
export const FieldDifference = z.object({ field: z.enum(['type', 'description', 'impressionData', 'stale']), before: z.unknown(), after: z.unknown() });
export type FieldDifference = z.output<typeof FieldDifference>;

/**
 * What importing would do to one feature (issue 13 part 5: beyond Unleash's errors and warnings). `action`: `create`
 * (new), `update` (exists in the project and something differs) or `unchanged` (exists and nothing differs).
 */
export const ImportChange = named('ImportChange', z.object({
  feature: z.string(),
  action: z.enum(['create', 'update', 'unchanged']),
  fields: z.array(FieldDifference),
  strategies: z.object({ added: z.array(FeatureStrategy.omit({ id: true, featureName: true })), removed: z.array(FeatureStrategy) }),
  enabled: z.object({ before: z.boolean(), after: z.boolean() }).nullable(),
  variants: z.object({ before: z.array(SentVariant), after: z.array(SentVariant) }).nullable(),
  tags: z.object({ added: z.array(Tag), removed: z.array(Tag) }),
  dependencies: z.object({ added: z.array(FeatureDependency), removed: z.array(FeatureDependency) }),
}), 'What importing does to one feature');
export type ImportChange = z.output<typeof ImportChange>;

/** A strategy as an import would store it (its id is given when it is written). */
export type PlannedStrategy = ImportChange['strategies']['added'][number];

export const ImportValidation = named('ImportValidation', z.object({
  errors: z.array(ImportItem).describe('What stops the import'),
  warnings: z.array(ImportItem),
  permissions: z.array(ImportItem).describe('Permissions the import needs that the caller lacks'),
  changes: z.array(ImportChange),
}));
export type ImportValidation = z.output<typeof ImportValidation>;

/** What an import did: the warnings validation gave and, per feature, what changed. */
export const ImportResult = named('ImportResult', z.object({ warnings: z.array(ImportItem), changes: z.array(ImportChange) }), 'What an import did');
export type ImportResult = z.output<typeof ImportResult>;
