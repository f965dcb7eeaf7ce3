import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import { actorKey, type Principal } from '../access/principal';
import { change } from '../change';
import { lockedProjectEnvironment } from './change-request-config.service';
import { applyChangeRequest, defaultChanges, findConflicts, snapshotsOf, type DefaultChange, type StoredChange } from './change-request-apply';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { loadProjectFeature } from '../features/feature.store';
import { dependencyPayloadSchema } from '../features/feature.schemas';
import { strategyPayloadSchemas } from '../features/feature-strategy.schemas';
import { featureVariantsSchema } from '../features/variants';
import { segmentPayloadSchema } from '../segments/segment.service';
import type { EventType } from '../events/event-types';
import { parse, rowId } from '../validation';

/** Who did something, as the spec shows it. */
export interface ChangeRequestActor {
  username: string | null;
  imageUrl: string | null;
}

export interface ChangeRequestChange {
  id: number;
  action: string;
  /** Present only when what the change relies on vanished or changed since it was made. */
  conflict?: string;
  payload: unknown;
  createdBy: ChangeRequestActor;
  createdAt: string;
}

export interface ChangeRequestComment {
  id: number;
  text: string;
  createdBy: ChangeRequestActor;
  createdAt: string;
}

/** The Change request resource (spec): its changes grouped by feature and by segment. */
export interface ChangeRequest {
  id: number;
  title: string;
  environment: string;
  minApprovals: number;
  project: string;
  state: ChangeRequestState;
  features: Array<{ name: string; conflict?: string; changes: ChangeRequestChange[]; defaultChange?: DefaultChange }>;
  segments: Array<{ id: number; name: string; changes: ChangeRequestChange[] }>;
  approvals: ChangeRequestReview[];
  rejections: ChangeRequestReview[];
  comments: ChangeRequestComment[];
  createdBy: ChangeRequestActor;
  createdAt: string;
  /** Present when the state is Scheduled. */
  schedule?: { scheduledAt: string; status: 'pending' | 'failed'; failureReason: string | null };
}

/** An approval or a rejection: who and when. */
export interface ChangeRequestReview {
  createdBy: { id: number | null; username: string | null; imageUrl: string | null };
  createdAt: string;
}

/** Every state of a change request (the spec's list; the table's check constraint holds the same). */
export const CHANGE_REQUEST_STATES = ['Draft', 'In review', 'Approved', 'Applied', 'Cancelled', 'Rejected', 'Scheduled'] as const;
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];
/** States in which a request is still open (listed by `…/change-requests/open`). */
export const OPEN_STATES: readonly ChangeRequestState[] = ['Draft', 'In review', 'Approved', 'Scheduled'];
/** States in which the author may still change what the request holds. */
const EDITABLE_STATES: readonly ChangeRequestState[] = ['Draft', 'In review'];

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

export const stateSchema = z.object({
  state: z.enum(CHANGE_REQUEST_STATES),
  comment: z.string().trim().min(1).max(10_000).optional(),
  scheduledAt: z.iso.datetime({ offset: true }).optional(),
}).strict();

const featureRef = z.string().min(1).max(100);
const segmentId = z.number().int().min(1).max(2_147_483_647);
const empty = z.object({}).strict().optional();

/** One change, validated as its action's own shape (spec endpoint 9's table). */
export const changeSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('updateEnabled'), feature: featureRef, payload: z.object({ enabled: z.boolean(), shouldActivateDisabledStrategies: z.boolean().optional() }).strict() }).strict(),
  z.object({ action: z.literal('addStrategy'), feature: featureRef, payload: strategyPayloadSchemas.create }).strict(),
  z.object({ action: z.literal('updateStrategy'), feature: featureRef, payload: strategyPayloadSchemas.update.extend({ id: z.string().min(1).max(100) }) }).strict(),
  z.object({ action: z.literal('deleteStrategy'), feature: featureRef, payload: z.object({ id: z.string().min(1).max(100) }).strict() }).strict(),
  z.object({ action: z.literal('archiveFeature'), feature: featureRef, payload: empty }).strict(),
  z.object({ action: z.literal('patchVariant'), feature: featureRef, payload: z.object({ variants: featureVariantsSchema }).strict() }).strict(),
  z.object({ action: z.literal('reorderStrategy'), feature: featureRef, payload: strategyPayloadSchemas.sortOrder }).strict(),
  z.object({ action: z.literal('addDependency'), feature: featureRef, payload: dependencyPayloadSchema }).strict(),
  z.object({ action: z.literal('deleteDependency'), feature: featureRef, payload: empty }).strict(),
  z.object({ action: z.literal('updateSegment'), payload: segmentPayloadSchema.extend({ id: segmentId }) }).strict(),
  z.object({ action: z.literal('deleteSegment'), payload: z.object({ id: segmentId }).strict() }).strict(),
]);
export type ChangeInput = z.output<typeof changeSchema>;


/** An unknown or missing `action` named as such (the union alone would report it without a path). */
function checkActions(input: unknown): void {
  const items = Array.isArray(input) ? input : [input];
  items.forEach((item, i) => {
    const action = item !== null && typeof item === 'object' ? (item as { action?: unknown }).action : undefined;
    if (typeof action !== 'string' || !Object.hasOwn(PERMISSION, action)) {
      throw ValidationError.single(Array.isArray(input) ? `${i}/action` : 'action', `The \`action\` must be one of ${Object.keys(PERMISSION).join(', ')}.`);
    }
  });
}

export const changeListSchema = z.array(changeSchema).min(1).max(100);
export const titleSchema = z.object({ title: z.string().trim().min(1).max(255) }).strict();
export const commentSchema = z.object({ text: z.string().trim().min(1).max(10_000) }).strict();

/** The permission the change itself would need if made directly: a request may only propose what its author may do. */
const PERMISSION: Record<ChangeInput['action'], { permission: string; environment: boolean; root?: boolean }> = {
  updateEnabled: { permission: 'UPDATE_FEATURE_ENVIRONMENT', environment: true },
  addStrategy: { permission: 'CREATE_FEATURE_STRATEGY', environment: true },
  updateStrategy: { permission: 'UPDATE_FEATURE_STRATEGY', environment: true },
  reorderStrategy: { permission: 'UPDATE_FEATURE_STRATEGY', environment: true },
  deleteStrategy: { permission: 'DELETE_FEATURE_STRATEGY', environment: true },
  patchVariant: { permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', environment: true },
  archiveFeature: { permission: 'DELETE_FEATURE', environment: false },
  addDependency: { permission: 'UPDATE_FEATURE_DEPENDENCY', environment: false },
  deleteDependency: { permission: 'UPDATE_FEATURE_DEPENDENCY', environment: false },
  updateSegment: { permission: 'UPDATE_SEGMENT', environment: false, root: true },
  deleteSegment: { permission: 'DELETE_SEGMENT', environment: false, root: true },
};

interface RequestRow {
  id: number;
  project: string;
  environment: string;
  title: string | null;
  state: ChangeRequestState;
  min_approvals: number;
  created_by: string;
  /** Who wrote it, by id (`actorKey`): authorship is decided by this, never by `created_by`. */
  created_by_actor: string;
  created_at: Date;
  scheduled_at: Date | null;
  schedule_status: 'pending' | 'failed' | null;
  failure_reason: string | null;
}
interface ChangeRow extends StoredChange {
  change_request_id: number;
  created_by: string;
  created_at: Date;
  segment_name: string | null;
}
interface ReviewRow {
  change_request_id: number;
  created_by: string;
  created_by_user_id: number | null;
  decision: 'approved' | 'rejected';
  created_at: Date;
}
interface CommentRow {
  id: number;
  change_request_id: number;
  text: string;
  created_by: string;
  created_at: Date;
}

/** A validated change in stored form (before it has an id). */
const stored = (c: ChangeInput): StoredChange => ({ id: 0, feature: 'feature' in c ? c.feature : null, action: c.action, payload: (c.payload ?? {}) as Record<string, unknown>, snapshot: null });

const actor = (name: string): ChangeRequestActor => ({ username: name, imageUrl: null });
const iso = (d: Date) => new Date(d).toISOString();
const toChange = (c: ChangeRow, conflict: string | undefined): ChangeRequestChange => ({
  id: c.id, action: c.action, ...(conflict !== undefined ? { conflict } : {}), payload: c.payload, createdBy: actor(c.created_by), createdAt: iso(c.created_at),
});
const toReview = (r: ReviewRow): ChangeRequestReview => ({ createdBy: { id: r.created_by_user_id, username: r.created_by, imageUrl: null }, createdAt: iso(r.created_at) });
const toComment = (c: CommentRow): ChangeRequestComment => ({ id: c.id, text: c.text, createdBy: actor(c.created_by), createdAt: iso(c.created_at) });

/** Rows grouped by the request they belong to (one pass, whatever the number of requests). */
function byRequest<T extends { change_request_id: number }>(rows: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(r.change_request_id);
    if (list) list.push(r);
    else out.set(r.change_request_id, [r]);
  }
  return out;
}

/**
 * Change requests (issue 12): drafts and their changes, reading, comments. A change is validated as its action's
 * shape, needs the permission making it directly would need, and must name things that exist (the feature in the
 * project, the strategy in the environment, the segment) when it is added.
 */
export class ChangeRequestService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** One request of the project; 404 for an unknown or malformed id, or one of another project. */
  async get(project: string, id: string | number): Promise<ChangeRequest> {
    const n = rowId(id);
    const [request] = n === undefined ? [] : await this.read(this.em, 'where r.id = ? and r.project = ?', [n, project]);
    if (!request) throw new NotFoundError(`Could not find change request ${String(id)} in project "${project}"`);
    return request;
  }

  /** The project's open requests (Draft, In review, Approved, Scheduled), newest first. */
  async open(project: string): Promise<ChangeRequest[]> {
    return this.read(this.em, 'where r.project = ? and r.state in (?)', [project, OPEN_STATES]);
  }

  /** The project's requests in one state, or all of them, newest first. */
  async list(project: string, state?: string): Promise<ChangeRequest[]> {
    if (state !== undefined && !(CHANGE_REQUEST_STATES as readonly string[]).includes(state)) {
      throw ValidationError.single('state', `The \`state\` must be one of ${CHANGE_REQUEST_STATES.join(', ')}.`);
    }
    return state === undefined ? this.read(this.em, 'where r.project = ?', [project]) : this.read(this.em, 'where r.project = ? and r.state = ?', [project, state]);
  }

  /** Which of these requests the caller wrote, decided by who they are (`actorKey`), never by a name. */
  async authoredByCaller(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows: Array<{ id: number }> = await this.em.execute('select id from change_requests where id in (?) and created_by_actor = ?', [ids, actorKey(this.principal)]);
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Open requests of the project with changes to `feature`. */
  async pendingForFeature(project: string, feature: string): Promise<ChangeRequest[]> {
    return this.read(this.em, 'where r.project = ? and r.state in (?) and exists (select 1 from change_request_changes c where c.change_request_id = r.id and c.feature = ?)', [project, OPEN_STATES, feature]);
  }

  /**
   * Adds one change or several to the caller's Draft for the project environment, creating the Draft when there is
   * none (event change-request-created), with event change-added for each change. Returns the whole request.
   */
  async addChanges(project: string, environment: string, input: unknown): Promise<ChangeRequest> {
    checkActions(input);
    const changes = Array.isArray(input) ? parse(changeListSchema, input) : [parse(changeSchema, input)];
    for (const c of changes) {
      const rule = PERMISSION[c.action];
      await this.access.check(rule.permission, rule.root ? {} : { project, ...(rule.environment ? { environment } : {}) });
    }
    const id = await change(this.em, this.principal, async (tx, emit) => {
      const config = await lockedProjectEnvironment(tx, project, environment, 'share');
      // A request may also be made where none is required (a voluntary second pair of eyes); it needs the approvals
      // the environment is configured with.
      for (const [i, c] of changes.entries()) await this.checkTargets(tx, project, environment, c, changes.length > 1 ? `${i}/` : '');
      const lockDraft = async (): Promise<{ id: number } | undefined> => {
        const rows: Array<{ id: number }> = await tx.execute(
          `select id from change_requests where project = ? and environment = ? and created_by_actor = ? and state = 'Draft' for update`,
          [project, environment, actorKey(this.principal)]);
        return rows[0];
      };
      // The Draft is looked for first: an insert that meets the existing one would still use up a request number.
      let draft = await lockDraft();
      let created: Array<{ id: number }> = [];
      if (!draft) {
        // Two first changes at once: one insert wins, the other waits for it and then finds its Draft.
        created = await tx.execute(
          `insert into change_requests (project, environment, min_approvals, created_by, created_by_user_id, created_by_actor) values (?, ?, ?, ?, ?, ?)
           on conflict (project, environment, created_by_actor) where state = 'Draft' do nothing returning id`,
          [project, environment, config.requiredApprovals, this.principal.name, this.principal.userId, actorKey(this.principal)]);
        draft = (await lockDraft())!;
      }
      if (created.length > 0) emit({ type: 'change-request-created', project, environment, data: { changeRequestId: draft.id } });
      const snapshots = await snapshotsOf(tx, changes.map((c) => ({ environment, change: stored(c) })));
      for (const [i, c] of changes.entries()) {
        const row = await this.insertChange(tx, draft.id, c, snapshots[i]);
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
    const target = rowId(id);
    const [known]: Array<{ environment: string }> = target === undefined ? [] : await this.em.execute('select environment from change_requests where id = ? and project = ?', [target, project]);
    if (!known) throw new NotFoundError(`Could not find change request ${String(id)} in project "${project}"`);
    const rule = PERMISSION[c.action];
    await this.access.check(rule.permission, rule.root ? {} : { project, ...(rule.environment ? { environment: known.environment } : {}) });
    const request = await change(this.em, this.principal, async (tx, emit) => {
      const r = await this.lockEditable(tx, project, id);
      const n = rowId(changeId);
      const [old]: Array<{ id: number }> = n === undefined ? [] : await tx.execute(
        'delete from change_request_changes where id = ? and change_request_id = ? returning id', [n, r.id]);
      if (!old) throw new NotFoundError(`Could not find change ${String(changeId)} in change request ${r.id}`);
      await this.checkTargets(tx, project, r.environment, c, '');
      const [snapshot] = await snapshotsOf(tx, [{ environment: r.environment, change: stored(c) }]);
      const row = await this.insertChange(tx, r.id, c, snapshot);
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
      const n = rowId(changeId);
      const [removed]: Array<{ id: number; feature: string | null; action: string; payload: unknown }> = n === undefined ? [] : await tx.execute(
        'delete from change_request_changes where id = ? and change_request_id = ? returning id, feature, action, payload', [n, request.id]);
      if (!removed) throw new NotFoundError(`Could not find change ${String(changeId)} in change request ${request.id}`);
      await this.withdrawApprovals(tx, request);
      emit({ type: 'change-discarded', project, environment: request.environment, featureName: removed.feature, data: { changeRequestId: request.id, change: { id: removed.id, action: removed.action, payload: removed.payload } } });
      const [left] = await tx.execute('select 1 from change_request_changes where change_request_id = ? limit 1', [request.id]);
      if (!left) {
        await tx.execute('delete from change_requests where id = ?', [request.id]);
        emit({ type: 'change-request-discarded', project, environment: request.environment, data: { changeRequestId: request.id } });
      }
    });
  }

  /** The author renames the request while it is Draft or In review. */
  async setTitle(project: string, id: string | number, input: unknown): Promise<ChangeRequest> {
    const { title } = parse(titleSchema, input);
    const request = await change(this.em, this.principal, async (tx) => {
      const r = await this.lockEditable(tx, project, id);
      await tx.execute('update change_requests set title = ? where id = ?', [title, r.id]);
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
    const target = rowId(id);
    const [known]: Array<{ environment: string; created_by: string; created_by_actor: string }> = target === undefined ? [] : await this.em.execute(
      'select environment, created_by, created_by_actor from change_requests where id = ? and project = ?', [target, project]);
    if (!known) throw new NotFoundError(`Could not find change request ${String(id)} in project "${project}"`);
    const isAuthor = known.created_by_actor === actorKey(this.principal);
    const scope = { project, environment: known.environment };
    switch (data.state) {
      case 'In review':
        if (!isAuthor) throw new ForbiddenError(`Only the author of change request ${target} (${known.created_by}) may send it to review.`);
        break;
      case 'Approved':
      case 'Rejected':
        if (isAuthor) throw new ForbiddenError(`You cannot ${data.state === 'Approved' ? 'approve' : 'reject'} your own change request: another user must review it (cancel it instead to withdraw it).`);
        await this.access.check('APPROVE_CHANGE_REQUEST', scope);
        break;
      case 'Applied':
      case 'Scheduled':
        await this.access.check('APPLY_CHANGE_REQUEST', scope);
        break;
      case 'Cancelled':
        if (!isAuthor) await this.access.check('APPLY_CHANGE_REQUEST', scope);
        break;
      case 'Draft':
        break;
    }
    await change(this.em, this.principal, async (tx, emit) => {
      const r = await this.lock(tx, project, id, 'update');
      if (!TRANSITIONS[data.state].includes(r.state)) {
        const from = TRANSITIONS[data.state];
        throw new ConflictError(`Change request ${r.id} is ${r.state}: it cannot become ${data.state}${from.length === 0 ? ' (a request never goes back to Draft)' : ` (only a request that is ${from.join(' or ')} can)`}.`);
      }
      const event = (type: EventType, extra: Record<string, unknown> = {}) => emit({ type, project, environment: r.environment, data: { changeRequestId: r.id, ...extra } });
      if (data.comment !== undefined) {
        await tx.execute('insert into change_request_comments (change_request_id, text, created_by, created_by_user_id) values (?, ?, ?, ?)',
          [r.id, data.comment, this.principal.name, this.principal.userId]);
      }
      switch (data.state) {
        case 'In review': {
          // The approvals needed are the environment's setting when review starts (it may have changed since the draft).
          const config = await lockedProjectEnvironment(tx, project, r.environment, 'share');
          await tx.execute(`update change_requests set state = 'In review', min_approvals = ? where id = ?`, [config.requiredApprovals, r.id]);
          event('change-request-sent-to-review');
          break;
        }
        case 'Approved': {
          const added = await tx.execute(
            `insert into change_request_reviews (change_request_id, created_by, created_by_user_id, created_by_actor, decision) values (?, ?, ?, ?, 'approved')
             on conflict (change_request_id, created_by_actor) do nothing returning created_by`, [r.id, this.principal.name, this.principal.userId, actorKey(this.principal)]);
          if (added.length === 0) throw new ConflictError(`You have already reviewed change request ${r.id}.`);
          event('change-request-approval-added');
          const [{ approvals }]: Array<{ approvals: number }> = await tx.execute(
            `select count(*)::int as approvals from change_request_reviews where change_request_id = ? and decision = 'approved'`, [r.id]);
          if (approvals >= r.min_approvals) {
            await tx.execute(`update change_requests set state = 'Approved' where id = ?`, [r.id]);
            event('change-request-approved');
          }
          break;
        }
        case 'Rejected':
          await tx.execute(
            `insert into change_request_reviews (change_request_id, created_by, created_by_user_id, created_by_actor, decision) values (?, ?, ?, ?, 'rejected')
             on conflict (change_request_id, created_by_actor) do update set decision = 'rejected', created_by = excluded.created_by, created_at = now()`,
            [r.id, this.principal.name, this.principal.userId, actorKey(this.principal)]);
          await tx.execute(`update change_requests set state = 'Rejected' where id = ?`, [r.id]);
          event('change-request-rejected');
          break;
        case 'Applied':
          await applyChangeRequest(tx, this.principal, r, this.access);
          await tx.execute(`update change_requests set state = 'Applied', applied_at = now(), schedule_status = null where id = ?`, [r.id]);
          event('change-request-applied');
          break;
        case 'Scheduled':
          await tx.execute(
            `update change_requests set state = 'Scheduled', scheduled_at = ?, schedule_status = 'pending', failure_reason = null,
                    scheduled_by = ?, scheduled_by_user_id = ?, scheduled_by_actor = ? where id = ?`,
            [scheduledAt, this.principal.name, this.principal.userId, actorKey(this.principal), r.id]);
          event('change-request-scheduled', { scheduledDate: scheduledAt?.toISOString() });
          break;
        case 'Cancelled':
          await tx.execute(`update change_requests set state = 'Cancelled', schedule_status = null where id = ?`, [r.id]);
          event('change-request-cancelled');
          break;
        case 'Draft':
          break;
      }
    });
    return this.get(project, target as number);
  }

  /** Anyone who may read the project comments on an open or closed request. */
  async addComment(project: string, id: string | number, input: unknown): Promise<ChangeRequestComment> {
    const { text } = parse(commentSchema, input);
    const row = await change(this.em, this.principal, async (tx) => {
      const request = await this.lock(tx, project, id, 'share');
      const [c]: CommentRow[] = await tx.execute(
        'insert into change_request_comments (change_request_id, text, created_by, created_by_user_id) values (?, ?, ?, ?) returning id, change_request_id, text, created_by, created_at',
        [request.id, text, this.principal.name, this.principal.userId]);
      return c;
    });
    return toComment(row);
  }

  private async insertChange(tx: EntityManager, requestId: number, c: ChangeInput, snapshot: unknown): Promise<{ id: number }> {
    const [row]: Array<{ id: number }> = await tx.execute(
      `insert into change_request_changes (change_request_id, feature, action, payload, snapshot, created_by, created_by_user_id)
       values (?, ?, ?, ?::jsonb, ?::jsonb, ?, ?) returning id`,
      [requestId, 'feature' in c ? c.feature : null, c.action, JSON.stringify(c.payload ?? {}), snapshot === null ? null : JSON.stringify(snapshot), this.principal.name, this.principal.userId]);
    return row;
  }

  /** What reviewers approved is no longer what the request holds: their approvals are withdrawn (four eyes see the final version). */
  private async withdrawApprovals(tx: EntityManager, r: RequestRow): Promise<void> {
    if (r.state === 'In review') await tx.execute(`delete from change_request_reviews where change_request_id = ? and decision = 'approved'`, [r.id]);
  }

  /** The request row locked (`update` or `share`); 404 when it is not a request of the project. */
  private async lock(tx: EntityManager, project: string, id: string | number, strength: 'update' | 'share'): Promise<RequestRow> {
    const n = rowId(id);
    const [row]: RequestRow[] = n === undefined ? [] : await tx.execute(`select * from change_requests where id = ? and project = ? for ${strength}`, [n, project]);
    if (!row) throw new NotFoundError(`Could not find change request ${String(id)} in project "${project}"`);
    return row;
  }

  /** As `lock`, for a change of what the request holds: only its author, only while Draft or In review. */
  private async lockEditable(tx: EntityManager, project: string, id: string | number): Promise<RequestRow> {
    const row = await this.lock(tx, project, id, 'update');
    if (row.created_by_actor !== actorKey(this.principal)) throw new ForbiddenError(`Only the author of change request ${row.id} (${row.created_by}) may change what it holds.`);
    if (!EDITABLE_STATES.includes(row.state)) throw new ConflictError(`Change request ${row.id} is ${row.state}: its changes can only be changed while it is Draft or In review.`);
    return row;
  }

  /** What a change names must exist now: the feature in the project, the strategy in the environment, the segment. */
  private async checkTargets(tx: EntityManager, project: string, environment: string, c: ChangeInput, at: string): Promise<void> {
    if (c.action === 'updateSegment' || c.action === 'deleteSegment') {
      const [s] = await tx.execute('select 1 from segments where id = ? for key share', [c.payload.id]);
      if (!s) throw new NotFoundError(`Could not find segment with id ${c.payload.id}`);
      return;
    }
    await loadProjectFeature(tx, project, c.feature, 'key share');
    if (c.action === 'updateStrategy' || c.action === 'deleteStrategy') {
      const [s] = await tx.execute('select 1 from feature_strategies where id = ? and feature_name = ? and environment = ?', [c.payload.id, c.feature, environment]);
      if (!s) throw new NotFoundError(`Could not find strategy ${c.payload.id} of ${c.feature} in the ${environment} environment`);
    }
    if (c.action === 'addDependency') {
      if (c.payload.feature === c.feature) throw ValidationError.single(`${at}payload/feature`, 'A feature cannot depend on itself.');
      await loadProjectFeature(tx, project, c.payload.feature, 'key share');
    }
  }

  /**
   * Requests matching `where` (over `change_requests r`), newest first, with their changes, reviews and comments (4
   * statements), and for open requests the conflicts and background changes of their changes (up to 5 more, whatever
   * the number of requests).
   */
  private async read(em: EntityManager, where: string, params: unknown[]): Promise<ChangeRequest[]> {
    const requests: RequestRow[] = await em.execute(`select r.* from change_requests r ${where} order by r.id desc limit 1000`, params);
    if (requests.length === 0) return [];
    const ids = requests.map((r) => r.id);
    const [changes, comments, reviews] = await Promise.all([
      em.execute(`select c.*, s.name as segment_name from change_request_changes c
                    left join segments s on c.feature is null and s.id::text = c.payload->>'id'
                   where c.change_request_id in (?) order by c.id`, [ids]) as Promise<ChangeRow[]>,
      em.execute('select * from change_request_comments where change_request_id in (?) order by id', [ids]) as Promise<CommentRow[]>,
      em.execute('select * from change_request_reviews where change_request_id in (?) order by created_at, created_by', [ids]) as Promise<ReviewRow[]>,
    ]);
    const changesOf = byRequest(changes);
    const commentsOf = byRequest(comments);
    const reviewsOf = byRequest(reviews);
    // Conflicts and background changes matter only while a request can still be applied.
    const open = requests.filter((r) => OPEN_STATES.includes(r.state));
    const project = requests[0].project;
    const [conflicts, defaults] = open.length === 0
      ? [{ features: new Map<string, string>(), changes: new Map<number, string>() }, new Map<string, DefaultChange>()]
      : await Promise.all([
        findConflicts(em, project, open.flatMap((r) => (changesOf.get(r.id) ?? []).map((change) => ({ environment: r.environment, change })))),
        defaultChanges(em, project, open.map((r) => ({ id: r.id, environment: r.environment, changes: changesOf.get(r.id) ?? [] }))),
      ]);
    return requests.map((r) => {
      const isOpen = OPEN_STATES.includes(r.state);
      const features = new Map<string, ChangeRequestChange[]>();
      const segments = new Map<number, { id: number; name: string; changes: ChangeRequestChange[] }>();
      for (const c of changesOf.get(r.id) ?? []) {
        const change = toChange(c, isOpen ? conflicts.changes.get(c.id) : undefined);
        if (c.feature !== null) {
          features.set(c.feature, [...(features.get(c.feature) ?? []), change]);
        } else {
          const segment = Number((c.payload as { id?: number }).id);
          const entry = segments.get(segment) ?? { id: segment, name: c.segment_name ?? String(segment), changes: [] };
          entry.changes.push(change);
          segments.set(segment, entry);
        }
      }
      const requestReviews = reviewsOf.get(r.id) ?? [];
      return {
        id: r.id,
        title: r.title ?? `Change request #${r.id}`,
        environment: r.environment,
        minApprovals: r.min_approvals,
        project: r.project,
        state: r.state,
        features: [...features].map(([name, list]) => {
          const conflict = isOpen ? conflicts.features.get(name) : undefined;
          const defaultChange = isOpen ? defaults.get(`${r.id}\u0000${name}`) : undefined;
          return { name, ...(conflict !== undefined ? { conflict } : {}), changes: list, ...(defaultChange ? { defaultChange } : {}) };
        }),
        segments: [...segments.values()],
        approvals: requestReviews.filter((v) => v.decision === 'approved').map(toReview),
        rejections: requestReviews.filter((v) => v.decision === 'rejected').map(toReview),
        comments: (commentsOf.get(r.id) ?? []).map(toComment),
        createdBy: actor(r.created_by),
        createdAt: iso(r.created_at),
        ...(r.state === 'Scheduled' && r.scheduled_at !== null
          ? { schedule: { scheduledAt: iso(r.scheduled_at), status: r.schedule_status ?? 'pending', failureReason: r.failure_reason } }
          : {}),
      };
    });
  }
}
