import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { CompletedStatus } from '../../gql/graphql';
import { flagKeys, projectKeys } from '../keys';
import { useAppMutation } from '../mutation';
import type { FlagRef } from './edits';

// A flag's lifecycle (issue 44): marking it completed, kept or discarded, and taking that back.

const CompleteFeature = graphql(`
  mutation FlagPageCompleteFeature($input: CompleteFeatureInput!) { completeFeature(input: $input) { stage } }
`);
const UncompleteFeature = graphql(`
  mutation FlagPageUncompleteFeature($input: FeatureRefInput!) { uncompleteFeature(input: $input) { stage } }
`);

/** Its page, its project's list and the Flags page show its stage. */
const stale = (flag: FlagRef) => [flagKeys.flag(flag.name), projectKeys.flags(flag.project), flagKeys.everyFlag()];

export const useCompleteFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: (input: { status: CompletedStatus; statusValue?: string }) =>
    gql(CompleteFeature, { input: { project: flag.project, feature: flag.name, ...input } }),
  invalidates: stale(flag),
});

export const useUncompleteFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: () => gql(UncompleteFeature, { input: { project: flag.project, feature: flag.name } }),
  invalidates: stale(flag),
});
