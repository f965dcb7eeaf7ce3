import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Change requests (migrations 0014, 0015, 0020): a request of one project environment, with its schedule. Who wrote
 * or scheduled it is recorded by name and by actor key (`user:<id>` or `token:<id>`); authorship is decided by the key.
 */
export const ChangeRequestSchema = defineEntity({
  name: 'ChangeRequest',
  tableName: 'change_requests',
  properties: {
    id: p.integer().primary(),
    project: p.text(),
    environment: p.text(),
    title: p.text().nullable(),
    state: p.enum(['Draft', 'In review', 'Approved', 'Applied', 'Cancelled', 'Rejected', 'Scheduled']).default('Draft'),
    minApprovals: p.integer(),
    createdBy: p.text(),
    createdByUserId: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    scheduledAt: p.datetime().nullable(),
    scheduleStatus: p.enum(['pending', 'failed']).nullable(),
    failureReason: p.text().nullable(),
    scheduledBy: p.text().nullable(),
    scheduledByUserId: p.integer().nullable(),
    appliedAt: p.datetime().nullable(),
    createdByActor: p.text(),
    scheduledByActor: p.text().nullable(),
  },
});
export type ChangeRequestRow = InferEntity<typeof ChangeRequestSchema>;

/**
 * A change of a request (migrations 0014, 0015): its action's payload as validated when proposed, and a snapshot of
 * its target as it was then (a later change to the target shows as a conflict).
 */
export const ChangeRequestChangeSchema = defineEntity({
  name: 'ChangeRequestChange',
  tableName: 'change_request_changes',
  properties: {
    id: p.integer().primary(),
    changeRequestId: p.integer(),
    feature: p.text().nullable(),
    action: p.text(),
    payload: p.json<Record<string, unknown>>().default('{}'),
    createdBy: p.text(),
    createdByUserId: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    snapshot: p.json<unknown>().nullable(),
  },
});
export type ChangeRequestChangeRow = InferEntity<typeof ChangeRequestChangeSchema>;

/** A comment on a request (migration 0014). */
export const ChangeRequestCommentSchema = defineEntity({
  name: 'ChangeRequestComment',
  tableName: 'change_request_comments',
  properties: {
    id: p.integer().primary(),
    changeRequestId: p.integer(),
    text: p.text(),
    createdBy: p.text(),
    createdByUserId: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type ChangeRequestCommentRow = InferEntity<typeof ChangeRequestCommentSchema>;

/** One approval or rejection per reviewer (by actor key) and request (migrations 0015, 0020). */
export const ChangeRequestReviewSchema = defineEntity({
  name: 'ChangeRequestReview',
  tableName: 'change_request_reviews',
  properties: {
    changeRequestId: p.integer().primary(),
    createdByActor: p.text().primary(),
    createdBy: p.text(),
    createdByUserId: p.integer().nullable(),
    decision: p.enum(['approved', 'rejected']),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type ChangeRequestReviewRow = InferEntity<typeof ChangeRequestReviewSchema>;
