import { ValidationError } from '../errors';
/** Event types: the spec's list, then those of later issues. */
export const EVENT_TYPES = [
  'application-created', 'feature-created', 'feature-deleted', 'feature-updated', 'feature-metadata-updated', 'feature-variants-updated',
  'feature-environment-variants-updated', 'feature-project-change', 'feature-archived', 'feature-revived', 'feature-import', 'feature-tagged',
  'feature-tag-import', 'feature-strategy-update', 'feature-strategy-add', 'feature-strategy-remove', 'feature-type-updated', 'strategy-order-changed',
  'drop-feature-tags', 'feature-untagged', 'feature-stale-on', 'feature-stale-off', 'drop-features', 'feature-environment-enabled',
  'feature-environment-disabled', 'strategy-created', 'strategy-deleted', 'strategy-deprecated', 'strategy-reactivated', 'strategy-updated',
  'strategy-import', 'drop-strategies', 'context-field-created', 'context-field-updated', 'context-field-deleted', 'project-access-added',
  'project-access-user-roles-updated', 'project-access-group-roles-updated', 'project-access-user-roles-deleted', 'project-access-group-roles-deleted',
  'project-access-updated', 'project-created', 'project-updated', 'project-deleted', 'project-import', 'project-user-added', 'project-user-removed',
  'project-user-role-changed', 'project-group-role-changed', 'project-group-added', 'project-group-removed', 'role-created', 'role-updated',
  'role-deleted', 'drop-projects', 'tag-created', 'tag-deleted', 'tag-import', 'drop-tags', 'tag-type-created', 'tag-type-deleted', 'tag-type-updated',
  'tag-type-import', 'drop-tag-types', 'addon-config-created', 'addon-config-updated', 'addon-config-deleted', 'db-pool-update', 'user-created',
  'user-updated', 'user-deleted', 'drop-environments', 'environment-import', 'environment-created', 'environment-updated', 'environment-deleted',
  'segment-created', 'segment-updated', 'segment-deleted', 'group-created', 'group-updated', 'group-deleted', 'group-user-added', 'group-user-removed',
  'setting-created', 'setting-updated', 'setting-deleted', 'client-metrics', 'client-register', 'pat-created', 'pat-deleted',
  'public-signup-token-created', 'public-signup-token-user-added', 'public-signup-token-updated', 'change-request-created', 'change-request-discarded',
  'change-added', 'change-discarded', 'change-edited', 'change-request-rejected', 'change-request-approved', 'change-request-approval-added',
  'change-request-cancelled', 'change-request-sent-to-review', 'scheduled-change-request-executed', 'change-request-applied', 'change-request-scheduled',
  'change-request-scheduled-application-success', 'change-request-scheduled-application-failure', 'change-request-configuration-updated',
  'api-token-created', 'api-token-updated', 'api-token-deleted', 'feature-favorited', 'feature-unfavorited', 'project-favorited', 'project-unfavorited',
  'features-exported', 'features-imported', 'service-account-created', 'service-account-deleted', 'service-account-updated',
  'feature-potentially-stale-on', 'feature-dependency-added', 'feature-dependency-removed', 'feature-dependencies-removed', 'banner-created',
  'banner-updated', 'banner-deleted', 'project-environment-added', 'project-environment-removed', 'default-strategy-updated', 'segment-import',
  'incoming-webhook-created', 'incoming-webhook-updated', 'incoming-webhook-deleted', 'incoming-webhook-token-created',
  'incoming-webhook-token-updated', 'incoming-webhook-token-deleted',
  // Beyond the spec's list: a flag's lifecycle marked completed and taken back (issue 44; Unleash 6.2's names).
  'feature-completed', 'feature-uncompleted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
export const EVENT_TYPE_SET: ReadonlySet<string> = new Set(EVENT_TYPES);

/** 400 ValidationError naming each entry of `types` (at `<path>/<index>`) that is not an event type. */
export function assertEventTypes(types: readonly string[], path: string, hint: string): void {
  const problems = types.flatMap((t, i) => (EVENT_TYPE_SET.has(t) ? [] : [{ path: `${path}/${i}`, message: `\`${t}\` is not an event type. ${hint}` }]));
  if (problems.length > 0) throw ValidationError.of(problems);
}
