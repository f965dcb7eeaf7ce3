import { updateSchema } from '../domain/change-requests/change-request-config.service';
import type {
  ChangeRequest, ChangeRequestActor, ChangeRequestChange, ChangeRequestComment, ChangeRequestConfig,
} from '../domain/change-requests/change-request.shapes';
import { commentSchema, stateSchema, titleSchema } from '../domain/change-requests/change-request.schemas';
import DataLoader from 'dataloader';
import { builder, type GraphQLContext } from './builder';
import { zodInput, type InputFields } from './zod-input';

/** Change requests on the GraphQL door (issue 12): the same service as REST. */

const ChangeRequestConfigRef = builder.objectRef<ChangeRequestConfig>('ChangeRequestEnvironmentConfig').implement({
  description: 'Whether direct changes in an environment of a project need a change request, and how many approvals one needs.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'The environment.' }),
    type: t.exposeString('type', { description: 'Its type (development, production, …).' }),
    changeRequestsEnabled: t.exposeBoolean('changeRequestsEnabled', { description: 'Whether direct changes to features in it need a change request (or SKIP_CHANGE_REQUEST).' }),
    requiredApprovals: t.exposeInt('requiredApprovals', { description: 'Approvals a change request needs, by users other than its author (1 to 10).' }),
  }),
});

const UpdateChangeRequestConfigInput = zodInput('UpdateChangeRequestConfigInput', updateSchema, {
  description: "An environment's change-request settings in a project.",
  descriptions: {
    changeRequestsEnabled: 'Whether direct changes need a change request.',
    requiredApprovals: 'Approvals a request needs, 1 to 10 (unchanged when absent).',
  },
  fields: (t) => ({
    project: t.string({ required: true, description: 'The project.' }),
    environment: t.string({ required: true, description: 'The environment (enabled in the project).' }),
  }),
});

builder.queryFields((t) => ({
  changeRequestConfig: t.field({
    type: [ChangeRequestConfigRef],
    description: "The change-request settings of every environment of a project (NotFoundError for an unknown project).",
    args: { project: t.arg.string({ required: true, description: 'The project.' }) },
    resolve: (_root, { project }, ctx) => ctx.services.changeRequestConfig.get(project),
  }),
}));

builder.mutationFields((t) => ({
  updateChangeRequestConfig: t.field({
    type: ChangeRequestConfigRef,
    description: "Sets an environment's change-request settings in a project. Event change-request-configuration-updated when something changed.",
    args: { input: t.arg({ type: UpdateChangeRequestConfigInput, required: true, description: 'The project, the environment and the settings.' }) },
    resolve: (_root, { input: { project, environment, requiredApprovals, changeRequestsEnabled } }, ctx) =>
      ctx.services.changeRequestConfig.update(project, environment, { changeRequestsEnabled, ...(requiredApprovals === null || requiredApprovals === undefined ? {} : { requiredApprovals }) }),
  }),
}));

const ActorRef = builder.objectRef<ChangeRequestActor>('ChangeRequestActor').implement({
  description: 'Who did something in a change request.',
  fields: (t) => ({
    username: t.exposeString('username', { nullable: true, description: 'Username (or API token name).' }),
    imageUrl: t.exposeString('imageUrl', { nullable: true, description: 'Avatar.' }),
  }),
});

const ChangeRef = builder.objectRef<ChangeRequestChange>('ChangeRequestChange').implement({
  description: 'One proposed change.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Change id (a new one after each edit).' }),
    action: t.exposeString('action', { description: 'updateEnabled, addStrategy, updateStrategy, deleteStrategy, archiveFeature, patchVariant, reorderStrategy, addDependency, deleteDependency, updateSegment or deleteSegment.' }),
    conflict: t.string({ nullable: true, description: 'While the request is open: what the change relies on (a strategy, the variants, a segment, a parent feature) vanished or changed since it was made. Null when there is no conflict.', resolve: (c) => c.conflict ?? null }),
    payload: t.field({ type: 'JSON', description: "The action's payload.", resolve: (c) => c.payload }),
    createdBy: t.field({ type: ActorRef, description: 'Who proposed it.', resolve: (c) => c.createdBy }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When.' }),
  }),
});

const CommentRef = builder.objectRef<ChangeRequestComment>('ChangeRequestComment').implement({
  description: 'A comment on a change request.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Comment id.' }),
    text: t.exposeString('text', { description: 'The text.' }),
    createdBy: t.field({ type: ActorRef, description: 'Who wrote it.', resolve: (c) => c.createdBy }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When.' }),
  }),
});

const DefaultChangeRef = builder.objectRef<NonNullable<ChangeRequest['features'][number]['defaultChange']>>('ChangeRequestDefaultChange').implement({
  description: 'A background change applying the request makes to avoid an invalid state.',
  fields: (t) => ({
    action: t.exposeString('action', { description: 'addStrategy (the default strategy, when switching on without an active strategy) or updateEnabled (switched off when its last active strategy goes).' }),
    payload: t.field({ type: 'JSON', description: 'What it writes.', resolve: (d) => d.payload }),
  }),
});

const ScheduleRef = builder.objectRef<NonNullable<ChangeRequest['schedule']>>('ChangeRequestSchedule').implement({
  description: 'When a Scheduled request is applied.',
  fields: (t) => ({
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime', description: 'When it is applied.' }),
    status: t.exposeString('status', { description: 'pending, or failed when applying it at its time failed.' }),
    failureReason: t.exposeString('failureReason', { nullable: true, description: 'Why applying it failed.' }),
  }),
});

const FeatureChangesRef = builder.objectRef<ChangeRequest['features'][number]>('ChangeRequestFeature').implement({
  description: "A feature's changes in a request.",
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The feature.' }),
    conflict: t.string({ nullable: true, description: 'While the request is open: the feature no longer exists, was archived or moved. Null otherwise.', resolve: (f) => f.conflict ?? null }),
    defaultChange: t.field({ type: DefaultChangeRef, nullable: true, description: 'A background change applying the request makes to this feature, if any.', resolve: (f) => f.defaultChange ?? null }),
    changes: t.field({ type: [ChangeRef], description: 'Its changes, oldest first.', resolve: (f) => f.changes }),
  }),
});

const SegmentChangesRef = builder.objectRef<ChangeRequest['segments'][number]>('ChangeRequestSegment').implement({
  description: "A segment's changes in a request.",
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The segment id.' }),
    name: t.exposeString('name', { description: 'Its name.' }),
    changes: t.field({ type: [ChangeRef], description: 'Its changes, oldest first.', resolve: (s) => s.changes }),
  }),
});

const ReviewRef = builder.objectRef<ChangeRequest['approvals'][number]>('ChangeRequestReview').implement({
  description: 'An approval or a rejection.',
  fields: (t) => ({
    username: t.string({ nullable: true, description: 'Who.', resolve: (r) => r.createdBy.username }),
    userId: t.int({ nullable: true, description: 'Their user id.', resolve: (r) => r.createdBy.id }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When.' }),
  }),
});

// Authorship of every request a response lists, asked in one query.
const authored = new WeakMap<GraphQLContext, DataLoader<number, boolean>>();
const authoredLoader = (ctx: GraphQLContext) => {
  let loader = authored.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const mine = await ctx.services.changeRequests.authoredByCaller(ids);
      return ids.map((id) => mine.has(id));
    });
    authored.set(ctx, loader);
  }
  return loader;
};

export const ChangeRequestRef = builder.objectRef<ChangeRequest>('ChangeRequest').implement({
  description: 'Changes to one environment of a project, proposed for review.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Change request id.' }),
    title: t.exposeString('title', { description: 'Title ("Change request #<id>" until renamed).' }),
    environment: t.exposeString('environment', { description: 'The environment it changes.' }),
    project: t.exposeString('project', { description: 'The project.' }),
    minApprovals: t.exposeInt('minApprovals', { description: 'Approvals it needs, by users other than its author.' }),
    state: t.exposeString('state', { description: 'Draft, In review, Approved, Applied, Cancelled, Rejected or Scheduled.' }),
    features: t.field({ type: [FeatureChangesRef], description: 'Changes by feature.', resolve: (r) => r.features }),
    segments: t.field({ type: [SegmentChangesRef], description: 'Changes by segment.', resolve: (r) => r.segments }),
    approvals: t.field({ type: [ReviewRef], description: 'Approvals.', resolve: (r) => r.approvals }),
    rejections: t.field({ type: [ReviewRef], description: 'Rejections.', resolve: (r) => r.rejections }),
    comments: t.field({ type: [CommentRef], description: 'Comments, oldest first.', resolve: (r) => r.comments }),
    schedule: t.field({ type: ScheduleRef, nullable: true, description: 'When the state is Scheduled: when and how.', resolve: (r) => r.schedule ?? null }),
    createdBy: t.field({ type: ActorRef, description: 'Its author.', resolve: (r) => r.createdBy }),
    createdByMe: t.boolean({
      description: 'Whether the caller wrote it: decided by user id (or API token), as the service decides authorship, not by the name in createdBy (one batch per response).',
      resolve: (r, _args, ctx) => authoredLoader(ctx).load(r.id),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

/** The fields that name a change request. */
const requestKey = (t: InputFields) => ({
  project: t.string({ required: true, description: 'The project.' }),
  id: t.int({ required: true, description: 'The change request.' }),
});

const AddChangesInput = builder.inputType('AddChangeRequestChangesInput', {
  description: "Changes to propose in the caller's Draft for a project environment (created when there is none).",
  fields: (t) => ({
    project: t.string({ required: true, description: 'The project.' }),
    environment: t.string({ required: true, description: 'The environment.' }),
    changes: t.field({ type: 'JSON', required: true, description: 'One change `{action, feature?, payload}` or a list of them, as the REST body.' }),
  }),
});

const RequestRefInput = builder.inputType('ChangeRequestChangeRefInput', {
  description: 'Names a change of a change request.',
  fields: (t) => ({
    ...requestKey(t),
    changeId: t.int({ required: true, description: 'The change.' }),
  }),
});

const EditChangeInput = builder.inputType('EditChangeRequestChangeInput', {
  description: 'A change to put in place of another one of the same request.',
  fields: (t) => ({
    ...requestKey(t),
    changeId: t.int({ required: true, description: 'The change to replace.' }),
    change: t.field({ type: 'JSON', required: true, description: 'The new change `{action, feature?, payload}`, as the REST body.' }),
  }),
});

const TitleInput = zodInput('SetChangeRequestTitleInput', titleSchema, {
  description: 'A new title.',
  descriptions: { title: 'The title (1 to 255 characters).' },
  fields: requestKey,
});

const StateInput = zodInput('SetChangeRequestStateInput', stateSchema, {
  description: 'A move of a change request to another state.',
  descriptions: {
    state: 'In review (send to review), Approved (approve), Rejected (reject), Applied (apply), Scheduled (apply at `scheduledAt`) or Cancelled.',
    comment: 'A comment recorded with the move.',
    scheduledAt: 'With Scheduled: when to apply it (ISO 8601, in the future).',
  },
  fields: requestKey,
});

const CommentInput = zodInput('AddChangeRequestCommentInput', commentSchema, {
  description: 'A comment.',
  descriptions: { text: 'The text.' },
  fields: requestKey,
});

builder.queryFields((t) => ({
  changeRequest: t.field({
    type: ChangeRequestRef,
    description: 'One change request of a project (NotFoundError when there is none).',
    args: { project: t.arg.string({ required: true, description: 'The project.' }), id: t.arg.int({ required: true, description: 'The change request.' }) },
    resolve: (_root, { project, id }, ctx) => ctx.services.changeRequests.get(project, id),
  }),
  changeRequests: t.field({
    type: [ChangeRequestRef],
    description: "A project's change requests, newest first: those in `state`, or all of them.",
    args: { project: t.arg.string({ required: true, description: 'The project.' }), state: t.arg.string({ description: 'Only requests in this state.' }) },
    resolve: (_root, { project, state }, ctx) => ctx.services.changeRequests.list(project, state ?? undefined),
  }),
  pendingChangeRequests: t.field({
    type: [ChangeRequestRef],
    description: "A project's open change requests with changes to one feature.",
    args: { project: t.arg.string({ required: true, description: 'The project.' }), feature: t.arg.string({ required: true, description: 'The feature.' }) },
    resolve: (_root, { project, feature }, ctx) => ctx.services.changeRequests.pendingForFeature(project, feature),
  }),
}));

builder.mutationFields((t) => ({
  addChangeRequestChanges: t.field({
    type: ChangeRequestRef,
    description: "Proposes changes in the caller's Draft (events change-request-created when it is new, change-added for each change).",
    args: { input: t.arg({ type: AddChangesInput, required: true, description: 'Where and what.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.changeRequests.addChanges(input.project, input.environment, input.changes),
  }),
  editChangeRequestChange: t.field({
    type: ChangeRequestRef,
    description: 'Replaces a change; the new one gets a new id (event change-edited).',
    args: { input: t.arg({ type: EditChangeInput, required: true, description: 'The request, the change and its replacement.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.changeRequests.editChange(input.project, input.id, input.changeId, input.change),
  }),
  discardChangeRequestChange: t.boolean({
    description: 'Removes a change (event change-discarded); a request left empty is discarded (change-request-discarded).',
    args: { input: t.arg({ type: RequestRefInput, required: true, description: 'The change.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.changeRequests.discardChange(input.project, input.id, input.changeId); return true; },
  }),
  setChangeRequestTitle: t.field({
    type: ChangeRequestRef,
    description: 'Renames a change request.',
    args: { input: t.arg({ type: TitleInput, required: true, description: 'The request and its title.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.changeRequests.setTitle(input.project, input.id, { title: input.title }),
  }),
  setChangeRequestState: t.field({
    type: ChangeRequestRef,
    description: 'Moves a change request: Draft → In review (its author) → Approved (after minApprovals approvals by others, APPROVE_CHANGE_REQUEST) → Applied or Scheduled (APPLY_CHANGE_REQUEST); Rejected (APPROVE_CHANGE_REQUEST) and Cancelled (its author, or APPLY_CHANGE_REQUEST). Any other move: ConflictError. Events change-request-sent-to-review, -approval-added, -approved, -rejected, -applied (with each change\'s own events), -scheduled, -cancelled.',
    args: { input: t.arg({ type: StateInput, required: true, description: 'The request and the state asked for.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.changeRequests.setState(input.project, input.id, {
      state: input.state, ...(input.comment == null ? {} : { comment: input.comment }), ...(input.scheduledAt == null ? {} : { scheduledAt: input.scheduledAt }),
    }),
  }),
  addChangeRequestComment: t.field({
    type: CommentRef,
    description: 'Comments on a change request.',
    args: { input: t.arg({ type: CommentInput, required: true, description: 'The request and the text.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.changeRequests.addComment(input.project, input.id, { text: input.text }),
  }),
}));
