import type { Project, ProjectEnvironmentLink } from '../domain/projects/project.service';
import { PROJECT_MODES } from '../domain/projects/project.service';
import { builder } from './builder';
import { defined } from './input';

const ProjectModeEnum = builder.enumType('ProjectMode', {
  description: 'Who may submit change requests and see the project: open, protected or private.',
  values: Object.fromEntries(PROJECT_MODES.map((m) => [m, { value: m }])) as Record<(typeof PROJECT_MODES)[number], { value: (typeof PROJECT_MODES)[number] }>,
});

const FeatureNamingRef = builder.objectRef<Project['featureNaming']>('FeatureNaming').implement({
  description: 'The project\'s feature naming pattern.',
  fields: (t) => ({
    pattern: t.exposeString('pattern', { nullable: true, description: 'JavaScript regular expression without delimiters; null when unset.' }),
    example: t.exposeString('example', { nullable: true, description: 'A name that matches the pattern.' }),
    description: t.exposeString('description', { nullable: true, description: 'Shown when a feature is created.' }),
  }),
});

const ProjectEnvironmentRef = builder.objectRef<ProjectEnvironmentLink>('ProjectEnvironment').implement({
  description: 'An environment available in a project.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'Environment name.' }),
    defaultStrategy: t.expose('defaultStrategy', { type: 'JSON', nullable: true, description: 'Strategy added when a feature is enabled with none; null for the built-in default.' }),
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
    environments: t.loadableList({
      type: ProjectEnvironmentRef,
      description: 'Environments available in the project (switched-off ones are left out).',
      load: async (ids: string[], ctx) => {
        const links = await ctx.services.projects.environmentLinks(ids);
        return ids.map((id) => links.get(id) ?? []);
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

const CreateProjectInput = builder.inputType('CreateProjectInput', {
  description: 'A new project.',
  fields: (t) => ({
    id: t.string({ required: true, description: 'URL-friendly id, 1..100 characters.' }),
    name: t.string({ required: true, description: projectFields.name }),
    description: t.string({ description: projectFields.description }),
    mode: t.field({ type: ProjectModeEnum, description: 'Collaboration mode (default open).' }),
    defaultStickiness: t.string({ description: projectFields.defaultStickiness }),
    featureLimit: t.int({ description: projectFields.featureLimit }),
  }),
});
const UpdateProjectInput = builder.inputType('UpdateProjectInput', {
  description: 'New values for a project; absent optional fields are untouched.',
  fields: (t) => ({
    id: t.string({ required: true, description: 'The project to change.' }),
    name: t.string({ required: true, description: projectFields.name }),
    description: t.string({ description: projectFields.description }),
    mode: t.field({ type: ProjectModeEnum, description: 'Collaboration mode.' }),
    defaultStickiness: t.string({ description: projectFields.defaultStickiness }),
    featureLimit: t.int({ description: projectFields.featureLimit }),
  }),
});
const ProjectIdInput = builder.inputType('ProjectIdInput', {
  description: 'Names one project.',
  fields: (t) => ({ id: t.string({ required: true, description: 'Project id.' }) }),
});
const ProjectEnvironmentInput = builder.inputType('ProjectEnvironmentInput', {
  description: 'A project and an environment.',
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project id.' }),
    environment: t.string({ required: true, description: 'Environment name.' }),
  }),
});

builder.mutationFields((t) => ({
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
