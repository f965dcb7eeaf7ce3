import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';

// The access-control pages' shared documents. Operation names start with "Access" (unique across the app); query keys
// start with 'access' so no other page's cache entry of another shape is ever read as one of these.

export const AccessRolesQuery = graphql(`
  query AccessRoles {
    roles { id name type description }
  }
`);

export const AccessUsersQuery = graphql(`
  query AccessUsers {
    users { id name username email rootRole createdAt seenAt }
  }
`);

export const AccessGroupsQuery = graphql(`
  query AccessGroups {
    groups {
      id name description rootRole mappingsSSO userCount createdAt
      users { joinedAt user { id name username email } }
    }
  }
`);

export const accessKeys = {
  roles: ['access', 'roles'] as const,
  users: ['access', 'users'] as const,
  groups: ['access', 'groups'] as const,
  projectAccess: (project: string) => ['access', 'project', project] as const,
  tokens: ['access', 'personal-tokens'] as const,
  signupLinks: ['access', 'signup-links'] as const,
};

/** Every role (any signed-in user may read them): names for ids, and the choices of the role pickers. */
export const useRoles = () => useQuery({ queryKey: accessKeys.roles, queryFn: () => gql(AccessRolesQuery), staleTime: 30_000 });

/** Every user (ADMIN only: for others the query's error says so, in the service's words). */
export const useUsers = (enabled = true) => useQuery({ queryKey: accessKeys.users, queryFn: () => gql(AccessUsersQuery), enabled });

/** Every group with its members. */
export const useGroups = () => useQuery({ queryKey: accessKeys.groups, queryFn: () => gql(AccessGroupsQuery) });
