import { ADMIN, NONE } from './permissions';

/**
 * The permission every state-changing operation needs, on both doors: the one table the permission matrix test is
 * generated from and the printed GraphQL schema documents. The services enforce it (AccessService.check in the
 * service method both doors call); the matrix test proves that what is enforced is what is declared here, and fails
 * for a route or mutation that is missing from this table.
 *
 * `scope` says where the check takes its project and environment from:
 * - `root`: no project (root permissions, or ADMIN);
 * - `project`: the project the operation addresses (path `:projectId`/`:id`, or `project` in a GraphQL input);
 * - `feature`: the project of the feature the operation addresses (`:featureName`, `feature` in an input);
 * - `environment`: the project as for `project`, and the environment the operation addresses.
 * - `self`: the caller's own account (password, personal access tokens): any user, never an API token.
 * - `author`: the author of the change request the operation addresses (anyone else gets 403 ForbiddenError).
 * - `review`: a change request's move, whose permission depends on the state asked for (see TRANSITIONS in
 *   change-request.service.ts): its author sends it to review; APPROVE_CHANGE_REQUEST in its environment approves or
 *   rejects (never its author); APPLY_CHANGE_REQUEST applies or schedules; its author or APPLY_CHANGE_REQUEST cancels.
 * `NONE` means any authenticated admin-API principal (validations, evaluations).
 */
export type OperationScope = 'root' | 'project' | 'feature' | 'environment' | 'self' | 'author' | 'review';

export interface OperationPermission {
  permission: string;
  scope: OperationScope;
  /** `METHOD /api/admin/...` as Express declares the route. */
  rest?: readonly string[];
  /** Mutation field names. */
  graphql?: readonly string[];
}

const op = (permission: string, scope: OperationScope, rest: string[], graphql: string[] = []): OperationPermission => ({ permission, scope, rest, graphql });

const F = '/api/admin/projects/:projectId/features/:featureName';
const FE = `${F}/environments/:environment`;

export const OPERATION_PERMISSIONS: readonly OperationPermission[] = [
  // environments (Unleash: ADMIN)
  op(ADMIN, 'root', ['POST /api/admin/environments'], ['createEnvironment']),
  op(ADMIN, 'root', ['PUT /api/admin/environments/:name'], ['updateEnvironment']),
  op(ADMIN, 'root', ['DELETE /api/admin/environments/:name'], ['deleteEnvironment']),
  op(ADMIN, 'root', ['POST /api/admin/environments/:name/on'], ['enableEnvironment']),
  op(ADMIN, 'root', ['POST /api/admin/environments/:name/off'], ['disableEnvironment']),
  // projects
  op('CREATE_PROJECT', 'root', ['POST /api/admin/projects'], ['createProject']),
  op('UPDATE_PROJECT', 'project', ['PUT /api/admin/projects/:id'], ['updateProject']),
  op('DELETE_PROJECT', 'project', ['DELETE /api/admin/projects/:id'], ['deleteProject']),
  op('UPDATE_PROJECT', 'project', ['POST /api/admin/projects/:id/environments'], ['addEnvironmentToProject']),
  op('UPDATE_PROJECT', 'project', ['DELETE /api/admin/projects/:id/environments/:environment'], ['removeEnvironmentFromProject']),
  op('UPDATE_PROJECT', 'project', ['PUT /api/admin/projects/:projectId/settings'], ['updateProjectSettings']),
  op('UPDATE_PROJECT', 'project', ['PUT /api/admin/projects/:projectId/environments/:environment/change-requests/config'], ['updateChangeRequestConfig']),
  // A change request's change needs the permission making it directly would need: the sample proposes switching a
  // feature on (UPDATE_FEATURE_ENVIRONMENT); other actions are checked the same way (change-request.service.ts).
  op('UPDATE_FEATURE_ENVIRONMENT', 'environment', ['POST /api/admin/projects/:projectId/environments/:environment/change-requests'], ['addChangeRequestChanges']),
  op(NONE, 'author', [
    'PUT /api/admin/projects/:projectId/change-requests/:id/changes/:changeId', 'DELETE /api/admin/projects/:projectId/change-requests/:id/changes/:changeId',
    'PUT /api/admin/projects/:projectId/change-requests/:id/title',
  ], ['editChangeRequestChange', 'discardChangeRequestChange', 'setChangeRequestTitle']),
  op(NONE, 'project', ['POST /api/admin/projects/:projectId/change-requests/:id/comments'], ['addChangeRequestComment']),
  op('APPROVE_CHANGE_REQUEST', 'review', ['PUT /api/admin/projects/:projectId/change-requests/:id/state'], ['setChangeRequestState']),
  // Preview before approving (issue 12 part 9): an evaluation, readable like the playground.
  op(NONE, 'project', ['POST /api/admin/projects/:projectId/change-requests/:id/preview']),
  // context fields
  op(NONE, 'root', ['POST /api/admin/context/validate']),
  op('CREATE_CONTEXT_FIELD', 'root', ['POST /api/admin/context'], ['createContextField']),
  op('UPDATE_CONTEXT_FIELD', 'root', ['PUT /api/admin/context/:name'], ['updateContextField']),
  op('DELETE_CONTEXT_FIELD', 'root', ['DELETE /api/admin/context/:name'], ['deleteContextField']),
  op('UPDATE_CONTEXT_FIELD', 'root', ['POST /api/admin/context/:name/legal-values'], ['addLegalValue']),
  op('UPDATE_CONTEXT_FIELD', 'root', ['DELETE /api/admin/context/:name/legal-values/:value'], ['removeLegalValue']),
  // tag types and tags
  op(NONE, 'root', ['POST /api/admin/tag-types/validate']),
  op('CREATE_TAG_TYPE', 'root', ['POST /api/admin/tag-types'], ['createTagType']),
  op('UPDATE_TAG_TYPE', 'root', ['PUT /api/admin/tag-types/:name'], ['updateTagType']),
  op('DELETE_TAG_TYPE', 'root', ['DELETE /api/admin/tag-types/:name'], ['deleteTagType']),
  op(NONE, 'root', ['POST /api/admin/tags'], ['createTag']),
  op('UPDATE_FEATURE', 'root', ['DELETE /api/admin/tags/:type/:value'], ['deleteTag']),
  // segments
  op(NONE, 'root', ['POST /api/admin/segments/validate']),
  op('CREATE_SEGMENT', 'root', ['POST /api/admin/segments'], ['createSegment']),
  op('UPDATE_SEGMENT', 'root', ['PUT /api/admin/segments/:id'], ['updateSegment']),
  op('DELETE_SEGMENT', 'root', ['DELETE /api/admin/segments/:id'], ['deleteSegment']),
  // strategy definitions
  op('CREATE_STRATEGY', 'root', ['POST /api/admin/strategies'], ['createStrategy']),
  op('UPDATE_STRATEGY', 'root', ['PUT /api/admin/strategies/:name'], ['updateStrategy']),
  op('UPDATE_STRATEGY', 'root', ['POST /api/admin/strategies/:name/deprecate'], ['deprecateStrategy']),
  op('UPDATE_STRATEGY', 'root', ['POST /api/admin/strategies/:name/reactivate'], ['reactivateStrategy']),
  op('DELETE_STRATEGY', 'root', ['DELETE /api/admin/strategies/:name'], ['deleteStrategy']),
  // features
  op('CREATE_FEATURE', 'project', ['POST /api/admin/projects/:projectId/features'], ['createFeature']),
  op('UPDATE_FEATURE', 'project', [`PUT ${F}`, `PATCH ${F}`], ['updateFeature']),
  op('DELETE_FEATURE', 'project', [`DELETE ${F}`, 'POST /api/admin/projects/:projectId/archive'], ['archiveFeatures']),
  op('CREATE_FEATURE', 'project', [`POST ${F}/clone`], ['cloneFeature']),
  // Also needs MOVE_FEATURE_TOGGLE in the target project (feature-move.service.ts).
  op('MOVE_FEATURE_TOGGLE', 'project', [`POST ${F}/changeProject`], ['moveFeatureToProject']),
  op('UPDATE_FEATURE', 'project', ['POST /api/admin/projects/:projectId/stale'], ['setFeaturesStale']),
  op('UPDATE_FEATURE', 'project', ['POST /api/admin/projects/:projectId/revive'], ['reviveFeatures']),
  op('DELETE_FEATURE', 'project', ['POST /api/admin/projects/:projectId/delete'], ['deleteFeatures']),
  // flag lifecycle (issue 44)
  op('UPDATE_FEATURE', 'project', [`POST ${F}/lifecycle/complete`, `POST ${F}/lifecycle/uncomplete`], ['completeFeature', 'uncompleteFeature']),
  // A revert (issue 43) needs what each of its changes needs, checked by the service of that change; the samples
  // bring back a description, which needs UPDATE_FEATURE.
  op('UPDATE_FEATURE', 'project', [`POST ${F}/revert`, 'POST /api/admin/events/:id/revert'], ['revertFeature', 'revertEvent']),
  op(NONE, 'root', ['POST /api/admin/features/validate']),
  // batch import and export (issue 13): validation and export read (export writes only its audit event); an import
  // needs UPDATE_FEATURE in the project, plus whatever else it would change (import-plan.ts names each).
  op(NONE, 'root', ['POST /api/admin/features-batch/validate', 'POST /api/admin/features-batch/export']),
  op('UPDATE_FEATURE', 'project', ['POST /api/admin/features-batch/import'], ['importFeatures']),
  op('UPDATE_FEATURE', 'feature', ['POST /api/admin/features/:featureName/stale/on', 'POST /api/admin/features/:featureName/stale/off']),
  op(ADMIN, 'root', ['PUT /api/admin/feature-types/:id/lifetimes'], ['updateFeatureType']),
  op('UPDATE_FEATURE', 'feature', ['POST /api/admin/features/:featureName/tags'], ['tagFeature']),
  op('UPDATE_FEATURE', 'feature', ['DELETE /api/admin/features/:featureName/tags/:type/:value'], ['untagFeature']),
  op('UPDATE_FEATURE', 'feature', ['POST /api/admin/archive/revive/:featureName']),
  op('DELETE_FEATURE', 'feature', ['DELETE /api/admin/archive/:featureName']),
  // feature environments, strategies and variants
  op('UPDATE_FEATURE_ENVIRONMENT', 'environment', [`POST ${FE}/on`, `POST ${FE}/off`], ['setFeatureEnvironmentEnabled']),
  op('CREATE_FEATURE_STRATEGY', 'environment', [`POST ${FE}/strategies`], ['addFeatureStrategy']),
  op('UPDATE_FEATURE_STRATEGY', 'environment', [`POST ${FE}/strategies/set-sort-order`], ['setStrategySortOrder']),
  op('UPDATE_FEATURE_STRATEGY', 'environment', [`PUT ${FE}/strategies/:strategyId`, `PATCH ${FE}/strategies/:strategyId`], ['updateFeatureStrategy']),
  op('DELETE_FEATURE_STRATEGY', 'environment', [`DELETE ${FE}/strategies/:strategyId`], ['deleteFeatureStrategy']),
  op('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'environment', [`PUT ${FE}/variants`, `PATCH ${FE}/variants`, `PUT ${F}/variants-batch`], ['setFeatureVariants']),
  op('UPDATE_FEATURE_VARIANTS', 'project', [`PUT ${F}/variants`, `PATCH ${F}/variants`], ['setFeatureVariantsInAllEnvironments']),
  op('UPDATE_FEATURE_DEPENDENCY', 'project', [`POST ${F}/dependencies`], ['addFeatureDependency']),
  op('UPDATE_FEATURE_DEPENDENCY', 'project', [`DELETE ${F}/dependencies/:parent`], ['removeFeatureDependency']),
  op('UPDATE_FEATURE_DEPENDENCY', 'project', [`DELETE ${F}/dependencies`], ['removeFeatureDependencies']),

  // evaluation
  op(NONE, 'root', ['POST /api/admin/playground', 'POST /api/admin/playground/advanced']),
  // The frontend API's answer at a past instant (issue 43): an evaluation, readable like the playground.
  op(NONE, 'root', ['POST /api/admin/history/frontend']),

  // users, the caller's own account, API tokens (issue 9)
  op(ADMIN, 'root', ['POST /api/admin/user-admin'], ['createUser']),
  op(ADMIN, 'root', ['PUT /api/admin/user-admin/:id'], ['updateUser']),
  op(ADMIN, 'root', ['DELETE /api/admin/user-admin/:id'], ['deleteUser']),
  op(ADMIN, 'root', ['POST /api/admin/user-admin/:id/change-password'], ['setUserPassword']),
  op(ADMIN, 'root', ['POST /api/admin/user-admin/reset-password'], ['createPasswordResetLink']),
  op(NONE, 'self', ['POST /api/admin/user/change-password', 'POST /api/admin/user/tokens', 'DELETE /api/admin/user/tokens/:id'], ['changeOwnPassword', 'createPersonalAccessToken', 'deletePersonalAccessToken']),
  // Client tokens; an admin token needs ADMIN, a frontend token the FRONTEND permission of the same action.
  op('CREATE_CLIENT_API_TOKEN', 'root', ['POST /api/admin/api-tokens'], ['createApiToken']),
  op('UPDATE_CLIENT_API_TOKEN', 'root', ['PUT /api/admin/api-tokens/:token'], ['updateApiToken']),
  op('DELETE_CLIENT_API_TOKEN', 'root', ['DELETE /api/admin/api-tokens/:token'], ['deleteApiToken']),
  // project access
  op('UPDATE_PROJECT', 'project', ['POST /api/admin/projects/:projectId/access'], ['addProjectAccess']),
  op('UPDATE_PROJECT', 'project', ['PUT /api/admin/projects/:projectId/users/:userId/roles', 'PUT /api/admin/projects/:projectId/groups/:groupId/roles'], ['setProjectUserRoles', 'setProjectGroupRoles']),
  op('UPDATE_PROJECT', 'project', ['DELETE /api/admin/projects/:projectId/users/:userId/roles', 'DELETE /api/admin/projects/:projectId/groups/:groupId/roles'], ['removeProjectUserRoles', 'removeProjectGroupRoles']),
  // roles (Unleash: ADMIN)
  op(ADMIN, 'root', ['POST /api/admin/roles'], ['createRole']),
  op(ADMIN, 'root', ['PUT /api/admin/roles/:id'], ['updateRole']),
  op(ADMIN, 'root', ['DELETE /api/admin/roles/:id'], ['deleteRole']),
  // groups (Unleash: ADMIN)
  op(ADMIN, 'root', ['POST /api/admin/groups'], ['createGroup']),
  op(ADMIN, 'root', ['PUT /api/admin/groups/:id'], ['updateGroup']),
  op(ADMIN, 'root', ['DELETE /api/admin/groups/:id'], ['deleteGroup']),
  // public signup tokens (Unleash: ADMIN)
  op(ADMIN, 'root', ['POST /api/admin/invite-link/tokens'], ['createPublicSignupToken']),
  op(ADMIN, 'root', ['PUT /api/admin/invite-link/tokens/:token'], ['updatePublicSignupToken']),
  // addons
  op('CREATE_ADDON', 'root', ['POST /api/admin/addons'], ['createAddon']),
  op('UPDATE_ADDON', 'root', ['PUT /api/admin/addons/:id', 'POST /api/admin/addons/:id/deliveries/:deliveryId/redeliver'], ['updateAddon', 'redeliverAddonDelivery']),
  op('DELETE_ADDON', 'root', ['DELETE /api/admin/addons/:id'], ['deleteAddon']),
  // applications of the SDKs (issue 14; Unleash: UPDATE_APPLICATION)
  op('UPDATE_APPLICATION', 'root', ['POST /api/admin/metrics/applications/:appName', 'DELETE /api/admin/metrics/applications/:appName'], ['updateApplication', 'deleteApplication']),
  // SAML settings (spec endpoint 11; Unleash: the admin area)
  op(ADMIN, 'root', ['POST /api/admin/auth/saml/settings'], ['updateSamlSettings']),
];

/** By `METHOD path` and by mutation name; built once. A name used twice is a mistake the unit test reports. */
export const REST_PERMISSIONS: ReadonlyMap<string, OperationPermission> = new Map(OPERATION_PERMISSIONS.flatMap((o) => (o.rest ?? []).map((r) => [r, o] as const)));
export const MUTATION_PERMISSIONS: ReadonlyMap<string, OperationPermission> = new Map(OPERATION_PERMISSIONS.flatMap((o) => (o.graphql ?? []).map((m) => [m, o] as const)));

/** The sentence the printed schema carries on each mutation. */
export function permissionSentence(o: OperationPermission): string {
  if (o.scope === 'author') return 'Only the author of the change request may do this, while it is Draft or In review.';
  if (o.scope === 'review') return "Who may depends on the state asked for: the request's author (In review, Cancelled), APPROVE_CHANGE_REQUEST in its environment and not its author (Approved, Rejected), APPLY_CHANGE_REQUEST in its environment (Applied, Scheduled, Cancelled).";
  if (o.scope === 'self') return "Needs a user (a session or a personal access token): it acts on the caller's own account.";
  if (o.permission === NONE) return 'Needs any admin-API credentials.';
  if (o.permission === ADMIN) return 'Needs the ADMIN permission.';
  const where = o.scope === 'root' ? '' : o.scope === 'environment' ? ' in the project and environment it changes' : o.scope === 'feature' ? " in the feature's project" : ' in the project it changes';
  return `Needs the ${o.permission} permission${where}.`;
}
