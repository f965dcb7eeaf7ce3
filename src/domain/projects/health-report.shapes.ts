import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { HealthReportFeature } from './feature-overview.shapes';
import type { OverviewFeature } from './feature-overview.shapes';
import { favorite, PROJECT_MODES, ProjectFeatureNaming, StoredStrategy } from './project.shapes';

/** The project health report (health-report.service.ts gives the definitions; src/domain/shapes.ts says how shapes are used). */

const ProjectStats = z.object({
  avgTimeToProdCurrentWindow: z.number(),
  createdCurrentWindow: z.number().int(),
  createdPastWindow: z.number().int(),
  archivedCurrentWindow: z.number().int(),
  archivedPastWindow: z.number().int(),
  projectActivityCurrentWindow: z.number().int(),
  projectActivityPastWindow: z.number().int(),
  projectMembersAddedCurrentWindow: z.number().int(),
});
export type ProjectStats = z.output<typeof ProjectStats>;

const reportFields = {
  name: z.string(),
  description: z.string().nullable(),
  defaultStickiness: z.string(),
  mode: z.enum(PROJECT_MODES),
  featureLimit: z.number().int().nullable(),
  members: z.number().int(),
  health: z.number().int(),
  environments: z.array(z.object({
    environment: z.string(),
    changeRequestsEnabled: z.boolean(),
    defaultStrategy: StoredStrategy.optional().describe('Only when the project environment has one configured'),
  })),
  features: z.array(HealthReportFeature).describe('Its non-archived features'),
  updatedAt: timestamp.nullable(),
  createdAt: timestamp,
  stats: ProjectStats.describe('Current window: the last 30 days; past window: the 30 days before'),
  featureNaming: ProjectFeatureNaming,
  potentiallyStaleCount: z.number().int(),
  activeCount: z.number().int(),
  staleCount: z.number().int(),
};

/** The report as REST answers it: in REST's envelope (`version`, `favorite`). */
export const ProjectHealthReport = named('ProjectHealthReport', z.object({ version: z.literal(1), ...reportFields, favorite }));

/** An environment of the project as the report lists it; `defaultStrategy` null when the built-in default is used (REST then leaves it out). */
export type HealthReportEnvironment = Omit<z.output<typeof reportFields.environments.element>, 'defaultStrategy'> & { defaultStrategy: Record<string, unknown> | null };

/**
 * The report as the service builds it, without REST's envelope: with the project's `id` (GraphQL's batches match
 * reports to projects by it), `defaultStrategy` null rather than absent, and its features as the project's feature
 * overview holds them (feature-overview.read-model.ts).
 */
export type ProjectHealthReport = Omit<z.output<typeof ProjectHealthReport>, 'version' | 'favorite' | 'environments' | 'features'> & {
  id: string;
  environments: HealthReportEnvironment[];
  features: readonly OverviewFeature[];
};
