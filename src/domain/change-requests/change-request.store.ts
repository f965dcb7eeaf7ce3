import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { actorKey, type Principal } from '../access/principal';
import type { ApiTokenRow } from '../access/api-token.entity';
import type { UserRow } from '../access/user.entity';
import { lockClause, type RowLock } from '../change';
import { NotFoundError } from '../errors';
import { FeatureStrategySchema } from '../features/feature-strategy.entity';
import type { TableRow } from '../rows';
import { rowId } from '../validation';
import {
  ChangeRequestChangeSchema, ChangeRequestCommentSchema, ChangeRequestReviewSchema, ChangeRequestSchema,
  type ChangeRequestChangeRow, type ChangeRequestCommentRow, type ChangeRequestRow,
} from './change-request.entity';

/**
 * The SQL that writes change requests, their changes, reviews and comments, and the row locks the services and the
 * scheduler take (change-request.service.ts and change-request-scheduler.ts say what each rule is for).
 */

/**
 * A row of `change_requests` (`select *`). Who wrote it is `created_by_actor` (`actorKey`): authorship is decided by
 * that, never by `created_by`.
 */
export type ChangeRequestDbRow = TableRow<ChangeRequestRow>;

/** A row of `change_request_comments` as a comment is answered. */
export type CommentRow = Pick<TableRow<ChangeRequestCommentRow>, 'id' | 'change_request_id' | 'text' | 'created_by' | 'created_at'>;

/** A request's id. */
type RequestIdRow = Pick<ChangeRequestDbRow, 'id'>;
/** A request's id, project and environment: what applying it and recording its failure need. */
type RequestScopeRow = Pick<ChangeRequestDbRow, 'id' | 'project' | 'environment'>;
/** A change's id. */
type ChangeIdRow = Pick<TableRow<ChangeRequestChangeRow>, 'id'>;
/** A change as it was before it was discarded. */
type DiscardedChangeRow = Pick<TableRow<ChangeRequestChangeRow>, 'id' | 'feature' | 'action' | 'payload'>;
/** The user who scheduled a request, as a principal is made from them. */
type SchedulerUserRow = Pick<TableRow<UserRow>, 'id' | 'username' | 'email' | 'root_role_id'>;
/** The API token that scheduled a request. */
type SchedulerTokenRow = Pick<TableRow<ApiTokenRow>, 'id' | 'token_name' | 'type'>;

/** 404 for a change request that is not one of the project (or an id that cannot be one). */
export const changeRequestNotFound = (project: string, id: string | number): NotFoundError =>
  new NotFoundError(`Could not find change request ${String(id)} in project "${project}"`);

/**
 * A change request of the project, read with the row lock given (none outside a transaction); 404 for an unknown or
 * malformed id, or a request of another project.
 */
export async function loadChangeRequest(em: EntityManager, project: string, id: string | number, lock?: RowLock): Promise<ChangeRequestDbRow> {
  const n = rowId(id);
  // SQL: any of the four row locks, and the raw row (times as stored) that services and the read model share.
  const [row]: ChangeRequestDbRow[] = n === undefined ? [] : await em.execute(`select * from change_requests where id = ? and project = ?${lockClause(lock)}`, [n, project]);
  if (!row) throw changeRequestNotFound(project, id);
  return row;
}

/** The caller's Draft for the project environment, locked `for update`. */
export async function lockDraft(tx: EntityManager, project: string, environment: string, principal: Principal): Promise<RequestIdRow | undefined> {
  // SQL: a lock of the id only (the caller needs no entity).
  const rows: RequestIdRow[] = await tx.execute(
    `select id from change_requests where project = ? and environment = ? and created_by_actor = ? and state = 'Draft' for update`,
    [project, environment, actorKey(principal)]);
  return rows[0];
}

/** A new Draft of the caller's, unless one exists (the unique index on open Drafts decides); true when it was made. */
export async function insertDraft(tx: EntityManager, project: string, environment: string, minApprovals: number, principal: Principal): Promise<boolean> {
  const created: RequestIdRow[] = await tx.execute(
    `insert into change_requests (project, environment, min_approvals, created_by, created_by_user_id, created_by_actor) values (?, ?, ?, ?, ?, ?)
     on conflict (project, environment, created_by_actor) where state = 'Draft' do nothing returning id`,
    [project, environment, minApprovals, principal.name, principal.userId, actorKey(principal)]);
  return created.length > 0;
}

export async function insertChange(
  tx: EntityManager, requestId: number, c: { feature: string | null; action: string; payload: unknown }, snapshot: unknown, principal: Principal,
): Promise<ChangeIdRow> {
  const id = await tx.insert(ChangeRequestChangeSchema, {
    changeRequestId: requestId, feature: c.feature, action: c.action, payload: (c.payload ?? {}) as Record<string, unknown>, snapshot,
    createdBy: principal.name, createdByUserId: principal.userId,
  });
  return { id };
}

/** Deletes a change of the request (to replace it); undefined when the request has no such change. */
export async function deleteChange(tx: EntityManager, requestId: number, changeId: string | number): Promise<ChangeIdRow | undefined> {
  const n = rowId(changeId);
  if (n === undefined) return undefined;
  return (await tx.nativeDelete(ChangeRequestChangeSchema, { id: n, changeRequestId: requestId })) > 0 ? { id: n } : undefined;
}

/** Deletes a change of the request and returns what it was; undefined when the request has no such change. */
export async function discardChange(
  tx: EntityManager, requestId: number, changeId: string | number,
): Promise<DiscardedChangeRow | undefined> {
  const n = rowId(changeId);
  // SQL: `delete … returning` the change (the ORM would need a read first).
  const [removed]: DiscardedChangeRow[] = n === undefined ? [] : await tx.execute(
    'delete from change_request_changes where id = ? and change_request_id = ? returning id, feature, action, payload', [n, requestId]);
  return removed;
}

export async function hasChanges(tx: EntityManager, requestId: number): Promise<boolean> {
  return (await tx.count(ChangeRequestChangeSchema, { changeRequestId: requestId })) > 0;
}

export async function deleteChangeRequest(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeDelete(ChangeRequestSchema, { id });
}

export async function withdrawApprovals(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeDelete(ChangeRequestReviewSchema, { changeRequestId: id, decision: 'approved' });
}

export async function setTitle(tx: EntityManager, id: number, title: string): Promise<void> {
  await tx.nativeUpdate(ChangeRequestSchema, { id }, { title });
}

/** The comment sent with a move of the request. */
export async function insertComment(tx: EntityManager, requestId: number, text: string, principal: Principal): Promise<void> {
  await tx.insert(ChangeRequestCommentSchema, { changeRequestId: requestId, text, createdBy: principal.name, createdByUserId: principal.userId });
}

/** A comment on its own, returned as stored. */
export async function addComment(tx: EntityManager, requestId: number, text: string, principal: Principal): Promise<CommentRow> {
  // SQL: `insert … returning` the comment with its time (the ORM returns the id only).
  const [c]: CommentRow[] = await tx.execute(
    'insert into change_request_comments (change_request_id, text, created_by, created_by_user_id) values (?, ?, ?, ?) returning id, change_request_id, text, created_by, created_at',
    [requestId, text, principal.name, principal.userId]);
  return c;
}

export async function sendToReview(tx: EntityManager, id: number, minApprovals: number): Promise<void> {
  await tx.nativeUpdate(ChangeRequestSchema, { id }, { state: 'In review', minApprovals });
}

/** The caller's approval; false when they have already reviewed the request. */
export async function addApproval(tx: EntityManager, id: number, principal: Principal): Promise<boolean> {
  const added = await tx.execute(
    `insert into change_request_reviews (change_request_id, created_by, created_by_user_id, created_by_actor, decision) values (?, ?, ?, ?, 'approved')
     on conflict (change_request_id, created_by_actor) do nothing returning created_by`, [id, principal.name, principal.userId, actorKey(principal)]);
  return added.length > 0;
}

export async function countApprovals(tx: EntityManager, id: number): Promise<number> {
  return tx.count(ChangeRequestReviewSchema, { changeRequestId: id, decision: 'approved' });
}

export async function markApproved(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeUpdate(ChangeRequestSchema, { id }, { state: 'Approved' });
}

/** The caller's rejection (replacing an approval of theirs), and the request Rejected. */
export async function reject(tx: EntityManager, id: number, principal: Principal): Promise<void> {
  await tx.execute(
    `insert into change_request_reviews (change_request_id, created_by, created_by_user_id, created_by_actor, decision) values (?, ?, ?, ?, 'rejected')
     on conflict (change_request_id, created_by_actor) do update set decision = 'rejected', created_by = excluded.created_by, created_at = now()`,
    [id, principal.name, principal.userId, actorKey(principal)]);
  await tx.nativeUpdate(ChangeRequestSchema, { id }, { state: 'Rejected' });
}

export async function markApplied(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeUpdate(ChangeRequestSchema, { id }, { state: 'Applied', appliedAt: raw('now()'), scheduleStatus: null });
}

export async function markScheduled(tx: EntityManager, id: number, scheduledAt: Date | undefined, principal: Principal): Promise<void> {
  await tx.nativeUpdate(ChangeRequestSchema, { id }, {
    state: 'Scheduled', scheduledAt: scheduledAt ?? null, scheduleStatus: 'pending', failureReason: null,
    scheduledBy: principal.name, scheduledByUserId: principal.userId, scheduledByActor: actorKey(principal),
  });
}

export async function markCancelled(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeUpdate(ChangeRequestSchema, { id }, { state: 'Cancelled', scheduleStatus: null });
}

/** Whether the segment exists, read `for key share` so it is not deleted before the change is recorded. */
export async function keySharedSegmentExists(tx: EntityManager, id: number): Promise<boolean> {
  const [s] = await tx.execute('select 1 from segments where id = ? for key share', [id]);
  return s !== undefined;
}

/** Whether the strategy is one of the feature's in the environment. */
export async function strategyExists(tx: EntityManager, id: string, feature: string, environment: string): Promise<boolean> {
  return (await tx.count(FeatureStrategySchema, { id, featureName: feature, environment })) > 0;
}

/** A Scheduled request still due and pending, locked `for update skip locked`: undefined when another instance has it. */
export async function lockDueRequest(tx: EntityManager, id: number): Promise<RequestScopeRow | undefined> {
  const [r]: RequestScopeRow[] = await tx.execute(
    `select id, project, environment from change_requests
      where id = ? and state = 'Scheduled' and schedule_status = 'pending' and scheduled_at <= now() for update skip locked`, [id]);
  return r;
}

/** The user who scheduled a request, as they are now, held `for key share` until the application commits. */
export async function lockSchedulerUser(tx: EntityManager, userId: number): Promise<SchedulerUserRow | undefined> {
  const [u]: SchedulerUserRow[] = await tx.execute(
    'select id, username, email, root_role_id from users where id = ? for key share', [userId]);
  return u;
}

/** The API token that scheduled a request, unless it has expired, held `for key share` until the application commits. */
export async function lockSchedulerToken(tx: EntityManager, tokenId: number): Promise<SchedulerTokenRow | undefined> {
  const [t]: SchedulerTokenRow[] = await tx.execute(
    'select id, token_name, type from api_tokens where id = ? and (expires_at is null or expires_at > now()) for key share', [tokenId]);
  return t;
}

/**
 * Marks this very schedule failed (only a request still pending at the time given, exactly as stored); undefined when
 * it was not (applied, moved or failed meanwhile).
 */
export async function markScheduleFailed(
  tx: EntityManager, id: number, scheduledAtText: string, reason: string,
): Promise<RequestScopeRow | undefined> {
  // SQL: `update … returning`, matching the time as stored (microseconds), which a JS Date cannot hold.
  const [r]: RequestScopeRow[] = await tx.execute(
    `update change_requests set schedule_status = 'failed', failure_reason = ?
      where id = ? and state = 'Scheduled' and schedule_status = 'pending' and scheduled_at = ?::timestamptz returning id, project, environment`,
    [reason, id, scheduledAtText]);
  return r;
}
