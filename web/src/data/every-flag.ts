import { queryOptions, useQuery } from '@tanstack/react-query';
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

/** Every flag, as the Flags page and the palette read it and as the Flags route asks for it on entering (routing/prefetch.ts). */
export const everyFlagQuery = () => queryOptions({ queryKey: flagKeys.everyFlag(), queryFn: loadEveryFlag, staleTime: 30_000 });

export const useEveryFlag = (enabled = true) => useQuery({ ...everyFlagQuery(), enabled });
