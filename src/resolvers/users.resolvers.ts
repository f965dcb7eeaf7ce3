import { createUserSchema, ownPasswordSchema, passwordSchema, resetLinkSchema, updateUserSchema } from '../domain/access/user.service';
import type { HeldPermission, User } from '../domain/access/user.shapes';
import { builder } from './builder';
import { WEIGHTS } from './cost';
import { defined, IdInput } from './input';
import { PERMISSIONS } from '../domain/access/permissions';
import { enumType, zodInput } from './zod-input';

/**
 * Access control on the GraphQL door (issue 9): users and the caller here; roles and permissions, API and personal
 * tokens, and project access in their own files. Every field calls the same service method as the REST route, which
 * checks the permission.
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

const GrantRef = builder.objectRef<HeldPermission>('Grant').implement({
  description: 'A permission the caller holds, and where: a root permission has no project; an environment permission may name its environment.',
  fields: (t) => ({
    permission: t.exposeString('permission', { description: 'Permission name.' }),
    project: t.string({ nullable: true, description: 'The project it holds in; null for a root permission.', resolve: (g) => g.project ?? null }),
    environment: t.string({ nullable: true, description: 'The environment it holds in; null when it holds in every environment or is not environment specific.', resolve: (g) => g.environment ?? null }),
  }),
});

const permissionNames = PERMISSIONS.map((d) => d.name) as [string, ...string[]];
/** The permission names, so that a client (the web UI through codegen) checks `allowed` against a typed list. */
const PermissionNameEnum = enumType('PermissionName', permissionNames, {
  description: 'The name of a permission (GET /api/admin/permissions lists each with its type).',
  valueDescriptions: Object.fromEntries(PERMISSIONS.map((d) => [d.name, d.displayName])),
});

const MeRef = builder.objectRef<{ user: User; permissions: Array<{ permission: string; project?: string; environment?: string }> }>('Me').implement({
  description: 'The caller and every permission it holds (REST: GET /api/admin/user).',
  fields: (t) => ({
    user: t.field({ type: UserRef, description: 'The caller (an API token is shown as a user with isAPI true).', resolve: (m) => m.user }),
    permissions: t.field({ type: [GrantRef], description: 'Every permission the caller holds, with its project and environment.', resolve: (m) => m.permissions }),
    allowed: t.field({
      type: [PermissionNameEnum],
      description: 'The names of the permissions the caller holds in a project and environment, decided as every permission check decides (an admin holds them all; without `project`, only root grants count; without `environment`, only grants that hold in every environment). What a client may offer, read from the service rather than guessed from `permissions`.',
      args: {
        project: t.arg.string({ required: false, description: 'The project; omitted for a check that names none.' }),
        environment: t.arg.string({ required: false, description: 'The environment; omitted for a check that names none.' }),
      },
      resolve: (_m, args, ctx) => ctx.services.users.allowedIn({ ...(args.project == null ? {} : { project: args.project }), ...(args.environment == null ? {} : { environment: args.environment }) }),
    }),
  }),
});
builder.queryFields((t) => ({
  me: t.field({ type: MeRef, description: 'The caller and its permissions.', resolve: (_root, _args, ctx) => ctx.services.users.me() }),
  users: t.field({ type: [UserRef], description: 'Every user (permission ADMIN), by id.', resolve: (_root, _args, ctx) => ctx.services.users.list() }),
  user: t.field({
    type: UserRef,
    description: 'One user (permission ADMIN); a NotFoundError when it does not exist.',
    args: { id: t.arg.int({ required: true, description: 'User id.' }) },
    resolve: (_root, args, ctx) => ctx.services.users.get(args.id),
  }),
}));

// ---- inputs ---------------------------------------------------------------------------------------------------------

// A root role is a text here: an id ("2") or a name ("Editor"), see roleRef.
const CreateUserInput = zodInput('CreateUserInput', createUserSchema, {
  description: 'A new user: a username or an email (or both).',
  omit: ['sendEmail'],
  descriptions: {
    username: 'Username, 1..100 characters.',
    email: 'Email address.',
    name: 'Display name.',
    password: 'Password (the strength rule applies); without one, the user cannot log in until it is set.',
  },
  fields: (t) => ({ rootRole: t.string({ required: true, description: 'Root role by id ("2") or name ("Editor").' }) }),
});
const UpdateUserInput = zodInput('UpdateUserInput', updateUserSchema, {
  description: 'Changes to a user; absent fields are untouched.',
  descriptions: {
    email: 'New email; null removes it (a user keeps a username or an email).',
    name: 'New display name.',
  },
  fields: (t) => ({
    id: t.int({ required: true, description: 'The user to change.' }),
    rootRole: t.string({ description: 'New root role, by id or name.' }),
  }),
});
const SetUserPasswordInput = zodInput('SetUserPasswordInput', passwordSchema, {
  description: "A user's new password.",
  descriptions: { password: 'The new password (the strength rule applies).' },
  fields: (t) => ({ id: t.int({ required: true, description: 'The user.' }) }),
});
const CreatePasswordResetLinkInput = zodInput('CreatePasswordResetLinkInput', resetLinkSchema, {
  description: 'Names the user a password reset link is for.',
  descriptions: { id: "The user's username or email, whatever its case." },
});
const PasswordResetLinkRef = builder.objectRef<{ resetPasswordUrl: string }>('PasswordResetLink').implement({
  description: 'A password reset link (REST: POST /api/admin/user-admin/reset-password).',
  fields: (t) => ({
    resetPasswordUrl: t.exposeString('resetPasswordUrl', {
      description: 'The link: `<public URL>/reset-password?token=<token>`. Valid 24 hours, usable once; the token is checked with GET /auth/reset/validate and used with POST /auth/reset/password (REST only: they need no credentials, GraphQL always does).',
    }),
  }),
});
const ChangeOwnPasswordInput = zodInput('ChangeOwnPasswordInput', ownPasswordSchema, {
  description: "The caller's new password, twice.",
  descriptions: { password: 'The new password (the strength rule applies).', confirmPassword: 'The same again.' },
});

/** A role given as text in an input: an id ("2") or a name ("Editor"), D14. */
export const roleRef = (v: string | null | undefined) => (v === undefined || v === null ? v : /^\d{1,10}$/.test(v) ? Number(v) : v);

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
}));
