import type { ProjectAccess, ProjectAccessGroup, ProjectAccessUser } from '../domain/access/project-access.shapes';
import { builder } from './builder';
import { defined } from './input';
import { ProjectRef } from './projects.resolvers';
import { RoleRef } from './roles.resolvers';
import { UserRef } from './users.resolvers';

/** Who holds which roles in a project: the Project.access field and the mutations that give and take roles. */

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

// ---- inputs ---------------------------------------------------------------------------------------------------------

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

builder.mutationFields((t) => ({
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
}));
