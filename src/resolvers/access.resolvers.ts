import type { ApiTokenView } from '../domain/access/api-token.service';
import type { PersonalToken } from '../domain/access/personal-token.service';
import type { ProjectAccess, ProjectAccessGroup, ProjectAccessUser, ProjectRole } from '../domain/access/project-access.service';
import type { ListedPermission, PermissionListing, Role } from '../domain/access/role.service';
import type { User } from '../domain/access/user.service';
import { builder } from './builder';
import { WEIGHTS } from './cost';
import { defined } from './input';
import { ProjectRef } from './projects.resolvers';

/**
 * Access control on the GraphQL door (issue 9): users, the caller, roles and permissions, API and personal tokens,
 * and project access. Every field calls the same service method as the REST route, which checks the permission.
 */

export const UserRef = builder.objectRef<User>('User').implement({
  description: 'A person who signs in. Never carries a password or its hash.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'User id.' }),
    name: t.exposeString('name', { nullable: true, description: 'Display name.' }),
    email: t.exposeString('email', { nullable: true, description: 'Email address; unique whatever its case.' }),
    username: t.exposeString('username', { nullable: true, description: 'Username; unique whatever its case.' }),
    imageUrl: t.exposeString('imageUrl', { description: 'Avatar URL.' }),
    inviteLink: t.exposeString('inviteLink', {
      description: 'Only in the createUser answer for a user created without a password: the link (valid 24 hours, usable once) with which the user sets one. Empty everywhere else.',
    }),
    loginAttempts: t.exposeInt('loginAttempts', { description: 'Failed logins since the last successful one.' }),
    emailSent: t.exposeBoolean('emailSent', { description: 'Whether a welcome email was sent.' }),
    rootRole: t.exposeInt('rootRole', { description: 'Id of the root role (Admin 1, Editor 2, Viewer 3, or a custom root role).' }),
    seenAt: t.expose('seenAt', { type: 'DateTime', nullable: true, description: 'Last time the user was seen.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    accountType: t.exposeString('accountType', { description: 'User or Service Account.' }),
    isAPI: t.exposeBoolean('isAPI', { description: 'Deprecated: true when the caller is an API token rather than a user.' }),
  }),
});

const GrantRef = builder.objectRef<{ permission: string; project?: string; environment?: string }>('Grant').implement({
  description: 'A permission the caller holds, and where: a root permission has no project; an environment permission may name its environment.',
  fields: (t) => ({
    permission: t.exposeString('permission', { description: 'Permission name.' }),
    project: t.string({ nullable: true, description: 'The project it holds in; null for a root permission.', resolve: (g) => g.project ?? null }),
    environment: t.string({ nullable: true, description: 'The environment it holds in; null when it holds in every environment or is not environment specific.', resolve: (g) => g.environment ?? null }),
  }),
});

const MeRef = builder.objectRef<{ user: User; permissions: Array<{ permission: string; project?: string; environment?: string }> }>('Me').implement({
  description: 'The caller and every permission it holds (REST: GET /api/admin/user).',
  fields: (t) => ({
    user: t.field({ type: UserRef, description: 'The caller (an API token is shown as a user with isAPI true).', resolve: (m) => m.user }),
    permissions: t.field({ type: [GrantRef], description: 'Every permission the caller holds, with its project and environment.', resolve: (m) => m.permissions }),
    allowed: t.stringList({
      description: 'The names of the permissions the caller holds in a project and environment, decided as every permission check decides (an admin holds them all; without `project`, only root grants count; without `environment`, only grants that hold in every environment). What a client may offer, read from the service rather than guessed from `permissions`.',
      args: {
        project: t.arg.string({ required: false, description: 'The project; omitted for a check that names none.' }),
        environment: t.arg.string({ required: false, description: 'The environment; omitted for a check that names none.' }),
      },
      resolve: (_m, args, ctx) => ctx.services.users.allowedIn({ ...(args.project == null ? {} : { project: args.project }), ...(args.environment == null ? {} : { environment: args.environment }) }),
    }),
  }),
});

export const PermissionRef = builder.objectRef<ListedPermission>('Permission').implement({
  description: 'A permission, as `GET /api/admin/permissions` lists it.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Permission id.' }),
    name: t.exposeString('name', { description: 'Permission name, for example UPDATE_FEATURE.' }),
    displayName: t.exposeString('displayName', { description: 'Human-readable name.' }),
    type: t.exposeString('type', { description: 'root, project or environment.' }),
    environment: t.string({ nullable: true, description: 'The environment an environment permission applies to; null when it applies to every environment or is not environment specific.', resolve: (p) => p.environment ?? null }),
  }),
});

const EnvironmentPermissionsRef = builder.objectRef<{ name: string; permissions: ListedPermission[] }>('EnvironmentPermissions').implement({
  description: 'The environment permissions, for one environment.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Environment name.' }),
    permissions: t.field({ type: [PermissionRef], description: 'Each environment permission, with `environment` set.', resolve: (e) => e.permissions }),
  }),
});

const PermissionListingRef = builder.objectRef<PermissionListing>('PermissionListing').implement({
  description: 'Every permission there is (REST: GET /api/admin/permissions).',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Format version (1).' }),
    root: t.field({ type: [PermissionRef], description: 'Root permissions.', resolve: (l) => l.permissions.root }),
    project: t.field({ type: [PermissionRef], description: 'Project permissions.', resolve: (l) => l.permissions.project }),
    environments: t.field({ type: [EnvironmentPermissionsRef], description: 'Environment permissions, per environment (every environment, enabled or not).', resolve: (l) => l.permissions.environments }),
  }),
});

export const RoleRef = builder.objectRef<Role | ProjectRole>('Role').implement({
  description: 'A role: predefined (root Admin, Editor, Viewer; project Owner, Member) or custom (`root-custom`, `custom`).',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Role id.' }),
    name: t.exposeString('name', { description: 'Unique name.' }),
    type: t.exposeString('type', { description: 'root, project, root-custom or custom.' }),
    description: t.exposeString('description', { description: 'Free text.' }),
    permissions: t.loadableList({
      type: PermissionRef,
      description: 'The permissions the role holds (environment permissions with their environment).',
      load: (ids: number[], ctx) => ctx.services.roles.permissionsOf(ids),
      resolve: (r) => r.id,
    }),
  }),
});

const ApiTokenRef = builder.objectRef<ApiTokenView>('ApiToken').implement({
  description: 'An API token: admin, client (backend SDKs) or frontend. Its secret is shown only when it is created.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Token id; tokens are addressed by id or by secret.' }),
    secret: t.string({ nullable: true, description: 'The secret, in the create answer only; null everywhere else.', resolve: (tk) => tk.secret ?? null }),
    tokenName: t.exposeString('tokenName', { description: 'Name.' }),
    type: t.exposeString('type', { description: 'admin, client or frontend.' }),
    environment: t.exposeString('environment', { description: 'The environment it reads (`*` for an admin token).' }),
    projects: t.exposeStringList('projects', { description: 'The projects it reads (`*` for all).' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'Expiry; null for never.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    seenAt: t.expose('seenAt', { type: 'DateTime', nullable: true, description: 'Last use (updated at most once a second).' }),
  }),
});

const PersonalAccessTokenRef = builder.objectRef<PersonalToken & { secret?: string }>('PersonalAccessToken').implement({
  description: "A personal access token: acts with its user's permissions. Its secret is shown only when it is created.",
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Token id.' }),
    secret: t.string({ nullable: true, description: 'The secret, in the create answer only; null everywhere else.', resolve: (tk) => tk.secret ?? null }),
    description: t.exposeString('description', { description: 'What it is for.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'Expiry.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    seenAt: t.expose('seenAt', { type: 'DateTime', nullable: true, description: 'Last use.' }),
  }),
});

const ProjectAccessUserRef = builder.objectRef<ProjectAccessUser>('ProjectAccessUser').implement({
  description: 'A user holding roles in a project directly.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'User id.' }),
    name: t.exposeString('name', { nullable: true, description: 'Display name.' }),
    email: t.exposeString('email', { nullable: true, description: 'Email.' }),
    username: t.exposeString('username', { nullable: true, description: 'Username.' }),
    imageUrl: t.exposeString('imageUrl', { description: 'Avatar URL.' }),
    addedAt: t.expose('addedAt', { type: 'DateTime', description: 'When the user got its first role in the project.' }),
    roleId: t.exposeInt('roleId', { description: 'The first of its roles.' }),
    roles: t.exposeIntList('roles', { description: 'Every role it holds in the project.' }),
  }),
});

const GroupMembershipRef = builder.objectRef<ProjectAccessGroup['users'][number]>('ProjectAccessGroupMember').implement({
  description: 'A member of a group that holds project roles.',
  fields: (t) => ({
    joinedAt: t.expose('joinedAt', { type: 'DateTime', description: 'When the user joined the group.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who added the user.' }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (m) => m.user }),
  }),
});

const ProjectAccessGroupRef = builder.objectRef<ProjectAccessGroup>('ProjectAccessGroup').implement({
  description: 'A group holding roles in a project: its members hold them too.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Group id.' }),
    name: t.exposeString('name', { description: 'Name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    mappingsSSO: t.exposeStringList('mappingsSSO', { description: 'SSO groups mapped to this group.' }),
    rootRole: t.exposeInt('rootRole', { nullable: true, description: 'Root role its members get, if any.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Creator.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true, description: 'Creation time.' }),
    addedAt: t.expose('addedAt', { type: 'DateTime', description: 'When the group got its first role in the project.' }),
    roleId: t.exposeInt('roleId', { description: 'The first of its roles.' }),
    roles: t.exposeIntList('roles', { description: 'Every role it holds in the project.' }),
    users: t.field({ type: [GroupMembershipRef], description: 'Its members.', resolve: (g) => g.users }),
  }),
});

const ProjectAccessRef = builder.objectRef<ProjectAccess>('ProjectAccess').implement({
  description: 'Who holds which roles in a project (REST: GET /api/admin/projects/:p/access).',
  fields: (t) => ({
    roles: t.field({ type: [RoleRef], description: 'Every project role (Owner, Member and custom ones).', resolve: (a) => a.roles }),
    users: t.field({ type: [ProjectAccessUserRef], description: 'Users holding roles directly.', resolve: (a) => a.users }),
    groups: t.field({ type: [ProjectAccessGroupRef], description: 'Groups holding roles.', resolve: (a) => a.groups }),
  }),
});

builder.objectField(ProjectRef, 'access', (t) => t.field({
  type: ProjectAccessRef,
  description: 'Who holds which roles in this project: three queries, whatever the number of holders.',
  complexity: { field: 20, multiplier: 1 },
  resolve: (p, _args, ctx) => ctx.services.projectAccess.get(p.id),
}));

builder.queryFields((t) => ({
  me: t.field({ type: MeRef, description: 'The caller and its permissions.', resolve: (_root, _args, ctx) => ctx.services.users.me() }),
  users: t.field({ type: [UserRef], description: 'Every user (permission ADMIN), by id.', resolve: (_root, _args, ctx) => ctx.services.users.list() }),
  user: t.field({
    type: UserRef,
    description: 'One user (permission ADMIN); a NotFoundError when it does not exist.',
    args: { id: t.arg.int({ required: true, description: 'User id.' }) },
    resolve: (_root, args, ctx) => ctx.services.users.get(args.id),
  }),
  roles: t.field({ type: [RoleRef], description: 'Every role, by id.', resolve: (_root, _args, ctx) => ctx.services.roles.list() }),
  role: t.field({
    type: RoleRef,
    description: 'One role; a NotFoundError when it does not exist.',
    args: { id: t.arg.int({ required: true, description: 'Role id.' }) },
    resolve: (_root, args, ctx) => ctx.services.roles.get(args.id),
  }),
  permissions: t.field({ type: PermissionListingRef, description: 'Every permission, and the environment permissions per environment.', resolve: (_root, _args, ctx) => ctx.services.roles.permissions() }),
  apiTokens: t.field({ type: [ApiTokenRef], description: 'The API tokens the caller may read (never their secrets).', resolve: (_root, _args, ctx) => ctx.services.apiTokens.list() }),
  personalAccessTokens: t.field({ type: [PersonalAccessTokenRef], description: "The caller's personal access tokens (never their secrets).", resolve: (_root, _args, ctx) => ctx.services.personalTokens.list() }),
}));

// ---- inputs ---------------------------------------------------------------------------------------------------------

const CreateUserInput = builder.inputType('CreateUserInput', {
  description: 'A new user: a username or an email (or both).',
  fields: (t) => ({
    username: t.string({ description: 'Username, 1..100 characters.' }),
    email: t.string({ description: 'Email address.' }),
    name: t.string({ description: 'Display name.' }),
    password: t.string({ description: 'Password (the strength rule applies); without one, the user cannot log in until it is set.' }),
    rootRole: t.string({ required: true, description: 'Root role by id ("2") or name ("Editor").' }),
  }),
});
const UpdateUserInput = builder.inputType('UpdateUserInput', {
  description: 'Changes to a user; absent fields are untouched.',
  fields: (t) => ({
    id: t.int({ required: true, description: 'The user to change.' }),
    email: t.string({ description: 'New email; null removes it (a user keeps a username or an email).' }),
    name: t.string({ description: 'New display name.' }),
    rootRole: t.string({ description: 'New root role, by id or name.' }),
  }),
});
const IdInput = builder.inputType('IdInput', {
  description: 'Names one thing by its numeric id.',
  fields: (t) => ({ id: t.int({ required: true, description: 'The id.' }) }),
});
const SetUserPasswordInput = builder.inputType('SetUserPasswordInput', {
  description: "A user's new password.",
  fields: (t) => ({
    id: t.int({ required: true, description: 'The user.' }),
    password: t.string({ required: true, description: 'The new password (the strength rule applies).' }),
  }),
});
const CreatePasswordResetLinkInput = builder.inputType('CreatePasswordResetLinkInput', {
  description: 'Names the user a password reset link is for.',
  fields: (t) => ({ id: t.string({ required: true, description: "The user's username or email, whatever its case." }) }),
});
const PasswordResetLinkRef = builder.objectRef<{ resetPasswordUrl: string }>('PasswordResetLink').implement({
  description: 'A password reset link (REST: POST /api/admin/user-admin/reset-password).',
  fields: (t) => ({
    resetPasswordUrl: t.exposeString('resetPasswordUrl', {
      description: 'The link: `<public URL>/reset-password?token=<token>`. Valid 24 hours, usable once; the token is checked with GET /auth/reset/validate and used with POST /auth/reset/password (REST only: they need no credentials, GraphQL always does).',
    }),
  }),
});
const ChangeOwnPasswordInput = builder.inputType('ChangeOwnPasswordInput', {
  description: "The caller's new password, twice.",
  fields: (t) => ({
    password: t.string({ required: true, description: 'The new password (the strength rule applies).' }),
    confirmPassword: t.string({ required: true, description: 'The same again.' }),
  }),
});
const CreateApiTokenInput = builder.inputType('CreateApiTokenInput', {
  description: 'A new API token.',
  fields: (t) => ({
    tokenName: t.string({ required: true, description: 'Name.' }),
    type: t.string({ required: true, description: 'admin, client or frontend.' }),
    environment: t.string({ description: 'The environment a client or frontend token reads (default `development`).' }),
    projects: t.stringList({ description: 'The projects it reads (default all: `*`).' }),
    expiresAt: t.field({ type: 'DateTime', description: 'Expiry; absent or null for never.' }),
  }),
});
const UpdateApiTokenInput = builder.inputType('UpdateApiTokenInput', {
  description: "A token's new expiry.",
  fields: (t) => ({
    token: t.string({ required: true, description: 'The token, by id or secret.' }),
    expiresAt: t.field({ type: 'DateTime', required: true, description: 'The new expiry.' }),
  }),
});
const ApiTokenRefInput = builder.inputType('ApiTokenRefInput', {
  description: 'Names one API token.',
  fields: (t) => ({ token: t.string({ required: true, description: 'The token, by id or secret.' }) }),
});
const CreatePersonalAccessTokenInput = builder.inputType('CreatePersonalAccessTokenInput', {
  description: 'A new personal access token of the caller.',
  fields: (t) => ({
    description: t.string({ required: true, description: 'What it is for.' }),
    expiresAt: t.field({ type: 'DateTime', required: true, description: 'Expiry.' }),
  }),
});
const AddProjectAccessInput = builder.inputType('AddProjectAccessInput', {
  description: 'Roles to give users and groups in a project (roles they already hold stay).',
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project id.' }),
    roles: t.intList({ required: true, description: 'Project role ids.' }),
    users: t.intList({ description: 'User ids.' }),
    groups: t.intList({ description: 'Group ids.' }),
  }),
});
const SetProjectRolesInput = builder.inputType('SetProjectRolesInput', {
  description: 'The complete list of roles one user or group holds in a project.',
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project id.' }),
    id: t.int({ required: true, description: 'User or group id.' }),
    roles: t.intList({ required: true, description: 'Project role ids; empty removes them all.' }),
  }),
});
const RemoveProjectRolesInput = builder.inputType('RemoveProjectRolesInput', {
  description: 'Names one user or group in a project.',
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project id.' }),
    id: t.int({ required: true, description: 'User or group id.' }),
  }),
});
const RolePermissionInput = builder.inputType('RolePermissionInput', {
  description: 'A permission of a role, by id or name.',
  fields: (t) => ({
    id: t.int({ description: 'Permission id.' }),
    name: t.string({ description: 'Permission name.' }),
    environment: t.string({ description: 'For an environment permission of a project role: the environment it holds in (absent: every environment).' }),
  }),
});
const CreateRoleInput = builder.inputType('CreateRoleInput', {
  description: 'A new custom role.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Unique name, whatever its case.' }),
    description: t.string({ description: 'Free text.' }),
    type: t.string({ description: '`root-custom` for a custom root role; anything else makes a custom project role.' }),
    permissions: t.field({ type: [RolePermissionInput], description: 'Its permissions.' }),
  }),
});
const UpdateRoleInput = builder.inputType('UpdateRoleInput', {
  description: 'A custom role, replaced whole.',
  fields: (t) => ({
    id: t.int({ required: true, description: 'The role to change.' }),
    name: t.string({ required: true, description: 'Unique name, whatever its case.' }),
    description: t.string({ description: 'Free text.' }),
    type: t.string({ description: '`root-custom` for a custom root role; anything else makes a custom project role.' }),
    permissions: t.field({ type: [RolePermissionInput], description: 'Its permissions.' }),
  }),
});

/** A root role given as text: digits are an id, anything else a name (D14). */
/** A role given as text in an input: an id ("2") or a name ("Editor"). */
export const roleRef = (v: string | null | undefined) => (v === undefined || v === null ? v : /^\d{1,10}$/.test(v) ? Number(v) : v);
const RoleWithVersionRef = builder.objectRef<{ version: number; roles: Role }>('RoleWithVersion').implement({
  description: 'A role written by createRole or updateRole, as REST answers it.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Format version (1).' }),
    role: t.field({ type: RoleRef, description: 'The role.', resolve: (r) => r.roles }),
  }),
});

builder.mutationFields((t) => ({
  createUser: t.field({
    type: UserRef,
    description: 'Creates a user. Event user-created.',
    complexity: WEIGHTS.passwordHash,
    args: { input: t.arg({ type: CreateUserInput, required: true, description: 'The user.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.users.create(defined({ ...input, rootRole: roleRef(input.rootRole) }) as never),
  }),
  updateUser: t.field({
    type: UserRef,
    description: 'Changes a user. Event user-updated.',
    args: { input: t.arg({ type: UpdateUserInput, required: true, description: 'The user and its changes.' }) },
    resolve: (_root, { input: { id, ...rest } }, ctx) => ctx.services.users.update(id, defined({ ...rest, rootRole: roleRef(rest.rootRole) }) as never),
  }),
  deleteUser: t.boolean({
    description: 'Deletes a user with its sessions, tokens and roles. Event user-deleted.',
    args: { input: t.arg({ type: IdInput, required: true, description: 'The user.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.users.delete(input.id); return true; },
  }),
  setUserPassword: t.boolean({
    description: "Sets a user's password and ends its sessions. Event user-updated (without the password).",
    complexity: WEIGHTS.passwordHash,
    args: { input: t.arg({ type: SetUserPasswordInput, required: true, description: 'The user and the password.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.users.setPassword(input.id, { password: input.password }); return true; },
  }),
  createPasswordResetLink: t.field({
    type: PasswordResetLinkRef,
    description: "Creates a password reset link for a user; the user's older unused links expire. No event (nothing changes until the link is used).",
    args: { input: t.arg({ type: CreatePasswordResetLinkInput, required: true, description: 'The user.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.users.createResetLink({ ...input }),
  }),
  changeOwnPassword: t.boolean({
    description: "Changes the caller's password and ends its other sessions.",
    complexity: WEIGHTS.passwordHash,
    args: { input: t.arg({ type: ChangeOwnPasswordInput, required: true, description: 'The new password, twice.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.users.changeOwnPassword({ ...input }); return true; },
  }),
  createApiToken: t.field({
    type: ApiTokenRef,
    description: 'Creates an API token; the answer carries its secret, once. Event api-token-created.',
    args: { input: t.arg({ type: CreateApiTokenInput, required: true, description: 'The token.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.apiTokens.create(defined(input)),
  }),
  updateApiToken: t.field({
    type: ApiTokenRef,
    description: "Changes a token's expiry. Event api-token-updated.",
    args: { input: t.arg({ type: UpdateApiTokenInput, required: true, description: 'The token and its expiry.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.apiTokens.update(input.token, { expiresAt: input.expiresAt }),
  }),
  deleteApiToken: t.boolean({
    description: 'Deletes (revokes) an API token: every instance refuses it within a second. Event api-token-deleted.',
    args: { input: t.arg({ type: ApiTokenRefInput, required: true, description: 'The token.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.apiTokens.delete(input.token); return true; },
  }),
  createPersonalAccessToken: t.field({
    type: PersonalAccessTokenRef,
    description: 'Creates a personal access token of the caller; the answer carries its secret, once. Event pat-created.',
    args: { input: t.arg({ type: CreatePersonalAccessTokenInput, required: true, description: 'The token.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.personalTokens.create({ ...input }),
  }),
  deletePersonalAccessToken: t.boolean({
    description: 'Deletes one of the caller\'s personal access tokens. Event pat-deleted.',
    args: { input: t.arg({ type: IdInput, required: true, description: 'The token.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.personalTokens.delete(String(input.id)); return true; },
  }),
  addProjectAccess: t.field({
    type: ProjectAccessRef,
    description: 'Gives roles to users and groups in a project. Event project-access-added.',
    args: { input: t.arg({ type: AddProjectAccessInput, required: true, description: 'The project, roles, users and groups.' }) },
    resolve: async (_root, { input: { project, ...rest } }, ctx) => {
      await ctx.services.projectAccess.add(project, defined(rest));
      return ctx.services.projectAccess.get(project);
    },
  }),
  setProjectUserRoles: t.field({
    type: ProjectAccessRef,
    description: "Replaces a user's roles in a project. Event project-access-user-roles-updated.",
    args: { input: t.arg({ type: SetProjectRolesInput, required: true, description: 'The project, user and roles.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.projectAccess.setRoles(input.project, 'user', String(input.id), { roles: input.roles });
      return ctx.services.projectAccess.get(input.project);
    },
  }),
  setProjectGroupRoles: t.field({
    type: ProjectAccessRef,
    description: "Replaces a group's roles in a project. Event project-access-group-roles-updated.",
    args: { input: t.arg({ type: SetProjectRolesInput, required: true, description: 'The project, group and roles.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.projectAccess.setRoles(input.project, 'group', String(input.id), { roles: input.roles });
      return ctx.services.projectAccess.get(input.project);
    },
  }),
  removeProjectUserRoles: t.field({
    type: ProjectAccessRef,
    description: "Removes a user's roles in a project. Event project-access-user-roles-deleted.",
    args: { input: t.arg({ type: RemoveProjectRolesInput, required: true, description: 'The project and user.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.projectAccess.removeRoles(input.project, 'user', String(input.id));
      return ctx.services.projectAccess.get(input.project);
    },
  }),
  removeProjectGroupRoles: t.field({
    type: ProjectAccessRef,
    description: "Removes a group's roles in a project. Event project-access-group-roles-deleted.",
    args: { input: t.arg({ type: RemoveProjectRolesInput, required: true, description: 'The project and group.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.projectAccess.removeRoles(input.project, 'group', String(input.id));
      return ctx.services.projectAccess.get(input.project);
    },
  }),
  createRole: t.field({
    type: RoleWithVersionRef,
    description: 'Creates a custom role. Event role-created.',
    args: { input: t.arg({ type: CreateRoleInput, required: true, description: 'The role.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.roles.create(roleBody(input)),
  }),
  updateRole: t.field({
    type: RoleWithVersionRef,
    description: 'Replaces a custom role (predefined roles cannot be changed). Event role-updated.',
    args: { input: t.arg({ type: UpdateRoleInput, required: true, description: 'The role.' }) },
    resolve: (_root, { input: { id, ...rest } }, ctx) => ctx.services.roles.update(id, roleBody(rest)),
  }),
  deleteRole: t.boolean({
    description: 'Deletes a custom role nobody holds. Event role-deleted.',
    args: { input: t.arg({ type: IdInput, required: true, description: 'The role.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.roles.delete(input.id); return true; },
  }),
}));

function roleBody(input: { name: string; description?: string | null; type?: string | null; permissions?: Array<{ id?: number | null; name?: string | null; environment?: string | null }> | null }) {
  return defined({ ...input, permissions: input.permissions?.map((p) => defined({ ...p })) ?? undefined });
}
