import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { AuditEvent } from '../domain/events/event.shapes';
import { EVENT_TYPES } from '../domain/events/event-types';
import type { StreamItem } from '../domain/events/event-stream';
import type { EventPage, EventParts } from '../domain/events/event.read-model';
import { filterSchema, streamFilterSchema } from '../domain/events/event.service';
import type { Services } from '../domain/services';
import { ValidationError } from '../domain/errors';
import { FREE, PASS_THROUGH, paged, WEIGHTS } from './cost';
import { builder, type GraphQLContext } from './builder';
import { zodInput } from './zod-input';

const EventTagRef = builder.objectRef<{ type: string; value: string }>('EventTag').implement({
  description: 'A tag the feature carried when the event was written.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Tag type.' }),
    value: t.exposeString('value', { description: 'Tag value.' }),
  }),
});

const EventRevertOfRef = builder.objectRef<NonNullable<AuditEvent['revertOf']>>('EventRevertOf').implement({
  description: 'What a revert brought back.',
  fields: (t) => ({
    featureName: t.exposeString('featureName', { description: 'The flag.' }),
    version: t.exposeInt('version', { description: 'The version brought back (with eventId: the one before that event’s change, for the parts it changed).' }),
    eventId: t.exposeInt('eventId', { nullable: true, description: 'The event whose change was undone.' }),
  }),
});

export const EventRef = builder.objectRef<AuditEvent>('Event').implement({
  description: 'An audit event: one state change, written in the same transaction as the change.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Increasing natural number.' }),
    type: t.exposeString('type', { description: 'Event type, one of Unleash v5.8\'s event types (for example tag-created).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change committed.' }),
    createdBy: t.exposeString('createdBy', { description: 'Username, email or token name of the caller.' }),
    createdByUserId: t.exposeInt('createdByUserId', { nullable: true, description: 'User id of the caller (-1337 for admin tokens).' }),
    project: t.exposeString('project', { nullable: true, description: 'Project the change touched.' }),
    environment: t.exposeString('environment', { nullable: true, description: 'Environment the change touched.' }),
    featureName: t.exposeString('featureName', { nullable: true, description: 'Feature the change touched.' }),
    data: t.expose('data', { type: 'JSON', nullable: true, description: 'New state of the subject.' }),
    preData: t.expose('preData', { type: 'JSON', nullable: true, description: 'Previous state of the subject.' }),
    tags: t.field({ type: [EventTagRef], description: 'Tags of the feature at write time.', resolve: (e) => e.tags }),
    revertOf: t.field({ type: EventRevertOfRef, nullable: true, description: 'Set on the events of a revert: what it brought back.', resolve: (e) => e.revertOf ?? null }),
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
export const PageInfoRef = builder.objectRef<EventConnection['pageInfo']>('PageInfo').implement({
  description: 'Where a page ends.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'Whether older items remain.' }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Cursor of the last item of the page.' }),
  }),
});
export const EventConnectionRef = builder.objectRef<EventConnection>('EventConnection').implement({
  description: 'A page of audit events, newest first.',
  fields: (t) => ({
    edges: t.field({ type: [EventEdgeRef], complexity: PASS_THROUGH, description: 'Events with their cursors.', resolve: (c) => c.edges }),
    nodes: t.field({ type: [EventRef], complexity: PASS_THROUGH, description: 'The events alone.', resolve: (c) => c.edges.map((e) => e.node) }),
    pageInfo: t.field({ type: PageInfoRef, complexity: FREE, description: 'Paging state.', resolve: (c) => c.pageInfo }),
    totalCount: t.exposeInt('totalCount', { complexity: FREE, description: 'Events matching the filter, over all pages.' }),
  }),
});

// The page (limit, offset, before) is the connection's `first` and `after` here.
const EventFilterInput = zodInput('EventFilter', filterSchema, {
  description: 'Narrows the audit log; all given fields must match.',
  omit: ['limit', 'offset', 'before'],
  descriptions: { type: 'Event type.', project: 'Project id.', feature: 'Feature name.' },
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
    complexity: paged(WEIGHTS.events, WEIGHTS.eventRow),
    description: 'The audit log, newest first, with cursor pagination.',
    args: {
      filter: t.arg({ type: EventFilterInput, description: 'Only events matching this filter.' }),
      first: t.arg.int({ defaultValue: 50, description: 'Page size, 1..1000 (default 50).' }),
      after: t.arg.string({ description: 'Cursor of the last event of the previous page.' }),
    },
    resolve: (_root, args, ctx, info) => eventConnection(ctx, args.filter ?? {}, args.first, args.after, selectedParts(info)),
  }),
  // The event log's type filter offers these, so a reader picks a type the service knows instead of guessing one.
  eventTypes: t.stringList({
    complexity: FREE,
    description: 'Every event type the audit log can hold (what `EventFilter.type` and `EventStreamFilter.types` accept), in the documented order.',
    resolve: () => [...EVENT_TYPES],
  }),
}));

/**
 * Which queries a connection's selection needs: the page rows for edges, nodes or pageInfo, the count for
 * totalCount. Fragments are followed once each (validation has already refused cycles).
 */
export function selectedParts(info: GraphQLResolveInfo): EventParts {
  const parts: EventParts = { rows: false, count: false };
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined) => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value === 'totalCount') parts.count = true;
        else if (sel.name.value !== '__typename') parts.rows = true;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        visit(sel.selectionSet);
      } else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        visit(info.fragments[sel.name.value]?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet);
  return parts;
}

/**
 * Queries already run in this request: aliases that ask for the same page share its rows, and every page of one
 * filter shares its count (the count ignores the cursor). Services are made per request, so the memo dies with it.
 */
const readInRequest = new WeakMap<Services, Map<string, Promise<EventPage>>>();

/** A page of the audit log as a connection (used by `Query.events` and `Feature.events`). */
export async function eventConnection(
  ctx: GraphQLContext,
  filter: { type?: string | null; project?: string | null; feature?: string | null },
  firstArg: number | null | undefined,
  after: string | null | undefined,
  parts: EventParts,
): Promise<EventConnection> {
  const first = checkEventPageSize(firstArg);
  const query = {
    type: filter.type ?? undefined,
    project: filter.project ?? undefined,
    feature: filter.feature ?? undefined,
    limit: first,
    before: after ? decodeCursor(after) : undefined,
  };
  let memo = readInRequest.get(ctx.services);
  if (!memo) readInRequest.set(ctx.services, (memo = new Map()));
  const once = (key: string, part: EventParts) => {
    let read = memo.get(key);
    if (!read) memo.set(key, (read = ctx.services.events.search(query, part)));
    return read;
  };
  const filterKey = JSON.stringify([query.type ?? null, query.project ?? null, query.feature ?? null]);
  const [rows, count] = await Promise.all([
    parts.rows ? once(`rows ${filterKey} ${query.limit} ${query.before ?? ''}`, { rows: true, count: false }) : undefined,
    parts.count ? once(`count ${filterKey}`, { rows: false, count: true }) : undefined,
  ]);
  return toEventConnection(rows?.events ?? [], count?.totalEvents ?? 0, rows ? rows.nextBefore !== null : false);
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

const EventStreamFilterInput = zodInput('EventStreamFilter', streamFilterSchema, {
  description: 'Which committed events a live stream passes on; all given fields must match.',
  descriptions: {
    types: `Any of these event types (absent: every type); each must be one the event log lists, at most ${EVENT_TYPES.length} entries.`,
    project: 'Project id.',
    feature: 'Feature name.',
  },
});

builder.subscriptionFields((t) => ({
  events: t.field({
    type: EventRef,
    complexity: { field: WEIGHTS.eventStream, multiplier: 1 },
    description: 'Each audit event committed after the subscription starts that matches the filter, once, in commit order, '
      + 'on whichever instance the client is connected to. A client that falls more than 1000 events behind gets a '
      + 'TooManyRequestsError and the end of the stream; the stream also ends when the service stops.',
    args: { filter: t.arg({ type: EventStreamFilterInput, description: 'Only events matching this filter.' }) },
    subscribe: (_root, args, ctx) => ctx.services.events.stream({
      types: args.filter?.types ?? undefined,
      project: args.filter?.project ?? undefined,
      feature: args.filter?.feature ?? undefined,
    }, ctx.signal),
    resolve: (item: StreamItem) => {
      if (item instanceof Error) throw item;
      return item;
    },
  }),
}));
