import { useQuery } from '@tanstack/react-query';
import { gql } from '../api/client';
import { graphql } from '../gql';
import type { EveryFlagQuery } from '../gql/graphql';
import { flagKeys } from './keys';

// Every flag of every project the user may read: the Flags page (`/flags`) and the command palette share one list.

const EveryFlagDocument = graphql(`
  query EveryFlag {
    featureIndex { name project type description stale potentiallyStale enabled lastSeenAt createdAt tags { type value } stage }
  }
`);

export type EveryFlag = EveryFlagQuery['featureIndex'][number];

/** One request for every flag: the service answers 10,000 in one statement. */
const loadEveryFlag = async (): Promise<EveryFlag[]> => (await gql(EveryFlagDocument)).featureIndex;

export const useEveryFlag = (enabled = true) =>
  useQuery({ queryKey: flagKeys.everyFlag(), queryFn: loadEveryFlag, enabled, staleTime: 30_000 });
