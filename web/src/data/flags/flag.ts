import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { FlagPageFeatureQuery } from '../../gql/graphql';
import { changeRequestKeys, flagKeys } from '../keys';

// What the flag page reads: the flag, its change-request settings, its events and usage, and the choices its editors
// offer. Each hook sits under the document it reads; operation names as before ("FlagPage…", "FlagUsage").

const FlagQuery = graphql(`
  query FlagPageFeature($name: String!) {
    feature(name: $name) {
      name project type description stale potentiallyStale impressionData archived archivedAt createdAt
      lifecycle { stage enteredStageAt trafficAfterDiscard stages { stage enteredAt leftAt durationMs status statusValue } }
      tags { type value }
      dependencies { feature enabled variants }
      children
      environments {
        name type enabled sortOrder lastSeenAt lifecycleStage
        strategies {
          id name title disabled sortOrder parameters segmentIds
          segments { id name }
          constraints { contextName operator values value caseInsensitive inverted }
          variants { name weight weightType stickiness payload { type value } }
        }
        variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
      }
    }
  }
`);

export type Flag = FlagPageFeatureQuery['feature'];
export type FlagEnvironment = Flag['environments'][number];
export type FlagStrategy = FlagEnvironment['strategies'][number];

/**
 * The flag, as the page reads it and as its route asks for it on entering (routing/prefetch.ts). Fresh for a few seconds,
 * so the page mounting just after the route's request does not ask again; a change invalidates it regardless.
 */
export const flagQuery = (name: string) => queryOptions({ queryKey: flagKeys.flag(name), queryFn: () => gql(FlagQuery, { name }), staleTime: 5_000 });

export const useFlag = (name: string) => useQuery(flagQuery(name));

const ChangeRequestConfigQuery = graphql(`
  query FlagPageChangeRequestConfig($project: String!) { changeRequestConfig(project: $project) { environment changeRequestsEnabled requiredApprovals } }
`);

/** Which environments of the project need change requests (read once the flag, and so its project, is known). */
export const useChangeRequestConfig = (project: string, enabled: boolean) => useQuery({
  queryKey: changeRequestKeys.config(project),
  queryFn: () => gql(ChangeRequestConfigQuery, { project }),
  enabled,
});

const PendingChangeRequestsQuery = graphql(`
  query FlagPagePendingChangeRequests($project: String!, $feature: String!) {
    pendingChangeRequests(project: $project, feature: $feature) { id title state environment }
  }
`);

/** Open change requests with changes to the flag (under the project's change-request keys: a proposal refreshes it). */
export const usePendingChangeRequests = (project: string, feature: string, enabled: boolean) => useQuery({
  queryKey: changeRequestKeys.pending(project, feature),
  queryFn: () => gql(PendingChangeRequestsQuery, { project, feature }),
  enabled,
});

const ChoicesQuery = graphql(`query FlagPageChoices { featureTypes { id name description } tagTypes { name description } }`);

/** Feature types and tag types, for the details and tag editors. */
export const useFlagChoices = () => useQuery({ queryKey: flagKeys.choices(), queryFn: () => gql(ChoicesQuery), staleTime: 5 * 60_000 });

const ProjectFlagsQuery = graphql(`query FlagPageProjectFlags($project: String!) { project(id: $project) { features(first: 1000) { nodes { name } } } }`);

/** The names of a project's flags, for the dependency picker: read only once `enabled` (the user starts adding one). */
export const useProjectFlagNames = (project: string, enabled: boolean) => useQuery({
  queryKey: flagKeys.projectFlagNames(project),
  queryFn: async () => (await gql(ProjectFlagsQuery, { project })).project.features.nodes.map((f) => f.name),
  enabled,
});

const EventsQuery = graphql(`
  query FlagPageEvents($name: String!, $first: Int!, $after: String) {
    feature(name: $name) {
      events(first: $first, after: $after) {
        totalCount
        nodes { id type createdBy createdAt environment }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);
const EVENTS_PAGE = 20;

/** The flag's own audit events, newest first, a page at a time. */
export const useFlagEvents = (name: string) => useInfiniteQuery({
  queryKey: flagKeys.events(name),
  queryFn: ({ pageParam }) => gql(EventsQuery, { name, first: EVENTS_PAGE, after: pageParam }),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => (last.feature.events.pageInfo.hasNextPage ? last.feature.events.pageInfo.endCursor : null),
});

// Its own query (not the flag's): metrics move every minute, the flag's configuration does not.
const UsageQuery = graphql(`
  query FlagUsage($name: String!) {
    featureUsage(feature: $name) { lastHourUsage { environment yes no } seenApplications }
    feature(name: $name) {
      environments { name lastSeenAt }
      metrics(hours: 24) { environment yes no }
    }
  }
`);

/** What SDKs reported of the flag, read again every minute. */
export const useFlagUsage = (name: string) => useQuery({ queryKey: flagKeys.usage(name), queryFn: () => gql(UsageQuery, { name }), refetchInterval: 60_000 });
