import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ProjectSchema = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.text().primary(),
    name: p.text(),
    description: p.text().nullable(),
    mode: p.enum(['open', 'protected', 'private']).default('open'),
    defaultStickiness: p.text().default('default'),
    featureLimit: p.integer().nullable(),
    featureNamingPattern: p.text().nullable(),
    featureNamingExample: p.text().nullable(),
    featureNamingDescription: p.text().nullable(),
    health: p.integer().default(100),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    updatedAt: p.datetime().nullable(),
  },
});
export type ProjectRow = InferEntity<typeof ProjectSchema>;

/**
 * A project's link to an environment, with the environment's default strategy for new features and its change-request
 * configuration (migration 0013: whether direct changes need a change request, and how many approvals one needs).
 */
export const ProjectEnvironmentSchema = defineEntity({
  name: 'ProjectEnvironment',
  tableName: 'project_environments',
  properties: {
    projectId: p.text().primary(),
    environmentName: p.text().primary(),
    defaultStrategy: p.json<Record<string, unknown>>().nullable(),
    changeRequestsEnabled: p.boolean().default(false),
    requiredApprovals: p.integer().default(1),
  },
});
export type ProjectEnvironmentRow = InferEntity<typeof ProjectEnvironmentSchema>;
