import { z } from 'zod';
import {
  cloneSchema, createSchema as createFeatureSchema, lifetimeSchema, namesSchema, staleSchema, tagSchema as featureTagSchema,
  updateSchema as updateFeatureSchema, validateSchema as validateFeatureSchema, dependencyPayloadSchema,
} from '../../../domain/features/feature.schemas';
import { batchVariantsSchema, strategyPayloadSchemas } from '../../../domain/features/feature-strategy.schemas';
import { moveSchema } from '../../../domain/features/feature-move.service';
import { patchSchema } from '../../../domain/features/json-patch';
import { featureVariantsSchema } from '../../../domain/features/variants';
import { pointSchema } from '../../../domain/history/point';
import { version1, type RouteDocs } from '../describe';
import { Tag } from '../../../domain/tags/tag.shapes';
import { Feature, FeatureArchived, FeatureEnvironment, FeatureStrategy, FeatureType } from '../../../domain/features/feature.shapes';
import { Variant } from '../../../domain/features/variant.shapes';
import { FeatureListItem } from '../../../domain/projects/feature-overview.shapes';

/** The answer of the variant routes: Unleash's envelope around a feature's variants in an environment. */
const FeatureVariants = z.object({ version: z.literal(1), variants: z.array(Variant) });

const F = '/api/admin/projects/:projectId/features/:featureName';
const FE = `${F}/environments/:environment`;

const features = 'Features';
const environments = 'Feature environments';
const strategies = 'Feature strategies';
const variants = 'Feature variants';
const dependencies = 'Feature dependencies';
const types = 'Feature types';
const archive = 'Archive';

const patchDescription = 'An RFC 6902 JSON patch (`[{op, path, value?, from?}]`).';
const strategyId = { strategyId: { description: 'The strategy’s id (uuid)' } };

export const FEATURE_DOCS: RouteDocs = {
  // ---- features of a project -------------------------------------------------------------------------------------
  'GET /api/admin/projects/:projectId/features': {
    tag: features, summary: 'List the active features of a project',
    description: 'Each feature with its environments (without strategies) and tags.',
    responses: { 200: z.object({ version: version1, features: z.array(FeatureListItem) }) },
  },
  'POST /api/admin/projects/:projectId/features': {
    tag: features, summary: 'Create a feature',
    description: 'The feature starts switched off, with no strategy, in every environment of the project. It must fit the project’s naming pattern and feature limit.',
    body: createFeatureSchema, responses: { 201: Feature }, errors: ['NameExistsError', 'PatternError', 'InvalidOperationError'],
  },
  [`GET ${F}`]: {
    tag: features, summary: 'Get a feature, with its environments, strategies, variants, tags and dependencies', query: pointSchema,
    description: 'With `at` (or `revision`): the feature as it was then, from its versions (404 where it did not exist; 400 before what history keeps). '
      + 'Environments are those of its project that are on now, with their type and order as now; `lastSeenAt` is null.',
    responses: { 200: Feature },
  },
  [`PUT ${F}`]: {
    tag: features, summary: 'Update a feature’s type, description, impression data or stale flag',
    description: 'Properties left out are kept. `name`, `project` and `archived` may be sent back as read but cannot change.',
    body: updateFeatureSchema, responses: { 200: Feature },
  },
  [`PATCH ${F}`]: {
    tag: features, summary: 'Patch a feature’s metadata',
    description: `${patchDescription} It applies to \`{name, project, type, description, impressionData, stale, archived}\`; only type, description, impressionData and stale may change.`,
    body: patchSchema, responses: { 200: Feature },
  },
  [`DELETE ${F}`]: {
    tag: features, summary: 'Archive a feature',
    description: 'A feature that active features depend on cannot be archived (archive them too).',
    responses: { 202: null }, errors: ['InvalidOperationError'],
  },
  [`POST ${F}/clone`]: {
    tag: features, summary: 'Copy a feature into this project under a new name',
    description: 'The copy gets the original’s type, description, impression data, environment variants, strategies (with their segments) and dependencies; it starts switched off. `replaceGroupId` (default true) makes the copy’s name the `groupId` of its strategies. Cloning into a project with change requests enabled is refused.',
    body: cloneSchema, responses: { 201: Feature }, errors: ['NameExistsError', 'PatternError', 'InvalidOperationError'],
  },
  [`POST ${F}/changeProject`]: {
    tag: features, summary: 'Move a feature to another project',
    description: 'The feature keeps its name, state, strategies, variants and tags, and takes the environments of the new project. '
      + 'The caller needs MOVE_FEATURE_TOGGLE in both projects. Refused while either project has change requests enabled (403 NoAccessError), '
      + 'for a feature with dependencies (403 ForbiddenError), where creating it in the new project would be (400 PatternError, 403 InvalidOperationError), '
      + 'and when its strategies use another project’s segment or it is configured in an environment the new project has not added (409 ConflictError). '
      + 'An unknown new project is 404. Moving to the project it is in changes nothing. Event feature-project-change.',
    body: moveSchema, responses: { 200: null }, errors: ['PatternError', 'InvalidOperationError', 'ConflictError'],
  },
  'POST /api/admin/projects/:projectId/stale': {
    tag: features, summary: 'Mark several features of a project stale, or not stale', body: staleSchema, responses: { 202: null },
  },
  'POST /api/admin/features/validate': {
    tag: features, summary: 'Check that a feature name is free (and fits a project’s naming pattern)',
    description: 'With `projectId`, the name must also fit that project’s naming pattern.',
    body: validateFeatureSchema, responses: { 200: null }, errors: ['NameExistsError', 'PatternError', 'NotFoundError'],
  },
  'POST /api/admin/features/:featureName/stale/on': { tag: features, summary: 'Mark a feature stale', responses: { 200: Feature } },
  'POST /api/admin/features/:featureName/stale/off': { tag: features, summary: 'Mark a feature not stale', responses: { 200: Feature } },

  // ---- tags on features ------------------------------------------------------------------------------------------
  'GET /api/admin/features/:featureName/tags': {
    tag: features, summary: 'List a feature’s tags', responses: { 200: z.object({ version: version1, tags: z.array(Tag) }) },
  },
  'POST /api/admin/features/:featureName/tags': {
    tag: features, summary: 'Tag a feature',
    description: 'The tag is created when it does not exist yet; its type (default `simple`) must exist.',
    body: featureTagSchema, responses: { 201: Tag }, errors: ['NameExistsError'],
  },
  'DELETE /api/admin/features/:featureName/tags/:type/:value': { tag: features, summary: 'Remove a tag from a feature', responses: { 200: null } },

  // ---- feature types ---------------------------------------------------------------------------------------------
  'GET /api/admin/feature-types': {
    tag: types, summary: 'List the feature types', responses: { 200: z.object({ version: version1, types: z.array(FeatureType) }) },
  },
  'PUT /api/admin/feature-types/:id/lifetimes': {
    tag: types, summary: 'Change how many days features of a type live before they count as potentially stale',
    body: lifetimeSchema, responses: { 200: FeatureType },
  },

  // ---- environments ----------------------------------------------------------------------------------------------
  [`GET ${FE}`]: {
    tag: environments, summary: 'Get a feature in one environment, with its strategies',
    description: 'The environment must be one of the project’s.', responses: { 200: FeatureEnvironment },
  },
  [`POST ${FE}/on`]: {
    tag: environments, summary: 'Switch a feature on in an environment',
    description: 'Without an active strategy, the project environment’s default strategy (or a 100 % gradual rollout) is added, unless `shouldActivateDisabledStrategies` asks to enable the disabled ones instead.',
    body: strategyPayloadSchemas.switch, bodyOptional: true, responses: { 200: null },
  },
  [`POST ${FE}/off`]: {
    tag: environments, summary: 'Switch a feature off in an environment',
    body: strategyPayloadSchemas.switch, bodyOptional: true, responses: { 200: null },
  },

  // ---- strategies ------------------------------------------------------------------------------------------------
  [`GET ${FE}/strategies`]: {
    tag: strategies, summary: 'List a feature’s strategies in an environment', responses: { 200: z.array(FeatureStrategy) },
  },
  [`POST ${FE}/strategies`]: {
    tag: strategies, summary: 'Add a strategy to a feature in an environment',
    description: 'The strategy type, the context fields of its constraints (404 when one does not exist) and its segments must exist.',
    body: strategyPayloadSchemas.create, responses: { 200: FeatureStrategy },
  },
  [`POST ${FE}/strategies/set-sort-order`]: {
    tag: strategies, summary: 'Reorder a feature’s strategies in an environment',
    body: strategyPayloadSchemas.sortOrder, responses: { 200: null },
  },
  [`GET ${FE}/strategies/:strategyId`]: { tag: strategies, summary: 'Get a strategy', params: strategyId, responses: { 200: FeatureStrategy } },
  [`PUT ${FE}/strategies/:strategyId`]: {
    tag: strategies, summary: 'Update a strategy',
    description: 'Properties sent replace the stored ones; those left out are kept. An enabled environment left without an active strategy is switched off.',
    params: strategyId, body: strategyPayloadSchemas.update, responses: { 200: FeatureStrategy },
  },
  [`PATCH ${FE}/strategies/:strategyId`]: {
    tag: strategies, summary: 'Patch a strategy',
    description: `${patchDescription} It applies to \`{name, title, disabled, sortOrder, parameters, constraints, variants, segments}\`.`,
    params: strategyId, body: patchSchema, responses: { 200: FeatureStrategy },
  },
  [`DELETE ${FE}/strategies/:strategyId`]: {
    tag: strategies, summary: 'Remove a strategy',
    description: 'An enabled environment left without an active strategy is switched off.',
    params: strategyId, responses: { 200: null },
  },

  // ---- variants --------------------------------------------------------------------------------------------------
  [`GET ${FE}/variants`]: { tag: variants, summary: 'List a feature’s variants in an environment', responses: { 200: FeatureVariants } },
  [`PUT ${FE}/variants`]: {
    tag: variants, summary: 'Replace a feature’s variants in an environment',
    description: 'Weights are resolved on save: `fix` variants keep theirs, `variable` ones share the rest of 1000; the list is sorted by name.',
    body: featureVariantsSchema, responses: { 200: FeatureVariants },
  },
  [`PATCH ${FE}/variants`]: {
    tag: variants, summary: 'Patch a feature’s variants in an environment',
    description: `${patchDescription} It applies to the list of variants.`, body: patchSchema, responses: { 200: FeatureVariants },
  },
  [`PUT ${F}/variants-batch`]: {
    tag: variants, summary: 'Set the same variants in several environments', body: batchVariantsSchema, responses: { 200: FeatureVariants },
  },
  [`GET ${F}/variants`]: {
    tag: variants, summary: 'Get a feature’s variants (those of its first environment that has any)',
    deprecated: true, responses: { 200: FeatureVariants },
  },
  [`PUT ${F}/variants`]: {
    tag: variants, summary: 'Replace a feature’s variants in every environment',
    deprecated: true, body: featureVariantsSchema, responses: { 200: FeatureVariants },
  },
  [`PATCH ${F}/variants`]: {
    tag: variants, summary: 'Patch a feature’s variants in every environment',
    description: `${patchDescription} It applies to the variants of the first environment that has any; the result goes to every environment.`,
    deprecated: true, body: patchSchema, responses: { 200: FeatureVariants },
  },

  // ---- dependencies ----------------------------------------------------------------------------------------------
  [`POST ${F}/dependencies`]: {
    tag: dependencies, summary: 'Make a feature depend on a parent feature (or change how)',
    description: 'The parent must be an active feature of the same project. Dependencies are one level deep: a parent cannot depend on anything and a child cannot be a parent.',
    body: dependencyPayloadSchema, responses: { 200: null }, errors: ['InvalidOperationError'],
  },
  [`DELETE ${F}/dependencies/:parent`]: {
    tag: dependencies, summary: 'Remove a feature’s dependency on one parent', params: { parent: { description: 'The parent feature' } },
    responses: { 200: null },
  },
  [`DELETE ${F}/dependencies`]: { tag: dependencies, summary: 'Remove all of a feature’s dependencies', responses: { 200: null } },

  // ---- archive ---------------------------------------------------------------------------------------------------
  'POST /api/admin/projects/:projectId/archive': {
    tag: archive, summary: 'Archive several features of a project',
    description: 'A feature that active features depend on can only be archived together with them.',
    body: namesSchema, responses: { 202: null }, errors: ['InvalidOperationError'],
  },
  'POST /api/admin/projects/:projectId/revive': {
    tag: archive, summary: 'Bring several archived features of a project back',
    description: 'They come back switched off in every environment.', body: namesSchema, responses: { 200: null },
  },
  'POST /api/admin/projects/:projectId/delete': {
    tag: archive, summary: 'Delete several archived features of a project for good',
    description: 'Only archived features can be deleted, and not while another feature depends on one of them.',
    body: namesSchema, responses: { 200: null }, errors: ['InvalidOperationError'],
  },
  'GET /api/admin/archive/features': {
    tag: archive, summary: 'List the archived features', deprecated: true,
    responses: { 200: z.object({ version: z.literal(2), features: z.array(FeatureArchived) }) },
  },
  'GET /api/admin/archive/features/:projectId': {
    tag: archive, summary: 'List the archived features of a project', deprecated: true,
    description: 'An unknown project gives an empty list.',
    responses: { 200: z.object({ version: z.literal(2), features: z.array(FeatureArchived) }) },
  },
  'POST /api/admin/archive/revive/:featureName': {
    tag: archive, summary: 'Bring an archived feature back', description: 'It comes back switched off in every environment.', responses: { 200: null },
  },
  'DELETE /api/admin/archive/:featureName': {
    tag: archive, summary: 'Delete an archived feature for good',
    description: 'Only an archived feature can be deleted, and not while another feature depends on it.',
    responses: { 200: null }, errors: ['InvalidOperationError'],
  },
};
