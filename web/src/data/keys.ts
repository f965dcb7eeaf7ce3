/**
 * The query keys of the whole UI, one factory per area (`keys/<area>.ts`): each area's keys start with its name, so a
 * prefix never reaches another area's queries, and any change can name what it makes stale in other areas without
 * importing their hooks. Only the data modules (`data/`) use them; pages call hooks.
 */
export { accessKeys } from './keys/access';
export { changeRequestKeys } from './keys/change-requests';
export { dataKeys } from './keys/data';
export { definitionKeys } from './keys/definitions';
export { eventKeys } from './keys/events';
export { flagKeys } from './keys/flags';
export { integrationKeys } from './keys/integrations';
export { playgroundKeys } from './keys/playground';
export { projectKeys } from './keys/projects';
export { sessionKeys } from './keys/session';
