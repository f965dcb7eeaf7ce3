import { z } from 'zod';
import { PROJECT_MODES } from '../projects/project.shapes';
import { named, timestamp } from '../shapes';
import { Tag, TagType } from '../tags/tag.shapes';
import { SentVariant } from '../features/variant.shapes';
import { Constraint } from '../features/constraint.shapes';
import { StrategyVariant } from '../features/variant.shapes';
import { Segment } from '../segments/segment.shapes';
import { StrategyDefinition } from '../strategies/strategy-definition.shapes';

/**
 * What both doors answer for the legacy state export (src/domain/shapes.ts says how shapes are used), section by
 * section: state-export.read-model.ts maps each section's rows into these.
 */

/** A feature as the export lists it (non-archived ones only). */
export const StateExportFeature = z.object({
  name: z.string(), description: z.string().nullable(), type: z.string(), project: z.string(), stale: z.boolean(), createdAt: timestamp,
  lastSeenAt: timestamp.nullable(), impressionData: z.boolean(), archivedAt: timestamp.nullable(), archived: z.boolean(),
});
export type StateExportFeature = z.output<typeof StateExportFeature>;

/** A project's naming pattern: `{}` when the project has none. */
export const StateExportFeatureNaming = z.object({ pattern: z.string().optional(), example: z.string().nullable().optional(), description: z.string().nullable().optional() })
  .describe('`{}` when the project has no naming pattern');
export type StateExportFeatureNaming = z.output<typeof StateExportFeatureNaming>;

/**
 * A project: `health` computed now, as the project's health report computes it (design D5); `featureCount` its
 * non-archived features; `memberCount` the distinct users holding a role in it, directly or through a group;
 * `favorite` always false (an export has no caller's favourites).
 */
export const StateExportProject = z.object({
  id: z.string(), name: z.string(), description: z.string().nullable(), health: z.number().min(0).max(100), featureCount: z.number().int(),
  memberCount: z.number().int(), createdAt: timestamp, updatedAt: timestamp.nullable(), favorite: z.boolean(), mode: z.enum(PROJECT_MODES),
  defaultStickiness: z.string(), featureNaming: StateExportFeatureNaming,
});
export type StateExportProject = z.output<typeof StateExportProject>;

export const StateExportFeatureTag = z.object({ featureName: z.string(), tagType: z.string(), tagValue: z.string(), createdByUserId: z.number().int().nullable() });
export type StateExportFeatureTag = z.output<typeof StateExportFeatureTag>;

/** A feature strategy: `strategyName`, not `name`; no sort order (the list's order is the evaluation order) and no segments. */
export const StateExportFeatureStrategy = z.object({
  id: z.string(), featureName: z.string(), projectId: z.string(), environment: z.string(), strategyName: z.string(), title: z.string().nullable(),
  parameters: z.record(z.string(), z.string()), constraints: z.array(Constraint), variants: z.array(StrategyVariant), createdAt: timestamp, disabled: z.boolean(),
});
export type StateExportFeatureStrategy = z.output<typeof StateExportFeatureStrategy>;

export const StateExportEnvironment = z.object({ name: z.string(), type: z.string(), sortOrder: z.number().int(), enabled: z.boolean(), protected: z.boolean() });
export type StateExportEnvironment = z.output<typeof StateExportEnvironment>;

export const StateExportFeatureEnvironment = z.object({ enabled: z.boolean(), featureName: z.string(), environment: z.string(), variants: z.array(SentVariant) });
export type StateExportFeatureEnvironment = z.output<typeof StateExportFeatureEnvironment>;

export const StateExportFeatureStrategySegment = z.object({ featureStrategyId: z.string(), segmentId: z.number().int() });
export type StateExportFeatureStrategySegment = z.output<typeof StateExportFeatureStrategySegment>;

/** The whole export: every key always present; a section left out is an empty list. */
export const StateExport = named('StateExport', z.object({
  version: z.literal(4),
  features: z.array(StateExportFeature),
  strategies: z.array(StrategyDefinition).describe('The custom strategy types'),
  projects: z.array(StateExportProject),
  tagTypes: z.array(TagType),
  tags: z.array(Tag),
  featureTags: z.array(StateExportFeatureTag),
  featureStrategies: z.array(StateExportFeatureStrategy),
  environments: z.array(StateExportEnvironment),
  featureEnvironments: z.array(StateExportFeatureEnvironment),
  segments: z.array(Segment),
  featureStrategySegments: z.array(StateExportFeatureStrategySegment),
}), 'The whole configuration (deprecated export): every key is present; a section left out is an empty list');
export type StateExport = z.output<typeof StateExport>;
