import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { CreateRoleInput, UpdateRoleInput } from '../../gql/graphql';
import { accessKeys, sessionKeys } from '../keys';
import { useAppMutation } from '../mutation';

// Roles, their permissions and the service's listing of the permissions a custom role may hold.

const RolesQuery = graphql(`query AccessRoles { roles { id name type description } }`);
const RolesWithPermissionsQuery = graphql(`
  query AccessRolesWithPermissions { roles { id name type description permissions { id name displayName type environment } } }
`);
const PermissionsQuery = graphql(`
  query AccessPermissionListing {
    permissions {
      root { id name displayName type environment }
      project { id name displayName type environment }
      environments { name permissions { id name displayName type environment } }
    }
  }
`);
const CreateRoleMutation = graphql(`mutation AccessCreateRole($input: CreateRoleInput!) { createRole(input: $input) { role { id } } }`);
const UpdateRoleMutation = graphql(`mutation AccessUpdateRole($input: UpdateRoleInput!) { updateRole(input: $input) { role { id } } }`);
const DeleteRoleMutation = graphql(`mutation AccessDeleteRole($input: IdInput!) { deleteRole(input: $input) }`);

/** Every role (any signed-in user may read them): names for ids, and the choices of the role pickers. */
export const useRoles = () => useQuery({ queryKey: accessKeys.roles(), queryFn: () => gql(RolesQuery), staleTime: 30_000 });

/** Every role with its permissions (the roles page). */
export const useRolesWithPermissions = () => useQuery({ queryKey: accessKeys.rolesWithPermissions(), queryFn: () => gql(RolesWithPermissionsQuery) });

/** The permissions a custom role may hold, grouped as the service lists them. */
export const usePermissionListing = () => useQuery({ queryKey: accessKeys.permissionListing(), queryFn: () => gql(PermissionsQuery), staleTime: 60_000 });

/** A custom role created, or changed when the input names its id. Both role queries share the roles prefix. */
export const useSaveRole = () => useAppMutation({
  mutationFn: (input: CreateRoleInput & { id?: number }): Promise<unknown> => {
    const { id, ...fields } = input;
    return id === undefined ? gql(CreateRoleMutation, { input: fields }) : gql(UpdateRoleMutation, { input: { ...fields, id } satisfies UpdateRoleInput });
  },
  // A changed role changes what its holders (maybe the signed-in user) may do.
  invalidates: [accessKeys.roles(), sessionKeys.allowedAll()],
});

export const useDeleteRole = () => useAppMutation({
  mutationFn: (role: { id: number; name: string }) => gql(DeleteRoleMutation, { input: { id: role.id } }),
  invalidates: [accessKeys.roles()],
});
