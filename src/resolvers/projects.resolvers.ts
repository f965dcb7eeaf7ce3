import { NotFoundError } from '../domain/errors';
import type { OverviewEnvironment, OverviewFeature } from '../domain/projects/feature-overview.shapes';
import type { HealthReportEnvironment, ProjectHealthReport, ProjectStats } from '../domain/projects/health-report.shapes';
import { PROJECT_MODES, type Project, type ProjectEnvironment } from '../domain/projects/project.shapes';
import { createSchema, linkSchema, settingsSchema, updateSchema } from '../domain/projects/project.service';
import { featureNamingSchema } from '../domain/projects/feature-naming';
import { WEIGHTS } from './cost';
import { builder } from './builder';
import { defined } from './input';
import { TagRef } from './tags.resolvers';
import { enumType, zodInput } from './zod-input';

const ProjectModeEnum = enumType('ProjectMode', PROJECT_MODES, {
  description: 'Who may submit change requests and see the project: open, protected or private.',
});

const FeatureNamingRef = builder.objectRef<Project['featureNaming']>('FeatureNaming').implement({
  description: 'The project\'s feature naming pattern.',
  fields: (t) => ({
    pattern: t.exposeString('pattern', { nullable: true, description: 'JavaScript regular expression without delimiters; null when unset.' }),
    example: t.exposeString('example', { nullable: true, description: 'A name that matches the pattern.' }),
    description: t.exposeString('description', { nullable: true, description: 'Shown when a feature is created.' }),
  }),
});

const ProjectEnvironmentRef = builder.objectRef<ProjectEnvironment>('ProjectEnvironment').implement({
  description: 'An environment available in a project.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'Environment name.' }),
    defaultStrategy: t.expose('defaultStrategy', { type: 'JSON', nullable: true, description: 'Strategy added when a feature is enabled with none; null for the built-in default.' }),
  }),
});

const HealthReportFeatureEnvironmentRef = builder.objectRef<OverviewEnvironment>('HealthReportFeatureEnvironment').implement({
  description: 'A feature\'s state in one environment of its project, as the health report shows it.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Environment name.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the feature is enabled in the environment.' }),
    type: t.exposeString('type', { description: 'Environment type (for example production).' }),
    sortOrder: t.exposeInt('sortOrder', { description: 'Ordering hint of the environment; ties are ordered by name.' }),
    variantCount: t.exposeInt('variantCount', { description: 'Number of feature variants in the environment.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true, description: 'When an SDK last reported the feature in the environment.' }),
    hasStrategies: t.exposeBoolean('hasStrategies', { description: 'Whether the feature has any strategy in the environment.' }),
    hasEnabledStrategies: t.exposeBoolean('hasEnabledStrategies', { description: 'Whether at least one of those strategies is not disabled.' }),
  }),
});

const HealthReportFeatureRef = builder.objectRef<OverviewFeature>('HealthReportFeature').implement({
  description: 'A non-archived feature of the project, as the health report shows it.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Feature name.' }),
    type: t.exposeString('type', { description: 'Feature type (release, experiment, operational, kill-switch, permission).' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    stale: t.exposeBoolean('stale', { description: 'Whether the feature is marked stale.' }),
    impressionData: t.exposeBoolean('impressionData', { description: 'Whether SDKs emit impression events for it.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true, description: 'When an SDK last reported the feature, in any environment (deprecated in Unleash v5.8, which keeps this time per environment).' }),
    environments: t.field({
      type: [HealthReportFeatureEnvironmentRef],
      description: 'The project\'s switched-on environments, by sort order then name.',
      resolve: (f) => f.environments,
    }),
    tags: t.field({ type: [TagRef], description: 'Tags of the feature (empty when none; REST then leaves `tags` out).', resolve: (f) => f.tags }),
  }),
});

const HealthReportEnvironmentRef = builder.objectRef<HealthReportEnvironment>('ProjectHealthReportEnvironment').implement({
  description: 'An environment of the project, as the health report lists it.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'Environment name.' }),
    changeRequestsEnabled: t.exposeBoolean('changeRequestsEnabled', { description: 'Whether changes in the environment need a change request.' }),
    defaultStrategy: t.expose('defaultStrategy', { type: 'JSON', nullable: true, description: 'Strategy added when a feature is enabled with none; null for the built-in default.' }),
  }),
});

const ProjectStatsRef = builder.objectRef<ProjectStats>('ProjectStats').implement({
  description: 'Project activity figures, computed on request. Current window: the last 30 days; past window: 60 to 30 days ago.',
  fields: (t) => ({
    avgTimeToProdCurrentWindow: t.exposeFloat('avgTimeToProdCurrentWindow', {
      description: 'Average whole days from creating a release feature to first enabling it in a production-type environment (all release features of the project, 1 decimal; 0 when none).',
    }),
    createdCurrentWindow: t.exposeInt('createdCurrentWindow', { description: 'Non-archived features created in the current window.' }),
    createdPastWindow: t.exposeInt('createdPastWindow', { description: 'Non-archived features created in the past window.' }),
    archivedCurrentWindow: t.exposeInt('archivedCurrentWindow', { description: 'Features archived in the current window.' }),
    archivedPastWindow: t.exposeInt('archivedPastWindow', { description: 'Features archived in the past window.' }),
    projectActivityCurrentWindow: t.exposeInt('projectActivityCurrentWindow', { description: 'Audit events of the project in the current window.' }),
    projectActivityPastWindow: t.exposeInt('projectActivityPastWindow', { description: 'Audit events of the project in the past window.' }),
    projectMembersAddedCurrentWindow: t.exposeInt('projectMembersAddedCurrentWindow', { description: 'Users given a project role in the current window.' }),
  }),
});

const ProjectHealthReportRef = builder.objectRef<ProjectHealthReport>('ProjectHealthReport').implement({
  description: 'The project\'s technical-debt overview (REST: GET /api/admin/projects/:projectId/health-report), computed live on each request.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Project display name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Project description.' }),
    defaultStickiness: t.exposeString('defaultStickiness', { description: 'Stickiness used by new gradual rollouts.' }),
    mode: t.field({ type: ProjectModeEnum, description: 'Collaboration mode.', resolve: (r) => r.mode }),
    featureLimit: t.exposeInt('featureLimit', { nullable: true, description: 'Maximum number of features; null means no limit.' }),
    members: t.exposeInt('members', { description: 'Users holding a role in the project.' }),
    health: t.exposeInt('health', { description: 'round(100 − 100·stale/total − 100·potentiallyStale/total) over non-archived features; 100 without features.' }),
    environments: t.field({ type: [HealthReportEnvironmentRef], description: 'The project\'s switched-on environments, by sort order then name.', resolve: (r) => r.environments }),
    features: t.field({ type: [HealthReportFeatureRef], description: 'Non-archived features of the project, by name.', resolve: (r) => r.features }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'Last update of the project.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation of the project.' }),
    stats: t.field({ type: ProjectStatsRef, description: 'Activity figures over the current and past 30-day windows.', resolve: (r) => r.stats }),
    featureNaming: t.field({ type: FeatureNamingRef, description: 'Feature naming pattern.', resolve: (r) => r.featureNaming }),
    potentiallyStaleCount: t.exposeInt('potentiallyStaleCount', { description: 'Non-stale features older than their type\'s lifetime.' }),
    activeCount: t.exposeInt('activeCount', { description: 'Non-stale features.' }),
    staleCount: t.exposeInt('staleCount', { description: 'Stale features.' }),
  }),
});

export const ProjectRef = builder.objectRef<Project>('Project').implement({
  description: 'A project groups features and their environments.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Unique, URL-friendly id.' }),
    name: t.exposeString('name', { description: 'Display name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    mode: t.field({ type: ProjectModeEnum, description: 'Collaboration mode.', resolve: (p) => p.mode }),
    defaultStickiness: t.exposeString('defaultStickiness', { description: 'Stickiness used by new gradual rollouts.' }),
    featureLimit: t.exposeInt('featureLimit', { nullable: true, description: 'Maximum number of features; null means no limit.' }),
    featureNaming: t.field({ type: FeatureNamingRef, description: 'Feature naming pattern.', resolve: (p) => p.featureNaming }),
    health: t.exposeInt('health', { description: 'Health rating 0..100.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'Last update time.' }),
    featureCount: t.loadable({
      type: 'Int',
      description: 'Number of non-archived features.',
      load: async (ids: string[], ctx) => {
        const counts = await ctx.services.projects.featureCounts(ids);
        return ids.map((id) => counts.get(id) ?? 0);
      },
      resolve: (p) => p.id,
    }),
    memberCount: t.loadable({
      type: 'Int',
      description: 'Distinct users holding a role in the project, directly or through a group (as the state export\'s memberCount).',
      load: async (ids: string[], ctx) => {
        const counts = await ctx.services.projects.memberCounts(ids);
        return ids.map((id) => counts.get(id) ?? 0);
      },
      resolve: (p) => p.id,
    }),
    environments: t.loadableList({
      type: ProjectEnvironmentRef,
      description: 'Environments available in the project (switched-off ones are left out).',
      load: async (ids: string[], ctx) => {
        const links = await ctx.services.projects.environmentLinks(ids);
        return ids.map((id) => links.get(id) ?? []);
      },
      resolve: (p) => p.id,
    }),
    healthReport: t.loadable({
      type: ProjectHealthReportRef,
      complexity: WEIGHTS.healthReport,
      description: 'The health report of the project (REST GET /api/admin/projects/:projectId/health-report), computed live.',
      load: async (ids: string[], ctx) => {
        const reports = new Map((await ctx.services.healthReports.healthReports(ids)).map((r) => [r.id, r]));
        return ids.map((id) => reports.get(id) ?? new NotFoundError('No project found'));
      },
      resolve: (p) => p.id,
    }),
  }),
});

builder.queryFields((t) => ({
  projects: t.field({
    type: [ProjectRef],
    description: 'Every project, by name.',
    resolve: (_root, _args, ctx) => ctx.services.projects.list(),
  }),
  project: t.field({
    type: ProjectRef,
    description: 'One project; a NotFoundError when it does not exist.',
    args: { id: t.arg.string({ required: true, description: 'Project id.' }) },
    resolve: (_root, args, ctx) => ctx.services.projects.get(args.id),
  }),
}));

const projectFields = {
  name: 'Display name, 1..100 characters.',
  description: 'Free text, up to 1000 characters.',
  defaultStickiness: 'Stickiness for new gradual rollouts (default "default").',
  featureLimit: 'Maximum number of features; null for no limit.',
};

const CreateProjectInput = zodInput('CreateProjectInput', createSchema, {
  description: 'A new project.',
  descriptions: { ...projectFields, id: 'URL-friendly id, 1..100 characters.', mode: 'Collaboration mode (default open).' },
});
const UpdateProjectInput = zodInput('UpdateProjectInput', updateSchema, {
  description: 'New values for a project; absent optional fields are untouched.',
  descriptions: { ...projectFields, mode: 'Collaboration mode.' },
  fields: (t) => ({ id: t.string({ required: true, description: 'The project to change.' }) }),
});
const ProjectIdInput = builder.inputType('ProjectIdInput', {
  description: 'Names one project.',
  fields: (t) => ({ id: t.string({ required: true, description: 'Project id.' }) }),
});
const ProjectEnvironmentInput = zodInput('ProjectEnvironmentInput', linkSchema, {
  description: 'A project and an environment.',
  descriptions: { environment: 'Environment name.' },
  fields: (t) => ({ project: t.string({ required: true, description: 'Project id.' }) }),
});

// Built for the settings input that holds it.
zodInput('FeatureNamingInput', featureNamingSchema, {
  description: 'A feature naming pattern; a null pattern clears the example and description too.',
  descriptions: {
    pattern: 'JavaScript regular expression without delimiters or flags, applied as ^(?:pattern)$; at most 500 characters; null clears it.',
    example: 'A name that matches the pattern.',
    description: 'Shown when a feature is created.',
  },
});
const UpdateProjectSettingsInput = zodInput('UpdateProjectSettingsInput', settingsSchema, {
  description: 'New project settings; absent fields are untouched.',
  descriptions: { mode: 'Collaboration mode.', featureNaming: 'Feature naming pattern.' },
  fields: (t) => ({ project: t.string({ required: true, description: 'The project to change.' }) }),
});

builder.mutationFields((t) => ({
  updateProjectSettings: t.field({
    type: ProjectRef,
    description: 'Sets a project\'s collaboration mode and/or feature naming pattern (permission UPDATE_PROJECT). Event project-updated when something changed.',
    args: { input: t.arg({ type: UpdateProjectSettingsInput, required: true, description: 'The project and its new settings.' }) },
    // GraphQL cannot say "required but nullable": an absent pattern is taken as null (clearing the pattern).
    resolve: (_root, { input: { project, featureNaming, ...rest } }, ctx) => ctx.services.projects.updateSettings(project, defined({
      ...rest,
      featureNaming: featureNaming ? { ...defined(featureNaming), pattern: featureNaming.pattern ?? null } : featureNaming,
    }) as never),
  }),
  createProject: t.field({
    type: ProjectRef,
    description: 'Creates a project with every switched-on environment (permission CREATE_PROJECT). Event project-created.',
    args: { input: t.arg({ type: CreateProjectInput, required: true, description: 'The project to create.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.projects.create(defined(input) as never),
  }),
  updateProject: t.field({
    type: ProjectRef,
    description: 'Changes a project (permission UPDATE_PROJECT). Event project-updated.',
    args: { input: t.arg({ type: UpdateProjectInput, required: true, description: 'The project and its new values.' }) },
    resolve: (_root, { input: { id, ...rest } }, ctx) => ctx.services.projects.update(id, defined(rest) as never),
  }),
  deleteProject: t.boolean({
    description: 'Deletes a project without features (permission DELETE_PROJECT); the default project cannot be deleted. Event project-deleted.',
    args: { input: t.arg({ type: ProjectIdInput, required: true, description: 'The project to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.projects.remove(input.id);
      return true;
    },
  }),
  addEnvironmentToProject: t.field({
    type: ProjectRef,
    description: 'Makes a switched-on environment available in a project (permission UPDATE_PROJECT). Event project-environment-added.',
    args: { input: t.arg({ type: ProjectEnvironmentInput, required: true, description: 'The project and the environment to add to it.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.projects.addEnvironment(input.project, { environment: input.environment }),
  }),
  removeEnvironmentFromProject: t.field({
    type: ProjectRef,
    description: 'Removes an environment from a project with its feature configuration there (permission UPDATE_PROJECT). Event project-environment-removed.',
    args: { input: t.arg({ type: ProjectEnvironmentInput, required: true, description: 'The project and the environment to remove from it.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.projects.removeEnvironment(input.project, input.environment),
  }),
}));
