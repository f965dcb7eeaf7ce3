import { groupSchema, type GroupInput } from '../domain/access/group.service';
import type { Group, GroupUser } from '../domain/access/group.shapes';
import type { User } from '../domain/access/user.shapes';
import { builder } from './builder';
import { zodInput, type InputFields } from './zod-input';

/**
 * A user as a group lists it. Named GroupUser so it stays apart from the users area's own type; the fields are the
 * REST User's (spec: User), without the deprecated and invitation ones.
 */
const GroupUserRef = builder.objectRef<User>('GroupUser').implement({
  description: 'A user who is a member of a group.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Numeric id.' }),
    name: t.exposeString('name', { nullable: true, description: 'Display name; null when none.' }),
    username: t.exposeString('username', { nullable: true, description: 'Login name; null when the user logs in with the email.' }),
    email: t.exposeString('email', { nullable: true, description: 'Email address; null when none.' }),
    imageUrl: t.exposeString('imageUrl', { description: 'Avatar URL.' }),
    rootRole: t.exposeInt('rootRole', { description: 'Id of the user\'s own root role.' }),
    accountType: t.exposeString('accountType', { description: 'A User or a Service Account.' }),
    seenAt: t.expose('seenAt', { type: 'DateTime', nullable: true, description: 'Last login; null when never.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
  }),
});

const GroupMemberRef = builder.objectRef<GroupUser>('GroupMember').implement({
  description: 'A user\'s membership of a group.',
  fields: (t) => ({
    joinedAt: t.expose('joinedAt', { type: 'DateTime', description: 'When the user was added to the group.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who added the user.' }),
    user: t.field({ type: GroupUserRef, description: 'The member.', resolve: (m) => m.user }),
  }),
});

export const GroupRef = builder.objectRef<Group>('Group').implement({
  description: 'A group of users. Its root role and the project roles given to it hold for every member.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Numeric id.' }),
    name: t.exposeString('name', { description: 'Unique name (case-insensitively), 1..100 characters.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text; null when none.' }),
    mappingsSSO: t.exposeStringList('mappingsSSO', { description: 'SSO groups mapped to this group.' }),
    rootRole: t.exposeInt('rootRole', { nullable: true, description: 'Id of the root role every member holds through the group; null for none.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who created the group.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    userCount: t.exposeInt('userCount', { description: 'Number of members.' }),
    users: t.field({ type: [GroupMemberRef], description: 'The members, in the order they joined.', resolve: (g) => g.users }),
  }),
});

builder.queryFields((t) => ({
  groups: t.field({
    type: [GroupRef],
    description: 'Every group with its members, by id.',
    resolve: (_root, _args, ctx) => ctx.services.groups.list(),
  }),
  group: t.field({
    type: GroupRef,
    description: 'One group with its members; a NotFoundError when it does not exist.',
    args: { id: t.arg.int({ required: true, description: 'Group id.' }) },
    resolve: (_root, args, ctx) => ctx.services.groups.get(args.id),
  }),
}));

const groupFields = {
  name: 'Unique name (case-insensitively), 1..100 characters.',
  description: 'Free text, up to 1000 characters; null or absent for none.',
  mappingsSSO: 'SSO groups mapped to this group (absent: none).',
  rootRole: 'Id of a root role (Admin 1, Editor 2, Viewer 3 or a custom root role) every member holds; null or absent for none.',
  users: 'Ids of the member users (absent: none).',
};

// Members are user ids here; the REST body lists them as `{user: {id}}` (or `{id}`).
const members = (t: InputFields) => ({ users: t.intList({ description: groupFields.users }) });
const CreateGroupInput = zodInput('CreateGroupInput', groupSchema, {
  description: 'A new group.',
  descriptions: groupFields,
  fields: members,
});
const UpdateGroupInput = zodInput('UpdateGroupInput', groupSchema, {
  description: 'The new state of a group: every field is replaced, an absent optional field by its default. Members kept keep their joinedAt.',
  descriptions: groupFields,
  fields: (t) => ({ id: t.int({ required: true, description: 'The group to change.' }), ...members(t) }),
});
const GroupIdInput = builder.inputType('GroupIdInput', {
  description: 'Names one group.',
  fields: (t) => ({ id: t.int({ required: true, description: 'Group id.' }) }),
});

/** The REST body for the same change: absent fields dropped, member ids as `{user: {id}}`. */
function body(input: { name: string; description?: string | null; mappingsSSO?: string[] | null; rootRole?: number | null; users?: number[] | null }): GroupInput {
  const out: Record<string, unknown> = { name: input.name };
  if (input.description !== undefined) out.description = input.description;
  if (input.mappingsSSO !== undefined) out.mappingsSSO = input.mappingsSSO;
  if (input.rootRole !== undefined) out.rootRole = input.rootRole;
  if (input.users !== undefined) out.users = input.users === null ? null : input.users.map((id) => ({ user: { id } }));
  return out as GroupInput;
}

builder.mutationFields((t) => ({
  createGroup: t.field({
    type: GroupRef,
    description: 'Creates a group with its members. Event group-created.',
    args: { input: t.arg({ type: CreateGroupInput, required: true, description: 'The group to create.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.groups.create(body(input)),
  }),
  updateGroup: t.field({
    type: GroupRef,
    description: 'Replaces a group\'s name, description, SSO mappings, root role and members. Event group-updated, none when nothing changes.',
    args: { input: t.arg({ type: UpdateGroupInput, required: true, description: 'The group and its new state.' }) },
    resolve: (_root, { input: { id, ...rest } }, ctx) => ctx.services.groups.update(id, body(rest)),
  }),
  deleteGroup: t.boolean({
    description: 'Deletes a group, its memberships and the project roles it held. Event group-deleted.',
    args: { input: t.arg({ type: GroupIdInput, required: true, description: 'The group to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.groups.delete(input.id);
      return true;
    },
  }),
}));
