import { changeRequestKeys } from '../../data/keys';

// Moved to `data/change-requests` (issue 41). This file only keeps the flag pages building until their imports point
// there; delete it then.
export { useMyDraft, useProposeChanges, type ProposedChange } from '../../data/change-requests';
/** @deprecated `changeRequestKeys.project` (and `.pending`, `.drafts`, …) from `data/keys`. */
export const changeRequestsKey = (project: string) => changeRequestKeys.project(project);
