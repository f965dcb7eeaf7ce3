import { z } from 'zod';
import { named, timestamp } from '../../../domain/shapes';
import { version1 } from '../describe';

/**
 * Answer shapes of users, roles, groups, tokens, project access, SAML and sign-in, written from the code that builds
 * them (src/domain/access/*.service.ts). Objects are closed: every field the service sends is listed here.
 */

const id = z.number().int();

export const User = named('User', z.object({
  id,
  isAPI: z.boolean(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  imageUrl: z.string(),
  inviteLink: z.string(),
  loginAttempts: z.number().int(),
  emailSent: z.boolean(),
  rootRole: id,
  seenAt: timestamp.nullable(),
  createdAt: timestamp,
  accountType: z.string(),
  permissions: z.array(z.string()),
}), 'A user. `isAPI` and `permissions` are deprecated (kept for Unleash clients): `permissions` is always empty and `isAPI` is true only in `GET /api/admin/user` answered to an API token. `inviteLink` is set only in the answer that creates the user ("" elsewhere). `email` or `username` may be null, never both.');

export const Role = named('Role', z.object({
  id,
  name: z.string(),
  type: z.string(),
  description: z.string(),
}), 'A role: `root` and `root-custom` roles hold everywhere, `project` and `custom` roles in the projects they are given in.');

export const Permission = named('Permission', z.object({
  id,
  name: z.string(),
  displayName: z.string(),
  type: z.string(),
  environment: z.string().optional(),
}), 'A permission: `type` is root, project or environment; `environment` names the environment of an environment permission where it is held in one.');

export const RoleWithPermissions = named('RoleWithPermissions', Role.extend({ permissions: z.array(Permission) }));

/** The permission listing (`GET /api/admin/permissions`). */
export const PermissionListing = z.object({
  version: version1,
  permissions: z.object({
    root: z.array(Permission),
    project: z.array(Permission),
    environments: z.array(z.object({ name: z.string(), permissions: z.array(Permission) })),
  }),
});

/** `{version: 1, roles: Role}`: what creating or changing a role answers (`roles` holds one role, as Unleash's). */
export const RoleSaved = named('RoleSaved', z.object({ version: version1, roles: Role }));

/** The caller (`GET /api/admin/user`): the user and every permission it holds, with where. */
export const UserProfile = named('UserProfile', z.object({
  user: User,
  feedback: z.array(z.unknown()),
  splash: z.record(z.string(), z.boolean()),
  permissions: z.array(z.object({ permission: z.string(), project: z.string().optional(), environment: z.string().optional() })),
}), 'The caller: its user (for an API token, a stand-in user with `isAPI: true`) and every permission it holds, with the project and environment where it holds it (absent: everywhere).');

export const GroupUser = named('GroupUser', z.object({
  joinedAt: timestamp,
  createdBy: z.string().nullable(),
  user: User,
}), 'A member of a group: when and by whom the user was added.');

export const Group = named('Group', z.object({
  id,
  name: z.string(),
  description: z.string().nullable(),
  mappingsSSO: z.array(z.string()),
  rootRole: id.nullable(),
  createdBy: z.string().nullable(),
  createdAt: timestamp,
  userCount: z.number().int(),
  users: z.array(GroupUser),
}), 'A group of users. Its root role (if any) and the project roles given to it hold for every member.');

export const ProjectAccess = named('ProjectAccess', z.object({
  roles: z.array(Role),
  users: z.array(User.extend({ addedAt: timestamp, roleId: id, roles: z.array(id) })),
  groups: z.array(Group.omit({ userCount: true }).extend({ createdAt: timestamp.nullable(), addedAt: timestamp, roleId: id, roles: z.array(id) })),
}), 'Who holds which project roles in a project: `roles` are the project roles there are, `users` and `groups` those who hold some here (`roleId` is the first of their `roles`).');

export const ApiToken = named('ApiToken', z.object({
  id,
  tokenName: z.string(),
  username: z.string(),
  type: z.enum(['client', 'admin', 'frontend']),
  environment: z.string(),
  project: z.string(),
  projects: z.array(z.string()),
  expiresAt: timestamp.nullable(),
  createdAt: timestamp,
  seenAt: timestamp.nullable(),
  alias: z.null(),
}), 'An API token, without its secret. `username` repeats `tokenName`; `project` is the one project (or `*`), `[]` when there are several (see `projects`).');

/** The token as created: with its secret, shown this once. */
export const ApiTokenCreated = ApiToken.extend({ secret: z.string() });

export const PersonalAccessToken = named('PersonalAccessToken', z.object({
  id,
  description: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
  seenAt: timestamp.nullable(),
}), 'A personal access token of the caller, without its secret.');

export const PersonalAccessTokenCreated = PersonalAccessToken.extend({ secret: z.string() });

export const SignupToken = named('SignupToken', z.object({
  secret: z.string(),
  url: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  expiresAt: timestamp,
  createdAt: timestamp,
  createdBy: z.string().nullable(),
  users: z.array(User),
  role: z.object({ id, name: z.string(), type: z.string(), description: z.string().nullable() }),
}), 'A public signup token (invite link): whoever holds `url` signs up with `role` while it is enabled and not expired. `enabled` is false for an expired token.');

export const SamlSettings = named('SamlSettings', z.object({
  enabled: z.boolean(),
  entityId: z.string().optional(),
  signOnUrl: z.string().optional(),
  certificate: z.string().optional(),
  signOutUrl: z.string().optional(),
  spCertificate: z.string().optional(),
  autoCreate: z.boolean(),
  emailDomains: z.string().optional(),
  defaultRootRole: z.enum(['Viewer', 'Editor', 'Admin']),
}), 'The SAML sign-in settings. `spCertificate` is the service\'s own signing certificate (also in the SP metadata). Before any settings are saved: `{enabled: false, autoCreate: false, defaultRootRole: "Viewer", spCertificate}`.');

export const TokenUser = named('TokenUser', z.object({
  id,
  name: z.string().nullable(),
  email: z.string(),
  token: z.string(),
  createdBy: z.string().nullable(),
  role: Role,
}), 'The user a password reset or invite link belongs to, with their root role. `email` is "" for a user who has only a username.');

export const AuthConfig = named('AuthConfig', z.object({
  password: z.boolean(),
  saml: z.object({ enabled: z.boolean(), loginUrl: z.string().nullable() }),
}), 'The sign-in methods on offer: password login, and SAML with the address that starts it when it is enabled.');
