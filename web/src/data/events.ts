import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { gql } from '../api/client';
import { graphql } from '../gql';
import { eventKeys } from './keys';

// The event log's documents and hooks, and the live stream's document (api/live-events.ts opens the stream itself).
// Operation names as before ("EventLog…", "LiveEvents").

/** The fields the event log reads, for the list and the stream alike, so a streamed event renders like a listed one. */
export const EventLogEvent = graphql(`
  fragment EventLogEvent on Event {
    id type createdAt createdBy project environment featureName data preData
    revertOf { featureName version eventId }
  }
`);

/** The events committed from now on that match a filter (followed by `followEvents`). */
export const LiveEvents = graphql(`
  subscription LiveEvents($filter: EventStreamFilter) {
    events(filter: $filter) { ...EventLogEvent }
  }
`);

const FiltersQuery = graphql(`
  query EventLogFilters {
    eventTypes
    projects { id name }
  }
`);

const EventsQuery = graphql(`
  query EventLogPage($first: Int, $after: String, $filter: EventFilter) {
    events(first: $first, after: $after, filter: $filter) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes { ...EventLogEvent }
    }
  }
`);

const PAGE_SIZE = 25;

export interface EventLogFilter {
  type: string | null;
  project: string | null;
  feature: string | null;
}

/** The filters' choices: the service's event types and the projects. */
export const useEventFilters = () => useQuery({ queryKey: eventKeys.filters(), queryFn: () => gql(FiltersQuery), staleTime: 5 * 60_000 });

/** The log for a filter, newest first, a page of 25 at a time ("Load more" asks for the next). */
export const useEvents = (filter: EventLogFilter) => useInfiniteQuery({
  queryKey: eventKeys.list(filter),
  queryFn: ({ pageParam }) => gql(EventsQuery, { first: PAGE_SIZE, after: pageParam, filter }),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => (last.events.pageInfo.hasNextPage ? last.events.pageInfo.endCursor : null),
});
