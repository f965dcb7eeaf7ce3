import { z } from 'zod';
import { createSchema as createApiTokenSchema, updateSchema as updateApiTokenSchema } from '../../../domain/access/api-token.service';
import { ApiToken, ApiTokenCreated } from '../../../domain/access/api-token.shapes';
import { groupSchema } from '../../../domain/access/group.service';
import { Group } from '../../../domain/access/group.shapes';
import { ADMIN } from '../../../domain/access/permissions';
import { createSchema as createPersonalTokenSchema } from '../../../domain/access/personal-token.service';
import { PersonalAccessToken, PersonalAccessTokenCreated } from '../../../domain/access/personal-token.shapes';
import { addSchema as addProjectAccessSchema, rolesSchema as projectRolesSchema } from '../../../domain/access/project-access.service';
import { ProjectAccess } from '../../../domain/access/project-access.shapes';
import { roleSchema } from '../../../domain/access/role.service';
import { PermissionListing, Role, RoleSaved, RoleWithPermissions } from '../../../domain/access/role.shapes';
import { settingsSchema as samlSettingsSchema } from '../../../domain/access/saml-settings.service';
import { SamlSettings } from '../../../domain/access/saml-settings.shapes';
import { createSchema as createSignupTokenSchema, updateSchema as updateSignupTokenSchema } from '../../../domain/access/signup-token.service';
import { SignupToken } from '../../../domain/access/signup-token.shapes';
import { createUserSchema, ownPasswordSchema, passwordSchema, resetLinkSchema, updateUserSchema } from '../../../domain/access/user.service';
import { User, UserProfile } from '../../../domain/access/user.shapes';
import { version1, type RouteDocs } from '../describe';
import { AUTH_DOCS, INVITE_DOCS } from './auth.docs';

const users = 'Users';
const apiTokens = 'API tokens';
const roles = 'Roles and permissions';
const groups = 'Groups';
const signup = 'Signup tokens';
const saml = 'SAML';

const idParam = (what: string) => ({ id: { description: `The ${what}'s id` } });
const ONLY_USERS = 'Only a user can do this (a session or a personal access token); an API token gets 403 InvalidOperationError.';

/** Users, the caller's own account and personal access tokens (src/rest/users.routes.ts). */
export const USER_DOCS: RouteDocs = {
  'GET /api/admin/user-admin': { tag: users, summary: 'List users', permission: ADMIN, responses: { 200: z.object({ users: z.array(User) }) } },
  'POST /api/admin/user-admin': {
    tag: users, summary: 'Create a user',
    description: 'Give a `username`, an `email` or both, and a root role by id or name. Without a `password`, the answer\'s `inviteLink` is a single-use link (valid 24 hours) with which the new user sets one; this service sends no email.',
    body: createUserSchema, responses: { 201: User }, errors: ['NameExistsError'],
  },
  'GET /api/admin/user-admin/:id': { tag: users, summary: 'Get a user', permission: ADMIN, params: idParam('user'), responses: { 200: User } },
  'PUT /api/admin/user-admin/:id': {
    tag: users, summary: 'Change a user\'s name, email or root role', params: idParam('user'), body: updateUserSchema,
    responses: { 200: User }, errors: ['NameExistsError'],
  },
  'DELETE /api/admin/user-admin/:id': {
    tag: users, summary: 'Delete a user', description: 'You cannot delete yourself (403 InvalidOperationError).', params: idParam('user'),
    responses: { 200: null }, errors: ['InvalidOperationError'],
  },
  'POST /api/admin/user-admin/reset-password': {
    tag: users, summary: 'Get a password reset link for a user',
    description: 'The user is named by username or email in `id`. The link is single-use and valid 24 hours; the user\'s older links stop working.',
    body: resetLinkSchema, responses: { 200: z.object({ resetPasswordUrl: z.string() }) }, errors: ['NotFoundError'],
  },
  'POST /api/admin/user-admin/:id/change-password': {
    tag: users, summary: 'Set a user\'s password',
    description: 'Every session of the user ends, and their reset and invite links stop working.',
    params: idParam('user'), body: passwordSchema, responses: { 200: null },
  },
  'GET /api/admin/user': {
    tag: users, summary: 'Get the caller and its permissions', responses: { 200: UserProfile }, errors: ['NotFoundError'],
  },
  'POST /api/admin/user/change-password': {
    tag: users, summary: 'Change your own password',
    description: `The session the change is made in stays; every other session of yours ends. ${ONLY_USERS}`,
    body: ownPasswordSchema, responses: { 200: null }, errors: ['InvalidOperationError'],
  },
  'GET /api/admin/user/tokens': {
    tag: apiTokens, summary: 'List your personal access tokens', description: ONLY_USERS,
    responses: { 200: z.object({ pats: z.array(PersonalAccessToken) }) }, errors: ['InvalidOperationError'],
  },
  'POST /api/admin/user/tokens': {
    tag: apiTokens, summary: 'Create a personal access token',
    description: `The token acts with your permissions until \`expiresAt\`. Its \`secret\` is in this answer only. ${ONLY_USERS}`,
    body: createPersonalTokenSchema, responses: { 201: PersonalAccessTokenCreated }, errors: ['InvalidOperationError'],
  },
  'DELETE /api/admin/user/tokens/:id': {
    tag: apiTokens, summary: 'Delete one of your personal access tokens', description: ONLY_USERS, params: idParam('token'),
    responses: { 200: null }, errors: ['InvalidOperationError'],
  },
};

const TOKEN_TYPES = 'A client token needs the CLIENT permission of the action, a frontend token the FRONTEND one, an admin token ADMIN.';

/** API tokens (src/rest/users.routes.ts). */
export const API_TOKEN_DOCS: RouteDocs = {
  'GET /api/admin/api-tokens': {
    tag: apiTokens, summary: 'List API tokens',
    description: 'Only the tokens of the types the caller may read: client tokens with READ_CLIENT_API_TOKEN, frontend tokens with READ_FRONTEND_API_TOKEN, admin tokens with ADMIN. Secrets are never listed.',
    responses: { 200: z.object({ tokens: z.array(ApiToken) }) },
  },
  'POST /api/admin/api-tokens': {
    tag: apiTokens, summary: 'Create an API token',
    description: `Client and frontend tokens are for one environment and for every project (\`*\`) or the listed ones; an admin token is for everything. Its \`secret\` is in this answer only. ${TOKEN_TYPES}`,
    body: createApiTokenSchema, responses: { 201: ApiTokenCreated },
  },
  'PUT /api/admin/api-tokens/:token': {
    tag: apiTokens, summary: 'Change when an API token expires', description: TOKEN_TYPES,
    params: { token: { description: 'The token\'s secret or id' } }, body: updateApiTokenSchema, responses: { 200: ApiToken },
  },
  'DELETE /api/admin/api-tokens/:token': {
    tag: apiTokens, summary: 'Delete an API token', description: TOKEN_TYPES,
    params: { token: { description: 'The token\'s secret or id' } }, responses: { 200: null },
  },
};

const projectParam = { projectId: { description: 'The project\'s id' } };

/** Who holds which roles in a project (src/rest/users.routes.ts). */
export const PROJECT_ACCESS_DOCS: RouteDocs = {
  'GET /api/admin/projects/:projectId/access': {
    tag: roles, summary: 'List the users and groups that hold roles in a project', params: projectParam, responses: { 200: ProjectAccess },
  },
  'POST /api/admin/projects/:projectId/access': {
    tag: roles, summary: 'Give project roles to users and groups',
    description: 'Every listed role goes to every listed user and group; roles they already hold stay. Roles, users and groups are given by id (or `{id}`).',
    params: projectParam, body: addProjectAccessSchema, responses: { 200: null },
  },
  'PUT /api/admin/projects/:projectId/users/:userId/roles': {
    tag: roles, summary: 'Set a user\'s roles in a project',
    description: 'Replaces the user\'s project roles (an empty list removes them). A project that has an Owner keeps one (400 ProjectWithoutOwnerError).',
    params: { ...projectParam, userId: { description: 'The user\'s id' } }, body: projectRolesSchema, responses: { 200: null }, errors: ['ProjectWithoutOwnerError'],
  },
  'DELETE /api/admin/projects/:projectId/users/:userId/roles': {
    tag: roles, summary: 'Remove a user\'s roles in a project', description: 'A project that has an Owner keeps one (400 ProjectWithoutOwnerError).',
    params: { ...projectParam, userId: { description: 'The user\'s id' } }, responses: { 200: null }, errors: ['ProjectWithoutOwnerError'],
  },
  'PUT /api/admin/projects/:projectId/groups/:groupId/roles': {
    tag: roles, summary: 'Set a group\'s roles in a project',
    description: 'Replaces the group\'s project roles (an empty list removes them). A project that has an Owner keeps one (400 ProjectWithoutOwnerError).',
    params: { ...projectParam, groupId: { description: 'The group\'s id' } }, body: projectRolesSchema, responses: { 200: null }, errors: ['ProjectWithoutOwnerError'],
  },
  'DELETE /api/admin/projects/:projectId/groups/:groupId/roles': {
    tag: roles, summary: 'Remove a group\'s roles in a project', description: 'A project that has an Owner keeps one (400 ProjectWithoutOwnerError).',
    params: { ...projectParam, groupId: { description: 'The group\'s id' } }, responses: { 200: null }, errors: ['ProjectWithoutOwnerError'],
  },
};

const BUILT_IN = 'The predefined roles (ids 1 to 5) cannot be changed or deleted (403 InvalidOperationError).';

/** Roles and the permission listing (src/rest/roles.routes.ts). */
export const ROLE_DOCS: RouteDocs = {
  'GET /api/admin/permissions': {
    tag: roles, summary: 'List the permissions a role can hold',
    description: 'Root and project permissions, and the environment permissions once per environment.',
    responses: { 200: PermissionListing },
  },
  'GET /api/admin/roles': { tag: roles, summary: 'List roles', responses: { 200: z.object({ version: version1, roles: z.array(Role) }) } },
  'POST /api/admin/roles': {
    tag: roles, summary: 'Create a custom role',
    description: 'Type `root-custom` makes a custom root role; anything else a custom project role, which holds project and environment permissions only. Permissions are given by `id` or `name`; an environment permission of a project role may name its `environment` (none: every environment).',
    body: roleSchema, responses: { 200: RoleSaved }, errors: ['NameExistsError'],
  },
  'GET /api/admin/roles/:id': { tag: roles, summary: 'Get a role with its permissions', params: idParam('role'), responses: { 200: RoleWithPermissions } },
  'PUT /api/admin/roles/:id': {
    tag: roles, summary: 'Replace a custom role',
    description: `The same body as creating one: name, description, type and permissions are replaced. The type of a role someone holds cannot change. ${BUILT_IN}`,
    params: idParam('role'), body: roleSchema, responses: { 200: RoleSaved }, errors: ['NameExistsError', 'InvalidOperationError'],
  },
  'DELETE /api/admin/roles/:id': {
    tag: roles, summary: 'Delete a custom role',
    description: `A role that a user, a group or a signup link still holds cannot be deleted (400 RoleInUseError). ${BUILT_IN}`,
    params: idParam('role'), responses: { 200: null }, errors: ['RoleInUseError', 'InvalidOperationError'],
  },
};

/** Groups of users (src/rest/groups.routes.ts). */
export const GROUP_DOCS: RouteDocs = {
  'GET /api/admin/groups': { tag: groups, summary: 'List groups with their members', responses: { 200: z.object({ groups: z.array(Group) }) } },
  'POST /api/admin/groups': {
    tag: groups, summary: 'Create a group', description: 'Members are given as `{user: {id}}` or `{id}`.',
    body: groupSchema, responses: { 201: Group }, errors: ['NameExistsError'],
  },
  'GET /api/admin/groups/:id': { tag: groups, summary: 'Get a group with its members', params: idParam('group'), responses: { 200: Group } },
  'PUT /api/admin/groups/:id': {
    tag: groups, summary: 'Replace a group',
    description: 'Replaces name, description, SSO mappings, root role and members (fields left out get their defaults); members kept keep their `joinedAt`.',
    params: idParam('group'), body: groupSchema, responses: { 200: Group }, errors: ['NameExistsError'],
  },
  'DELETE /api/admin/groups/:id': {
    tag: groups, summary: 'Delete a group', description: 'Its memberships and the project roles it held go with it.', params: idParam('group'), responses: { 200: null },
  },
};

const secretParam = { token: { description: 'The signup token\'s secret' } };

/** Public signup tokens, the admin side (src/rest/signup-tokens.routes.ts). */
export const SIGNUP_TOKEN_DOCS: RouteDocs = {
  'GET /api/admin/invite-link/tokens': { tag: signup, summary: 'List signup tokens', permission: ADMIN, responses: { 200: z.object({ tokens: z.array(SignupToken) }) } },
  'POST /api/admin/invite-link/tokens': {
    tag: signup, summary: 'Create a signup token (an invite link)',
    description: 'Whoever holds the link signs up with the token\'s root role (default Viewer) until it expires; `expiresAt` is capped at one month ahead.',
    body: createSignupTokenSchema,
    responses: { 201: { description: 'Created', schema: SignupToken, headers: { Location: 'The token\'s address, relative to /api/admin/' } } },
  },
  'GET /api/admin/invite-link/tokens/:token': { tag: signup, summary: 'Get a signup token', permission: ADMIN, params: secretParam, responses: { 200: SignupToken } },
  'PUT /api/admin/invite-link/tokens/:token': {
    tag: signup, summary: 'Enable, disable or extend a signup token', description: 'Send `expiresAt`, `enabled` or both. A past `expiresAt` ends the link at once.',
    params: secretParam, body: updateSignupTokenSchema, responses: { 200: SignupToken },
  },
};

/** SAML settings (src/rest/saml-settings.routes.ts). */
export const SAML_SETTINGS_DOCS: RouteDocs = {
  'GET /api/admin/auth/saml/settings': { tag: saml, summary: 'Get the SAML sign-in settings', permission: ADMIN, responses: { 200: SamlSettings } },
  'POST /api/admin/auth/saml/settings': {
    tag: saml, summary: 'Replace the SAML sign-in settings',
    description: 'Optional fields left out are removed and booleans default to false. `spCertificate` may be left out, or be the service\'s own certificate; "" in an optional field means it is absent. `autoCreate` needs `emailDomains`.',
    body: samlSettingsSchema, responses: { 200: SamlSettings },
  },
};

/** Every route of users, tokens, project access, roles, groups, signup tokens, SAML and sign-in. */
export const ACCESS_DOCS: RouteDocs = {
  ...USER_DOCS, ...API_TOKEN_DOCS, ...PROJECT_ACCESS_DOCS, ...ROLE_DOCS, ...GROUP_DOCS, ...SIGNUP_TOKEN_DOCS, ...SAML_SETTINGS_DOCS,
  ...AUTH_DOCS, ...INVITE_DOCS,
};
