import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import { actorKey, type Principal } from '../access/principal';
import { change } from '../change';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { EventType } from '../events/event-types';
import { loadProjectFeature } from '../features/feature.store';
import { parse, rowId } from '../validation';
import { applyChangeRequest } from './change-request-apply';
import type { StoredChange } from './change-request-changes';
import { loadProjectEnvironmentConfig } from './change-request-config.store';
import { CHANGE_REQUEST_STATES, checkEditable, checkMover, checkTransition, type ChangeRequestState } from './change-request-states';
import {
  authoredBy, changeRequestById, openChangeRequests, pendingChangeRequestsForFeature, projectChangeRequests, snapshotsOf, toComment,
} from './change-request.read-model';
import type { ChangeRequest, ChangeRequestComment } from './change-request.shapes';
import {
  CHANGE_PERMISSIONS, changeListSchema, changeSchema, checkActions, commentSchema, stateSchema, titleSchema, type ChangeInput,
} from './change-request.schemas';
import * as store from './change-request.store';

/** A validated change in stored form (before it has an id). */
const stored = (c: ChangeInput): StoredChange => ({ id: 0, feature: 'feature' in c ? c.feature : null, action: c.action, payload: (c.payload ?? {}) as Record<string, unknown>, snapshot: null });

/**
 * Change requests (issue 12): drafts and their changes, reading, comments, and the moves between states
 * (change-request-states.ts). A change is validated as its action's shape, needs the permission making it directly
 * would need, and must name things that exist (the feature in the project, the strategy in the environment, the
 * segment) when it is added.
 */
export class ChangeRequestService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** One request of the project; 404 for an unknown or malformed id, or one of another project. */
  async get(project: string, id: string | number): Promise<ChangeRequest> {
    const n = rowId(id);
    const request = n === undefined ? undefined : await changeRequestById(this.em, project, n);
    if (!request) throw store.changeRequestNotFound(project, id);
    return request;
  }

  /** The project's open requests (Draft, In review, Approved, Scheduled), newest first. */
  async open(project: string): Promise<ChangeRequest[]> {
    return openChangeRequests(this.em, project);
  }

  /** The project's requests in one state, or all of them, newest first. */
  async list(project: string, state?: string): Promise<ChangeRequest[]> {
    if (state !== undefined && !(CHANGE_REQUEST_STATES as readonly string[]).includes(state)) {
      throw ValidationError.single('state', `The \`state\` must be one of ${CHANGE_REQUEST_STATES.join(', ')}.`);
    }
    return projectChangeRequests(this.em, project, state as ChangeRequestState | undefined);
  }

  /** Which of these requests the caller wrote, decided by who they are (`actorKey`), never by a name. */
  async authoredByCaller(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    return authoredBy(this.em, ids, actorKey(this.principal));
  }

  /** Open requests of the project with changes to `feature`. */
  async pendingForFeature(project: string, feature: string): Promise<ChangeRequest[]> {
    return pendingChangeRequestsForFeature(this.em, project, feature);
  }

  /**
   * Adds one change or several to the caller's Draft for the project environment, creating the Draft when there is
   * none (event change-request-created), with event change-added for each change. Returns the whole request.
   */
  async addChanges(project: string, environment: string, input: unknown): Promise<ChangeRequest> {
    checkActions(input);
    const changes = Array.isArray(input) ? parse(changeListSchema, input) : [parse(changeSchema, input)];
    for (const c of changes) await this.checkProposer(c, project, environment);
    const id = await change(this.em, this.principal, async (tx, emit) => {
      const config = await loadProjectEnvironmentConfig(tx, project, environment, 'share');
      // A request may also be made where none is required (a voluntary second pair of eyes); it needs the approvals
      // the environment is configured with.
      for (const [i, c] of changes.entries()) await this.checkTargets(tx, project, environment, c, changes.length > 1 ? `${i}/` : '');
      // The Draft is looked for first: an insert that meets the existing one would still use up a request number.
      let draft = await store.lockDraft(tx, project, environment, this.principal);
      let created = false;
      if (!draft) {
        // Two first changes at once: one insert wins, the other waits for it and then finds its Draft.
        created = await store.insertDraft(tx, project, environment, config.requiredApprovals, this.principal);
        draft = (await store.lockDraft(tx, project, environment, this.principal))!;
      }
      if (created) emit({ type: 'change-request-created', project, environment, data: { changeRequestId: draft.id } });
      const snapshots = await snapshotsOf(tx, changes.map((c) => ({ environment, change: stored(c) })));
      for (const [i, c] of changes.entries()) {
        const row = await store.insertChange(tx, draft.id, stored(c), snapshots[i], this.principal);
        emit({ type: 'change-added', project, environment, featureName: 'feature' in c ? c.feature : null, data: { changeRequestId: draft.id, change: { id: row.id, action: c.action, payload: c.payload ?? {} } } });
      }
      return draft.id;
    });
    return this.get(project, id);
  }

  /**
   * Spec endpoint 9: replaces one change with the one sent (validated as its action's shape, needing the permission
   * the change itself needs, naming things that exist). The old change is removed and the new one gets a new id.
   * Only the author, only while Draft or In review; 404 for an unknown request or change. Event change-edited.
   */
  async editChange(project: string, id: string | number, changeId: string | number, input: unknown): Promise<ChangeRequest> {
    checkActions(input);
    if (Array.isArray(input)) throw ValidationError.single('', 'Send one change: `{action, feature, payload}`.');
    const c = parse(changeSchema, input);
    // The permission depends on the request's environment, which never changes: read it before the transaction (the
    // permission check may query, and only the transaction's own connection may be used inside it).
    const known = await store.loadChangeRequest(this.em, project, id);
    await this.checkProposer(c, project, known.environment);
    const request = await change(this.em, this.principal, async (tx, emit) => {
      const r = await this.lockEditable(tx, project, id);
      const old = await store.deleteChange(tx, r.id, changeId);
      if (!old) throw new NotFoundError(`Could not find change ${String(changeId)} in change request ${r.id}`);
      await this.checkTargets(tx, project, r.environment, c, '');
      const [snapshot] = await snapshotsOf(tx, [{ environment: r.environment, change: stored(c) }]);
      const row = await store.insertChange(tx, r.id, stored(c), snapshot, this.principal);
      await this.withdrawApprovals(tx, r);
      emit({
        type: 'change-edited', project, environment: r.environment, featureName: 'feature' in c ? c.feature : null,
        data: { changeRequestId: r.id, change: { id: row.id, action: c.action, payload: c.payload ?? {} } }, preData: { changeRequestId: r.id, change: { id: old.id } },
      });
      return r;
    });
    return this.get(project, request.id);
  }

  /** Removes one change (the author, while Draft or In review); a request left without changes is discarded. */
  async discardChange(project: string, id: string | number, changeId: string | number): Promise<void> {
    await change(this.em, this.principal, async (tx, emit) => {
      const request = await this.lockEditable(tx, project, id);
      const removed = await store.discardChange(tx, request.id, changeId);
      if (!removed) throw new NotFoundError(`Could not find change ${String(changeId)} in change request ${request.id}`);
      await this.withdrawApprovals(tx, request);
      emit({ type: 'change-discarded', project, environment: request.environment, featureName: removed.feature, data: { changeRequestId: request.id, change: { id: removed.id, action: removed.action, payload: removed.payload } } });
      if (!(await store.hasChanges(tx, request.id))) {
        await store.deleteChangeRequest(tx, request.id);
        emit({ type: 'change-request-discarded', project, environment: request.environment, data: { changeRequestId: request.id } });
      }
    });
  }

  /** The author renames the request while it is Draft or In review. */
  async setTitle(project: string, id: string | number, input: unknown): Promise<ChangeRequest> {
    const { title } = parse(titleSchema, input);
    const request = await change(this.em, this.principal, async (tx) => {
      const r = await this.lockEditable(tx, project, id);
      await store.setTitle(tx, r.id, title);
      return r;
    });
    return this.get(project, request.id);
  }

  /**
   * `PUT …/change-requests/:id/state {state, comment?, scheduledAt?}`: one move of the request (see TRANSITIONS), by
   * someone allowed to make it; a comment sent with it is recorded as the caller's. A move the current state does not
   * allow is refused with 409 ConflictError naming both states; a move by someone not allowed with 403. Returns the
   * whole request as it is afterwards.
   */
  async setState(project: string, id: string | number, input: unknown): Promise<ChangeRequest> {
    const data = parse(stateSchema, input);
    if (data.state === 'Scheduled' && data.scheduledAt === undefined) throw ValidationError.single('scheduledAt', 'A request is scheduled for a time: send `scheduledAt` (an ISO 8601 date-time).');
    if (data.state !== 'Scheduled' && data.scheduledAt !== undefined) throw ValidationError.single('scheduledAt', 'Only a request being scheduled (`state: "Scheduled"`) takes `scheduledAt`.');
    const scheduledAt = data.scheduledAt === undefined ? undefined : new Date(data.scheduledAt);
    if (scheduledAt && scheduledAt.getTime() <= Date.now()) throw ValidationError.single('scheduledAt', `The time to apply the request at must be in the future (it is now ${new Date().toISOString()}).`);
    // Who may make the move depends on the request's environment and author, which never change: read them before the
    // transaction (the permission check may query, and only the transaction's own connection may be used inside it).
    const known = await store.loadChangeRequest(this.em, project, id);
    const isAuthor = known.created_by_actor === actorKey(this.principal);
    await checkMover(this.access, data.state, { id: known.id, createdBy: known.created_by, isAuthor }, { project, environment: known.environment });
    await change(this.em, this.principal, async (tx, emit) => {
      const r = await store.loadChangeRequest(tx, project, id, 'update');
      checkTransition(r, data.state);
      const event = (type: EventType, extra: Record<string, unknown> = {}) => emit({ type, project, environment: r.environment, data: { changeRequestId: r.id, ...extra } });
      if (data.comment !== undefined) await store.insertComment(tx, r.id, data.comment, this.principal);
      switch (data.state) {
        case 'In review': {
          // The approvals needed are the environment's setting when review starts (it may have changed since the draft).
          const config = await loadProjectEnvironmentConfig(tx, project, r.environment, 'share');
          await store.sendToReview(tx, r.id, config.requiredApprovals);
          event('change-request-sent-to-review');
          break;
        }
        case 'Approved': {
          if (!(await store.addApproval(tx, r.id, this.principal))) throw new ConflictError(`You have already reviewed change request ${r.id}.`);
          event('change-request-approval-added');
          if ((await store.countApprovals(tx, r.id)) >= r.min_approvals) {
            await store.markApproved(tx, r.id);
            event('change-request-approved');
          }
          break;
        }
        case 'Rejected':
          await store.reject(tx, r.id, this.principal);
          event('change-request-rejected');
          break;
        case 'Applied':
          await applyChangeRequest(tx, this.principal, r, this.access);
          await store.markApplied(tx, r.id);
          event('change-request-applied');
          break;
        case 'Scheduled':
          await store.markScheduled(tx, r.id, scheduledAt, this.principal);
          event('change-request-scheduled', { scheduledDate: scheduledAt?.toISOString() });
          break;
        case 'Cancelled':
          await store.markCancelled(tx, r.id);
          event('change-request-cancelled');
          break;
        case 'Draft':
          break;
      }
    });
    return this.get(project, known.id);
  }

  /** Anyone who may read the project comments on an open or closed request. */
  async addComment(project: string, id: string | number, input: unknown): Promise<ChangeRequestComment> {
    const { text } = parse(commentSchema, input);
    const row = await change(this.em, this.principal, async (tx) => {
      const request = await store.loadChangeRequest(tx, project, id, 'share');
      return store.addComment(tx, request.id, text, this.principal);
    });
    return toComment(row);
  }

  /** A request may only propose what its author may do: the permission making the change directly would need. */
  private async checkProposer(c: ChangeInput, project: string, environment: string): Promise<void> {
    const rule = CHANGE_PERMISSIONS[c.action];
    await this.access.check(rule.permission, rule.root ? {} : { project, ...(rule.environment ? { environment } : {}) });
  }

  /** What reviewers approved is no longer what the request holds: their approvals are withdrawn (four eyes see the final version). */
  private async withdrawApprovals(tx: EntityManager, r: store.ChangeRequestDbRow): Promise<void> {
    if (r.state === 'In review') await store.withdrawApprovals(tx, r.id);
  }

  /** The request locked `for update`, for a change of what it holds: only its author, only while Draft or In review. */
  private async lockEditable(tx: EntityManager, project: string, id: string | number): Promise<store.ChangeRequestDbRow> {
    const row = await store.loadChangeRequest(tx, project, id, 'update');
    checkEditable(row, row.created_by_actor === actorKey(this.principal));
    return row;
  }

  /** What a change names must exist now: the feature in the project, the strategy in the environment, the segment. */
  private async checkTargets(tx: EntityManager, project: string, environment: string, c: ChangeInput, at: string): Promise<void> {
    if (c.action === 'updateSegment' || c.action === 'deleteSegment') {
      if (!(await store.keySharedSegmentExists(tx, c.payload.id))) throw new NotFoundError(`Could not find segment with id ${c.payload.id}`);
      return;
    }
    await loadProjectFeature(tx, project, c.feature, 'key share');
    if (c.action === 'updateStrategy' || c.action === 'deleteStrategy') {
      if (!(await store.strategyExists(tx, c.payload.id, c.feature, environment))) throw new NotFoundError(`Could not find strategy ${c.payload.id} of ${c.feature} in the ${environment} environment`);
    }
    if (c.action === 'addDependency') {
      if (c.payload.feature === c.feature) throw ValidationError.single(`${at}payload/feature`, 'A feature cannot depend on itself.');
      await loadProjectFeature(tx, project, c.payload.feature, 'key share');
    }
  }
}
