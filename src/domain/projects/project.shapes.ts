import { z } from 'zod';
import { named, timestamp } from '../shapes';

/** What both doors answer for projects (src/domain/shapes.ts says how shapes are used). */

export const PROJECT_MODES = ['open', 'protected', 'private'] as const;
export type ProjectMode = (typeof PROJECT_MODES)[number];

/** A strategy configuration stored as JSON (a project environment's default strategy): open data. */
export const StoredStrategy = z.record(z.string(), z.unknown()).describe('A strategy as configured: name, title, parameters, constraints, variants, segments');

export const ProjectFeatureNaming = named('ProjectFeatureNaming', z.object({
  pattern: z.string().nullable().describe('A JavaScript regular expression the whole feature name must match; null: any name'),
  example: z.string().nullable(),
  description: z.string().nullable(),
}));
export type ProjectFeatureNaming = z.output<typeof ProjectFeatureNaming>;

const projectFields = {
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mode: z.enum(PROJECT_MODES),
  defaultStickiness: z.string(),
  featureLimit: z.number().int().nullable().describe('Most non-archived features the project may hold; null: no limit'),
  featureNaming: ProjectFeatureNaming,
  health: z.number().int().describe('Health rating 0–100, computed now'),
  createdAt: timestamp,
  updatedAt: timestamp.nullable(),
};

export const Project = named('Project', z.object(projectFields));
export type Project = z.output<typeof Project>;

/** An environment a project uses (switched-off environments are left out of every list of them). */
export const ProjectEnvironment = named('ProjectEnvironment', z.object({
  environment: z.string(),
  defaultStrategy: StoredStrategy.nullable().describe('The strategy added when a feature is switched on with none; null: a 100 % gradual rollout'),
}));
export type ProjectEnvironment = z.output<typeof ProjectEnvironment>;

const featureCount = z.number().int().describe('Non-archived features of the project');
/** REST's `favorite` of a project (the project list, details and health report). */
export const favorite = z.literal(false).describe('Always false: favorites are not kept');

/** A project of REST's list: with its feature count, and `favorite` (REST's). */
export const ProjectOverview = named('ProjectOverview', z.object({ ...projectFields, featureCount, favorite }));

/** One project as REST answers it: with its feature count and environments, in REST's envelope (`version`, `favorite`). */
export const ProjectDetails = named('ProjectDetails', z.object({
  version: z.literal(1),
  ...projectFields,
  featureCount,
  environments: z.array(ProjectEnvironment).describe('Its environments that are switched on'),
  favorite,
}));
