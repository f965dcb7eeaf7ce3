import { useQuery } from '@tanstack/react-query';
import { gql } from '../api/client';
import { graphql } from '../gql';
import type { EveryFlagPageQuery } from '../gql/graphql';
import { flagKeys } from './keys';

// Every flag of every project the user may read: the Flags page (`/flags`) and the command palette share one list.

const EveryFlagPage = graphql(`
  query EveryFlagPage($after: String) {
    features(first: 1000, after: $after) {
      nodes {
        name project type description stale potentiallyStale enabled lastSeenAt createdAt
        tags { type value }
        lifecycle { stage }
      }
      pageInfo { endCursor hasNextPage }
    }
  }
`);

export type EveryFlag = EveryFlagPageQuery['features']['nodes'][number];

/** Pages of 1000 until the last: 10,000 flags are ten requests, each loading its lifecycles and tags in one query. */
async function loadEveryFlag(): Promise<EveryFlag[]> {
  const flags: EveryFlag[] = [];
  let after: string | null | undefined;
  for (let page = 0; page < 1000; page++) {
    const { features } = await gql(EveryFlagPage, { after });
    flags.push(...features.nodes);
    if (!features.pageInfo.hasNextPage) break;
    after = features.pageInfo.endCursor;
  }
  return flags;
}

/** Every flag (archived ones aside); `enabled` false loads nothing (the palette before it opens). */
export const useEveryFlag = (enabled = true) =>
  useQuery({ queryKey: flagKeys.everyFlag(), queryFn: loadEveryFlag, enabled, staleTime: 30_000 });
