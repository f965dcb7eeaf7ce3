import { z } from 'zod';
import {
  createSchema as createProjectSchema, linkSchema, settingsSchema, updateSchema as updateProjectSchema,
} from '../../../domain/projects/project.service';
import { updateSchema as changeRequestConfigSchema } from '../../../domain/change-requests/change-request-config.service';
import {
  changeListSchema, changeSchema, commentSchema, stateSchema, titleSchema,
} from '../../../domain/change-requests/change-request.schemas';
import { previewSchema } from '../../../domain/change-requests/change-request-preview.service';
import { createSchema as createEnvironmentSchema, updateSchema as updateEnvironmentSchema } from '../../../domain/environments/environment.service';
import {
  contextFieldCreateSchema, legalValue, updateSchema as updateContextFieldSchema, validateSchema as validateContextFieldSchema,
} from '../../../domain/context/context-field.service';
import { createSchema as createStrategySchema, updateSchema as updateStrategySchema } from '../../../domain/strategies/strategy-definition.service';
import {
  createSchema as createSegmentSchema, updateSchema as updateSegmentSchema, validateSchema as validateSegmentSchema,
} from '../../../domain/segments/segment.service';
import { Project, ProjectDetails, ProjectOverview } from '../../../domain/projects/project.shapes';
import { ProjectHealthReport } from '../../../domain/projects/health-report.shapes';
import { ChangeRequest, ChangeRequestComment, ChangeRequestConfig } from '../../../domain/change-requests/change-request.shapes';
import { ChangeRequestPreview } from '../../../domain/change-requests/change-request-preview.shapes';
import { Environment } from '../../../domain/environments/environment.shapes';
import { ContextField } from '../../../domain/context/context-field.shapes';
import { StrategyDefinition } from '../../../domain/strategies/strategy-definition.shapes';
import { Segment, SegmentStrategy } from '../../../domain/segments/segment.shapes';
import { version1, type RouteDocs } from '../describe';

const P = '/api/admin/projects';
const CR = `${P}/:projectId/change-requests`;

const projects: RouteDocs = {
  [`GET ${P}`]: {
    tag: 'Projects', summary: 'List projects with their feature counts',
    responses: { 200: z.object({ version: version1, projects: z.array(ProjectOverview) }) },
  },
  [`POST ${P}`]: {
    tag: 'Projects', summary: 'Create a project',
    description: 'The new project gets every environment that is switched on. A user who creates it becomes its owner.',
    body: createProjectSchema, responses: { 201: Project }, errors: ['NameExistsError'],
  },
  [`GET ${P}/:id`]: {
    tag: 'Projects', summary: 'Get a project with its environments and feature count',
    responses: { 200: ProjectDetails },
  },
  [`PUT ${P}/:id`]: {
    tag: 'Projects', summary: 'Update a project',
    description: 'Properties left out are kept; `id` may be repeated but must equal the one in the path.',
    body: updateProjectSchema, responses: { 200: Project },
  },
  [`DELETE ${P}/:id`]: {
    tag: 'Projects', summary: 'Delete a project',
    description: 'Refused for the default project and for a project that still holds features (archived ones included).',
    responses: { 200: null }, errors: ['InvalidOperationError'],
  },
  [`POST ${P}/:id/environments`]: {
    tag: 'Projects', summary: 'Add an environment to a project',
    description: 'Every feature of the project gets a disabled configuration in it. The environment must be switched on.',
    body: linkSchema, responses: { 200: null }, errors: ['NameExistsError'],
  },
  [`DELETE ${P}/:id/environments/:environment`]: {
    tag: 'Projects', summary: 'Remove an environment from a project',
    description: 'Deletes the project’s feature configurations in that environment. A project keeps at least one environment.',
    responses: { 200: null },
  },
  [`PUT ${P}/:projectId/settings`]: {
    tag: 'Project settings', summary: 'Update a project’s collaboration mode and feature naming pattern',
    description: 'Properties left out are kept. `featureNaming: {pattern: null}` removes the pattern with its example and description.',
    body: settingsSchema, responses: { 200: null },
  },
  [`GET ${P}/:projectId/health-report`]: {
    tag: 'Project settings', summary: 'Get a project’s health report',
    description: 'Computed when asked: the health rating, stale and potentially stale counts, and activity over the last 30 and 60 days.',
    responses: { 200: ProjectHealthReport },
  },
};

const changeRequests: RouteDocs = {
  [`GET ${CR}/config`]: {
    tag: 'Change requests', summary: 'Get the change request settings of each environment of a project',
    responses: { 200: z.array(ChangeRequestConfig) },
  },
  [`PUT ${P}/:projectId/environments/:environment/change-requests/config`]: {
    tag: 'Change requests', summary: 'Turn change requests on or off for a project environment',
    description: '`requiredApprovals` (1 to 10) is kept when left out.',
    body: changeRequestConfigSchema, responses: { 204: null },
  },
  [`POST ${P}/:projectId/environments/:environment/change-requests`]: {
    tag: 'Change requests', summary: 'Add changes to your draft change request',
    description: 'Adds one change, or a list of them, to your draft for the project environment, creating the draft when you have none. '
      + 'Each change needs the permission making it directly would need, and must name things that exist. Answers the whole request.',
    body: z.union([changeSchema, changeListSchema]), responses: { 200: ChangeRequest },
  },
  [`GET ${CR}/open`]: {
    tag: 'Change requests', summary: 'List a project’s open change requests',
    description: 'Requests in Draft, In review, Approved or Scheduled, newest first.',
    responses: { 200: z.array(ChangeRequest) },
  },
  [`GET ${CR}/pending/:featureName`]: {
    tag: 'Change requests', summary: 'List the open change requests that change a feature',
    responses: { 200: z.array(ChangeRequest) },
  },
  [`GET ${CR}/:id`]: {
    tag: 'Change requests', summary: 'Get a change request',
    responses: { 200: ChangeRequest },
  },
  [`PUT ${CR}/:id/changes/:changeId`]: {
    tag: 'Change requests', summary: 'Replace one change of a change request',
    description: 'The old change is removed and the new one gets a new id. Only the author, while the request is Draft or In review; '
      + 'approvals given so far are withdrawn.',
    body: changeSchema, responses: { 200: ChangeRequest }, errors: ['ForbiddenError', 'ConflictError'],
  },
  [`DELETE ${CR}/:id/changes/:changeId`]: {
    tag: 'Change requests', summary: 'Discard one change of a change request',
    description: 'Only the author, while the request is Draft or In review. A request left without changes is discarded.',
    responses: { 200: null }, errors: ['ForbiddenError', 'ConflictError'],
  },
  [`PUT ${CR}/:id/title`]: {
    tag: 'Change requests', summary: 'Rename a change request',
    description: 'Only the author, while the request is Draft or In review.',
    body: titleSchema, responses: { 204: null }, errors: ['ForbiddenError', 'ConflictError'],
  },
  [`PUT ${CR}/:id/state`]: {
    tag: 'Change requests', summary: 'Move a change request to another state',
    description: 'The author sends a Draft to review; another user with APPROVE_CHANGE_REQUEST approves or rejects it; '
      + 'APPLY_CHANGE_REQUEST applies or schedules an Approved request (`scheduledAt` in the future); the author or someone who may '
      + 'apply it cancels an open one. A move the current state does not allow answers 409. Answers the whole request.',
    body: stateSchema, responses: { 200: ChangeRequest },
    errors: ['ForbiddenError', 'ConflictError', 'InvalidOperationError', 'NameExistsError'],
  },
  [`POST ${CR}/:id/comments`]: {
    tag: 'Change requests', summary: 'Comment on a change request',
    body: commentSchema, responses: { 201: ChangeRequestComment },
  },
  [`POST ${CR}/:id/preview`]: {
    tag: 'Change requests', summary: 'Preview what a change request would change for some contexts',
    description: 'Applies the request’s changes to a copy of its environment and evaluates each context (1 to 1000, as the playground does) '
      + 'before and after, for every feature the request affects. Nothing is written.',
    body: previewSchema, responses: { 200: ChangeRequestPreview },
  },
};

const E = '/api/admin/environments';
const environments: RouteDocs = {
  [`GET ${E}`]: {
    tag: 'Environments', summary: 'List environments',
    responses: { 200: z.object({ version: version1, environments: z.array(Environment) }) },
  },
  [`GET ${E}/project/:projectId`]: {
    tag: 'Environments', summary: 'List the environments of a project',
    description: 'Only the environments that are switched on.',
    responses: { 200: z.object({ version: version1, environments: z.array(Environment) }) },
  },
  [`GET ${E}/:name`]: { tag: 'Environments', summary: 'Get an environment', responses: { 200: Environment } },
  [`POST ${E}`]: {
    tag: 'Environments', summary: 'Create an environment',
    body: createEnvironmentSchema, responses: { 201: Environment }, errors: ['NameExistsError'],
  },
  [`PUT ${E}/:name`]: {
    tag: 'Environments', summary: 'Update an environment’s type and sort order',
    body: updateEnvironmentSchema, responses: { 200: Environment },
  },
  [`DELETE ${E}/:name`]: {
    tag: 'Environments', summary: 'Delete an environment',
    description: 'Refused while it is the only environment of a project.',
    responses: { 200: null },
  },
  [`POST ${E}/:name/on`]: {
    tag: 'Environments', summary: 'Switch an environment on',
    description: 'Makes it available to the projects it is linked to again.',
    responses: { 204: null },
  },
  [`POST ${E}/:name/off`]: {
    tag: 'Environments', summary: 'Switch an environment off',
    description: 'Removes it from the environments available to projects; the feature configurations in it are kept.',
    responses: { 204: null },
  },
};

const C = '/api/admin/context';
const context: RouteDocs = {
  [`GET ${C}`]: { tag: 'Context', summary: 'List context fields', responses: { 200: z.array(ContextField) } },
  [`POST ${C}/validate`]: {
    tag: 'Context', summary: 'Check that a context field name is valid and free',
    body: validateContextFieldSchema, responses: { 200: null }, errors: ['NameExistsError'],
  },
  [`GET ${C}/:name`]: { tag: 'Context', summary: 'Get a context field', responses: { 200: ContextField } },
  [`POST ${C}`]: {
    tag: 'Context', summary: 'Create a context field',
    body: contextFieldCreateSchema, responses: { 201: ContextField }, errors: ['NameExistsError'],
  },
  [`PUT ${C}/:name`]: {
    tag: 'Context', summary: 'Update a context field',
    description: 'Properties left out are kept; `legalValues`, when sent, replaces the list.',
    body: updateContextFieldSchema, responses: { 200: ContextField },
  },
  [`DELETE ${C}/:name`]: { tag: 'Context', summary: 'Delete a context field', responses: { 200: null } },
  [`POST ${C}/:name/legal-values`]: {
    tag: 'Context', summary: 'Add a legal value to a context field, or change its description',
    body: legalValue, responses: { 200: ContextField },
  },
  [`DELETE ${C}/:name/legal-values/:value`]: {
    tag: 'Context', summary: 'Remove a legal value from a context field',
    responses: { 200: ContextField },
  },
};

const S = '/api/admin/strategies';
const strategies: RouteDocs = {
  [`GET ${S}`]: {
    tag: 'Strategies', summary: 'List strategy types',
    responses: { 200: z.object({ version: version1, strategies: z.array(StrategyDefinition) }) },
  },
  [`GET ${S}/:name`]: { tag: 'Strategies', summary: 'Get a strategy type', responses: { 200: StrategyDefinition } },
  [`POST ${S}`]: {
    tag: 'Strategies', summary: 'Create a custom strategy type',
    body: createStrategySchema, responses: { 201: StrategyDefinition }, errors: ['NameExistsError'],
  },
  [`PUT ${S}/:name`]: {
    tag: 'Strategies', summary: 'Update a custom strategy type',
    description: 'Properties left out are kept; null empties a text. Built-in strategy types cannot be changed.',
    body: updateStrategySchema, responses: { 200: StrategyDefinition }, errors: ['InvalidOperationError'],
  },
  [`POST ${S}/:name/deprecate`]: {
    tag: 'Strategies', summary: 'Deprecate a strategy type',
    description: 'Every type but `default` can be deprecated.',
    responses: { 200: null }, errors: ['InvalidOperationError'],
  },
  [`POST ${S}/:name/reactivate`]: { tag: 'Strategies', summary: 'Reactivate a deprecated strategy type', responses: { 200: null } },
  [`DELETE ${S}/:name`]: {
    tag: 'Strategies', summary: 'Delete a custom strategy type',
    description: 'Refused for built-in types and for a type that feature strategies still use.',
    responses: { 200: null }, errors: ['InvalidOperationError'],
  },
};

const G = '/api/admin/segments';
const segments: RouteDocs = {
  [`GET ${G}`]: { tag: 'Segments', summary: 'List segments', responses: { 200: z.object({ segments: z.array(Segment) }) } },
  [`POST ${G}/validate`]: {
    tag: 'Segments', summary: 'Check that a segment name is valid and free',
    body: validateSegmentSchema, responses: { 204: null }, errors: ['NameExistsError'],
  },
  [`POST ${G}`]: {
    tag: 'Segments', summary: 'Create a segment',
    description: 'Without `project` (or with null) every project may use it. Its constraints name context fields that exist.',
    body: createSegmentSchema, responses: { 201: Segment }, errors: ['NameExistsError', 'NotFoundError'],
  },
  [`GET ${G}/:id`]: { tag: 'Segments', summary: 'Get a segment', responses: { 200: Segment } },
  [`PUT ${G}/:id`]: {
    tag: 'Segments', summary: 'Update a segment',
    description: '`name` is required; other properties left out are kept. A segment cannot move to a project while strategies of other projects use it.',
    body: updateSegmentSchema, responses: { 204: null }, errors: ['NameExistsError'],
  },
  [`DELETE ${G}/:id`]: {
    tag: 'Segments', summary: 'Delete a segment',
    description: 'Refused while a strategy uses it.',
    responses: { 204: null }, errors: ['InvalidOperationError'],
  },
  [`GET ${G}/:id/strategies`]: {
    tag: 'Segments', summary: 'List the strategies that use a segment',
    responses: { 200: z.object({ strategies: z.array(SegmentStrategy) }) },
  },
};

export const PROJECT_DOCS: RouteDocs = { ...projects, ...changeRequests, ...environments, ...context, ...strategies, ...segments };
