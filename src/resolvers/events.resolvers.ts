import type { AuditEvent } from '../domain/events/event.store';
import { ValidationError } from '../domain/errors';
import { builder, type GraphQLContext } from './builder';

const EventTagRef = builder.objectRef<{ type: string; value: string }>('EventTag').implement({
  description: 'A tag the feature carried when the event was written.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Tag type.' }),
    value: t.exposeString('value', { description: 'Tag value.' }),
  }),
});

export const EventRef = builder.objectRef<AuditEvent>('Event').implement({
  description: 'An audit event: one state change, written in the same transaction as the change.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Increasing natural number.' }),
    type: t.exposeString('type', { description: 'Event type, from the spec\'s list (for example tag-created).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change committed.' }),
    createdBy: t.exposeString('createdBy', { description: 'Username, email or token name of the caller.' }),
    createdByUserId: t.exposeInt('createdByUserId', { nullable: true, description: 'User id of the caller (-1337 for admin tokens).' }),
    project: t.exposeString('project', { nullable: true, description: 'Project the change touched.' }),
    environment: t.exposeString('environment', { nullable: true, description: 'Environment the change touched.' }),
    featureName: t.exposeString('featureName', { nullable: true, description: 'Feature the change touched.' }),
    data: t.expose('data', { type: 'JSON', nullable: true, description: 'New state of the subject.' }),
    preData: t.expose('preData', { type: 'JSON', nullable: true, description: 'Previous state of the subject.' }),
    tags: t.field({ type: [EventTagRef], description: 'Tags of the feature at write time.', resolve: (e) => e.tags }),
  }),
});

interface EventConnection {
  edges: Array<{ cursor: string; node: AuditEvent }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

const EventEdgeRef = builder.objectRef<EventConnection['edges'][number]>('EventEdge').implement({
  description: 'An event and its cursor.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Pass as `after` to read the events older than this one.' }),
    node: t.field({ type: EventRef, description: 'The event.', resolve: (e) => e.node }),
  }),
});
const PageInfoRef = builder.objectRef<EventConnection['pageInfo']>('PageInfo').implement({
  description: 'Where a page ends.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'Whether older items remain.' }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Cursor of the last item of the page.' }),
  }),
});
export const EventConnectionRef = builder.objectRef<EventConnection>('EventConnection').implement({
  description: 'A page of audit events, newest first.',
  fields: (t) => ({
    edges: t.field({ type: [EventEdgeRef], description: 'Events with their cursors.', resolve: (c) => c.edges }),
    nodes: t.field({ type: [EventRef], description: 'The events alone.', resolve: (c) => c.edges.map((e) => e.node) }),
    pageInfo: t.field({ type: PageInfoRef, description: 'Paging state.', resolve: (c) => c.pageInfo }),
    totalCount: t.exposeInt('totalCount', { description: 'Events matching the filter, over all pages.' }),
  }),
});

const EventFilterInput = builder.inputType('EventFilter', {
  description: 'Narrows the audit log; all given fields must match.',
  fields: (t) => ({
    type: t.string({ description: 'Event type.' }),
    project: t.string({ description: 'Project id.' }),
    feature: t.string({ description: 'Feature name.' }),
  }),
});

const encodeCursor = (id: number) => Buffer.from(`event:${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const m = /^event:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw ValidationError.single('after', 'The `after` cursor is not one this API returned.');
  return Number(m[1]);
}

builder.queryFields((t) => ({
  events: t.field({
    type: EventConnectionRef,
    description: 'The audit log, newest first, with cursor pagination.',
    args: {
      filter: t.arg({ type: EventFilterInput, description: 'Only events matching this filter.' }),
      first: t.arg.int({ defaultValue: 50, description: 'Page size, 1..1000 (default 50).' }),
      after: t.arg.string({ description: 'Cursor of the last event of the previous page.' }),
    },
    resolve: (_root, args, ctx) => eventConnection(ctx, args.filter ?? {}, args.first, args.after),
  }),
}));

/** A page of the audit log as a connection (used by `Query.events` and `Feature.events`). */
export async function eventConnection(
  ctx: GraphQLContext,
  filter: { type?: string | null; project?: string | null; feature?: string | null },
  firstArg: number | null | undefined,
  after: string | null | undefined,
): Promise<EventConnection> {
  const first = checkEventPageSize(firstArg);
  const page = await ctx.services.events.search({
    type: filter.type ?? undefined,
    project: filter.project ?? undefined,
    feature: filter.feature ?? undefined,
    limit: first,
    before: after ? decodeCursor(after) : undefined,
  });
  return toEventConnection(page.events, page.totalEvents, page.nextBefore !== null);
}

/** The service checks its `limit` too, but would name it `limit`: this door's argument is `first`. */
export function checkEventPageSize(firstArg: number | null | undefined): number {
  const first = firstArg ?? 50;
  if (first < 1 || first > 1000) throw ValidationError.single('first', `The \`first\` argument must be between 1 and 1000. You sent ${first}.`);
  return first;
}

export function toEventConnection(events: AuditEvent[], totalCount: number, hasNextPage: boolean): EventConnection {
  const edges = events.map((node) => ({ cursor: encodeCursor(node.id), node }));
  return { edges, pageInfo: { hasNextPage, endCursor: edges.length ? edges[edges.length - 1].cursor : null }, totalCount };
}
