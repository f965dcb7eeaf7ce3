import type { QueryKey } from '@tanstack/react-query';

/**
 * The queries a change of each definition makes stale: the definitions page's own list, and the pickers of the rest of
 * the app that offer it (by key prefix).
 */
export const ENVIRONMENT_KEYS: QueryKey[] = [['definitions', 'environments'], ['playground-options'], ['flag-page-choices'], ['project-flags']];
export const CONTEXT_FIELD_KEYS: QueryKey[] = [['definitions', 'contextFields'], ['editors', 'contextFields'], ['editors', 'projectStickiness'], ['playground-options']];
export const SEGMENT_KEYS: QueryKey[] = [['definitions', 'segments'], ['editors', 'segments']];
export const STRATEGY_KEYS: QueryKey[] = [['definitions', 'strategies'], ['editors', 'strategies']];
export const TAG_TYPE_KEYS: QueryKey[] = [['definitions', 'tagTypes'], ['flag-page-choices']];
