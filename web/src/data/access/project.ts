import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { AccessRow } from '../../logic/access';
import { projectKeys, sessionKeys } from '../keys';
import { useAppMutation } from '../mutation';

// A project's access: the users and groups holding roles in it. Operation names start with "Access", as before.

const ProjectAccessQuery = graphql(`
  query AccessProjectAccess($id: String!) {
    project(id: $id) {
      id name
      access {
        roles { id name type description }
        users { id name username email roles }
        groups { id name roles users { user { id } } }
      }
    }
  }
`);
const AddAccessMutation = graphql(`mutation AccessAddProjectAccess($input: AddProjectAccessInput!) { addProjectAccess(input: $input) { users { id } } }`);
const SetUserRolesMutation = graphql(`mutation AccessSetProjectUserRoles($input: SetProjectRolesInput!) { setProjectUserRoles(input: $input) { users { id } } }`);
const SetGroupRolesMutation = graphql(`mutation AccessSetProjectGroupRoles($input: SetProjectRolesInput!) { setProjectGroupRoles(input: $input) { groups { id } } }`);
const RemoveUserMutation = graphql(`mutation AccessRemoveProjectUser($input: RemoveProjectRolesInput!) { removeProjectUserRoles(input: $input) { users { id } } }`);
const RemoveGroupMutation = graphql(`mutation AccessRemoveProjectGroup($input: RemoveProjectRolesInput!) { removeProjectGroupRoles(input: $input) { groups { id } } }`);

export const useProjectAccess = (project: string) =>
  useQuery({ queryKey: projectKeys.access(project), queryFn: () => gql(ProjectAccessQuery, { id: project }) });

/** Every change of a project's access: its holders, the member count on the projects page, and who may do what. */
const accessStale = (project: string) => [projectKeys.access(project), projectKeys.list(), sessionKeys.allowedAll()];

/** Project roles given to users and groups (by id) not holding any yet. */
export const useAddProjectAccess = (project: string) => useAppMutation({
  mutationFn: ({ roles, users, groups }: { roles: number[]; users: number[]; groups: number[] }) =>
    gql(AddAccessMutation, { input: { project, roles, users, groups } }),
  invalidates: accessStale(project),
});

/** The project roles of one user or group, replaced (none removes the access). */
export const useSetProjectRoles = (project: string) => useAppMutation({
  mutationFn: ({ row, roles }: { row: AccessRow; roles: number[] }): Promise<unknown> => {
    const input = { project, id: row.id, roles };
    return row.kind === 'user' ? gql(SetUserRolesMutation, { input }) : gql(SetGroupRolesMutation, { input });
  },
  invalidates: accessStale(project),
});

export const useRemoveProjectAccess = (project: string) => useAppMutation({
  mutationFn: (row: AccessRow): Promise<unknown> => (row.kind === 'user'
    ? gql(RemoveUserMutation, { input: { project, id: row.id } })
    : gql(RemoveGroupMutation, { input: { project, id: row.id } })),
  invalidates: accessStale(project),
});
