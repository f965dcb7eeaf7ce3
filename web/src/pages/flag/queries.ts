import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FlagPageFeatureQuery } from '../../gql/graphql';
import { graphql } from '../../gql';

// The flag page's GraphQL documents. Operation names start with "FlagPage" (they must be unique across the app).

export const FlagPageQuery = graphql(`
  query FlagPageFeature($name: String!) {
    feature(name: $name) {
      name project type description stale impressionData archived archivedAt createdAt
      tags { type value }
      dependencies { feature enabled variants }
      children
      environments {
        name type enabled sortOrder lastSeenAt
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

export const FlagPageChangeRequestConfigQuery = graphql(`
  query FlagPageChangeRequestConfig($project: String!) {
    changeRequestConfig(project: $project) { environment changeRequestsEnabled requiredApprovals }
  }
`);

export const FlagPagePendingChangeRequestsQuery = graphql(`
  query FlagPagePendingChangeRequests($project: String!, $feature: String!) {
    pendingChangeRequests(project: $project, feature: $feature) { id title state environment }
  }
`);

export const FlagPageChoicesQuery = graphql(`
  query FlagPageChoices {
    featureTypes { id name description }
    tagTypes { name description }
  }
`);

export const FlagPageProjectFlagsQuery = graphql(`
  query FlagPageProjectFlags($project: String!) {
    project(id: $project) { features(first: 1000) { nodes { name } } }
  }
`);

export const FlagPageEventsQuery = graphql(`
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

export const FlagPageUpdateFeature = graphql(`
  mutation FlagPageUpdateFeature($input: UpdateFeatureInput!) { updateFeature(input: $input) { name } }
`);
export const FlagPageSetStale = graphql(`
  mutation FlagPageSetStale($input: SetFeatureStaleInput!) { setFeaturesStale(input: $input) }
`);
export const FlagPageTag = graphql(`
  mutation FlagPageTag($input: FeatureTagInput!) { tagFeature(input: $input) { type value } }
`);
export const FlagPageUntag = graphql(`
  mutation FlagPageUntag($input: FeatureTagInput!) { untagFeature(input: $input) }
`);
export const FlagPageAddDependency = graphql(`
  mutation FlagPageAddDependency($input: AddFeatureDependencyInput!) { addFeatureDependency(input: $input) { name } }
`);
export const FlagPageRemoveDependency = graphql(`
  mutation FlagPageRemoveDependency($input: RemoveFeatureDependencyInput!) { removeFeatureDependency(input: $input) { name } }
`);
export const FlagPageSetEnabled = graphql(`
  mutation FlagPageSetEnabled($input: SetFeatureEnvironmentEnabledInput!) { setFeatureEnvironmentEnabled(input: $input) { name enabled } }
`);
export const FlagPageUpdateStrategy = graphql(`
  mutation FlagPageUpdateStrategy($input: UpdateFeatureStrategyInput!) { updateFeatureStrategy(input: $input) { id disabled } }
`);
export const FlagPageDeleteStrategy = graphql(`
  mutation FlagPageDeleteStrategy($input: DeleteFeatureStrategyInput!) { deleteFeatureStrategy(input: $input) }
`);
export const FlagPageSortStrategies = graphql(`
  mutation FlagPageSortStrategies($input: SetStrategySortOrderInput!) { setStrategySortOrder(input: $input) { id sortOrder } }
`);
export const FlagPageClone = graphql(`
  mutation FlagPageClone($input: CloneFeatureInput!) { cloneFeature(input: $input) { name project } }
`);
export const FlagPageArchive = graphql(`
  mutation FlagPageArchive($input: FeatureNamesInput!) { archiveFeatures(input: $input) }
`);
export const FlagPageRevive = graphql(`
  mutation FlagPageRevive($input: FeatureNamesInput!) { reviveFeatures(input: $input) }
`);

/** The query keys of one flag: the flag and its events share the prefix, so one invalidation refreshes both. */
export const flagKey = (name: string) => ['flag', name] as const;

/**
 * A mutation of the flag page: whatever its outcome, the flag (and its events) are read again, so the page shows the
 * server's state rather than what the page hoped it would be. Its `error` goes next to the control that sent it.
 */
export function useFlagMutation<V>(featureName: string, send: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => client.invalidateQueries({ queryKey: flagKey(featureName) }),
  });
}

export type Flag = FlagPageFeatureQuery['feature'];
export type FlagEnvironment = Flag['environments'][number];
export type FlagStrategy = FlagEnvironment['strategies'][number];
