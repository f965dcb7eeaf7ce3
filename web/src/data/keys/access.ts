/** Access control: users, groups, roles and their permissions, signup links, personal access tokens. */
export const accessKeys = {
  all: ['access'] as const,
  roles: () => ['access', 'roles'] as const,
  rolesWithPermissions: () => ['access', 'roles', 'permissions'] as const,
  permissionListing: () => ['access', 'permission-listing'] as const,
  users: () => ['access', 'users'] as const,
  groups: () => ['access', 'groups'] as const,
  signupLinks: () => ['access', 'signup-links'] as const,
  personalTokens: () => ['access', 'personal-tokens'] as const,
};
