import type { AccessService } from '../access/access.service';
import { ConflictError, ForbiddenError } from '../errors';

/**
 * The state machine of a change request and the review rules of each move (change-request.service.ts runs the moves).
 */

/** Every state of a change request (the spec's list; the table's check constraint holds the same). */
export const CHANGE_REQUEST_STATES = ['Draft', 'In review', 'Approved', 'Applied', 'Cancelled', 'Rejected', 'Scheduled'] as const;
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];
/** States in which a request is still open (listed by `…/change-requests/open`). */
export const OPEN_STATES: readonly ChangeRequestState[] = ['Draft', 'In review', 'Approved', 'Scheduled'];
/** States in which the author may still change what the request holds. */
export const EDITABLE_STATES: readonly ChangeRequestState[] = ['Draft', 'In review'];

/**
 * The moves `PUT …/state` makes, by the state asked for: the states each may start from. Draft is never asked for
 * (a request does not go back), and Applied, Cancelled and Rejected are final.
 * - In review: the author sends a Draft to review.
 * - Approved: a reviewer (APPROVE_CHANGE_REQUEST, not the author) approves; the request becomes Approved when it has
 *   `minApprovals` approvals, and stays In review until then.
 * - Rejected: a reviewer rejects a request In review or Approved (not yet applied).
 * - Applied: APPLY_CHANGE_REQUEST applies an Approved request, or a Scheduled one at once.
 * - Scheduled: APPLY_CHANGE_REQUEST schedules an Approved request, or moves the time of a Scheduled one (which also
 *   retries a failed one).
 * - Cancelled: the author, or someone who may apply it, withdraws an open request.
 */
export const TRANSITIONS: Readonly<Record<ChangeRequestState, readonly ChangeRequestState[]>> = {
  Draft: [],
  'In review': ['Draft'],
  Approved: ['In review'],
  Rejected: ['In review', 'Approved'],
  Applied: ['Approved', 'Scheduled'],
  Scheduled: ['Approved', 'Scheduled'],
  Cancelled: ['Draft', 'In review', 'Approved', 'Scheduled'],
};

/**
 * Who may make a move (before the transaction: the request's environment and author never change): the author sends
 * to review; a reviewer who is not the author approves or rejects (APPROVE_CHANGE_REQUEST); APPLY_CHANGE_REQUEST
 * applies or schedules; the author, or someone who may apply it, cancels. 403 otherwise.
 */
export async function checkMover(
  access: AccessService, to: ChangeRequestState, request: { id: number; createdBy: string; isAuthor: boolean },
  scope: { project: string; environment: string },
): Promise<void> {
  switch (to) {
    case 'In review':
      if (!request.isAuthor) throw new ForbiddenError(`Only the author of change request ${request.id} (${request.createdBy}) may send it to review.`);
      break;
    case 'Approved':
    case 'Rejected':
      if (request.isAuthor) throw new ForbiddenError(`You cannot ${to === 'Approved' ? 'approve' : 'reject'} your own change request: another user must review it (cancel it instead to withdraw it).`);
      await access.check('APPROVE_CHANGE_REQUEST', scope);
      break;
    case 'Applied':
    case 'Scheduled':
      await access.check('APPLY_CHANGE_REQUEST', scope);
      break;
    case 'Cancelled':
      if (!request.isAuthor) await access.check('APPLY_CHANGE_REQUEST', scope);
      break;
    case 'Draft':
      break;
  }
}

/** A move the request's current state does not allow: 409 ConflictError naming both states. */
export function checkTransition(request: { id: number; state: ChangeRequestState }, to: ChangeRequestState): void {
  if (!TRANSITIONS[to].includes(request.state)) {
    const from = TRANSITIONS[to];
    throw new ConflictError(`Change request ${request.id} is ${request.state}: it cannot become ${to}${from.length === 0 ? ' (a request never goes back to Draft)' : ` (only a request that is ${from.join(' or ')} can)`}.`);
  }
}

/** A change of what the request holds: only its author, only while Draft or In review (403, 409). */
export function checkEditable(request: { id: number; state: ChangeRequestState; created_by: string }, isAuthor: boolean): void {
  if (!isAuthor) throw new ForbiddenError(`Only the author of change request ${request.id} (${request.created_by}) may change what it holds.`);
  if (!EDITABLE_STATES.includes(request.state)) throw new ConflictError(`Change request ${request.id} is ${request.state}: its changes can only be changed while it is Draft or In review.`);
}
