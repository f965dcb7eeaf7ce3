import { useQuery } from '@tanstack/react-query';
import { gql } from '../api/client';
import { graphql } from '../gql';
import type { PermissionName } from '../gql/graphql';
import { sessionKeys } from './keys';

// The signed-in user and what they may do. Operation names as before ("Me", "Allowed").

const MeQuery = graphql(`
  query Me {
    me {
      user { id name username email rootRole isAPI }
    }
  }
`);

/** The signed-in user; a 401 here (no session) sends the app to the login page (main.tsx). */
export function useMe() {
  return useQuery({ queryKey: sessionKeys.me(), queryFn: () => gql(MeQuery), staleTime: 60_000 });
}

const AllowedQuery = graphql(`
  query Allowed($project: String, $environment: String) {
    me { allowed(project: $project, environment: $environment) }
  }
`);

/** The query of `me.allowed` in one place (for pages that ask for several places at once with useQueries). */
export const allowedQuery = (project?: string, environment?: string) => ({
  queryKey: sessionKeys.allowed(project, environment),
  queryFn: () => gql(AllowedQuery, { project: project ?? null, environment: environment ?? null }),
  staleTime: 30_000,
});

/**
 * The permissions the signed-in user holds in a project and environment, as the service decides them (`me.allowed`).
 * `can(name)` is false until the answer is in, so a control appears only once the service says it may.
 */
export function useAllowed(project?: string, environment?: string) {
  const query = useQuery(allowedQuery(project, environment));
  const held = new Set<PermissionName>(query.data?.me.allowed ?? []);
  return { can: (permission: PermissionName) => held.has(permission), loading: query.isPending };
}
