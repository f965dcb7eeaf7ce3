import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { FlagHistoryAtQuery, FlagHistoryVersionsQuery } from '../../gql/graphql';
import { changeRequestKeys, dataKeys, eventKeys, flagKeys, projectKeys } from '../keys';
import { useAppMutation } from '../mutation';
import type { FlagRef } from './edits';

// The flag page's History tab (issue 43): the flag's versions, the flag as it was at one of them, what changed since,
// and bringing it back to a version. Operation names start with "FlagHistory".

const VersionsQuery = graphql(`
  query FlagHistoryVersions($name: String!, $first: Int!, $before: Int) {
    feature(name: $name) {
      versions(first: $first, before: $before) {
        version revision createdAt createdBy createdByUserId archived deleted
        events { id type createdBy createdAt environment }
        diff { path before after }
      }
    }
  }
`);

export type FlagVersion = FlagHistoryVersionsQuery['feature']['versions'][number];
export type VersionDiffEntry = FlagVersion['diff'][number];

export const VERSIONS_PAGE = 20;

/** The flag's versions, newest first, a page of 20 at a time ("Load more" asks for those before the oldest shown). */
export const useFlagVersions = (name: string) => useInfiniteQuery({
  queryKey: flagKeys.versions(name),
  queryFn: ({ pageParam }) => gql(VersionsQuery, { name, first: VERSIONS_PAGE, before: pageParam }),
  initialPageParam: null as number | null,
  getNextPageParam: (last) => {
    const versions = last.feature.versions;
    const oldest = versions[versions.length - 1];
    return versions.length === VERSIONS_PAGE && oldest && oldest.version > 1 ? oldest.version : null;
  },
});

const AtQuery = graphql(`
  query FlagHistoryAt($project: String!, $feature: String!, $at: DateTime!) {
    featureAt(project: $project, feature: $feature, at: $at) {
      name project type description stale impressionData archived archivedAt createdAt
      tags { type value }
      dependencies { feature enabled variants }
      environments {
        name type enabled sortOrder
        strategies {
          id name title disabled sortOrder parameters segmentIds
          segments { id name }
          constraints { contextName operator values value caseInsensitive inverted }
          variants { name weight weightType stickiness payload { type value } }
        }
        variants { name weight weightType stickiness payload { type value } }
      }
    }
  }
`);

export type PastFlag = FlagHistoryAtQuery['featureAt'];
export type PastEnvironment = PastFlag['environments'][number];
export type PastStrategy = PastEnvironment['strategies'][number];

/** The flag as it was at an instant (a version's `createdAt`): read only while `at` is given. */
export const useFlagAt = (flag: FlagRef, at: string | null) => useQuery({
  queryKey: flagKeys.at(flag.name, at ?? ''),
  queryFn: async () => (await gql(AtQuery, { project: flag.project, feature: flag.name, at: at ?? '' })).featureAt,
  enabled: at !== null,
});

const ChangesSinceQuery = graphql(`
  query FlagHistoryChangesSince($project: String!, $feature: String!, $from: DateTime!) {
    featureDiff(project: $project, feature: $feature, from: $from) { name diff { path before after } }
  }
`);

/**
 * What differs between the flag at an instant (`before`) and now (`after`): what a revert to the version made then
 * will turn back. Read while `enabled` (the revert dialog is open), and again each time it opens.
 */
export const useFlagChangesSince = (flag: FlagRef, from: string | null, enabled = true) => useQuery({
  queryKey: flagKeys.changesSince(flag.name, from ?? ''),
  queryFn: async () => (await gql(ChangesSinceQuery, { project: flag.project, feature: flag.name, from: from ?? '' }))
    .featureDiff.find((d) => d.name === flag.name)?.diff ?? [],
  enabled: enabled && from !== null,
  staleTime: 0,
});

const Revert = graphql(`
  mutation FlagHistoryRevert($input: RevertFeatureInput!) {
    revertFeature(input: $input) {
      version
      changes { action environment payload }
      drafts { environment changeRequestId changes { action environment payload } }
    }
  }
`);

/**
 * Brings the flag back to a version (all of it, or only `environments`). Its page, its project's lists, the archive
 * (a revert may archive or revive it), the project's change requests (drafts) and the event log are stale after. The
 * dialog that asked shows what it did (no notice).
 */
export const useRevertFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: async ({ version, environments }: { version: number; environments?: string[] }) =>
    (await gql(Revert, { input: { project: flag.project, feature: flag.name, version, ...(environments ? { environments } : {}) } })).revertFeature,
  invalidates: [
    flagKeys.flag(flag.name), projectKeys.flags(flag.project), projectKeys.list(), dataKeys.archiveAll(),
    changeRequestKeys.project(flag.project), eventKeys.all,
  ],
});
