import { roleSchema } from '../domain/access/role.service';
import type { EnvironmentPermissions, Permission, PermissionListing, Role, RoleSaved } from '../domain/access/role.shapes';
import { builder } from './builder';
import { defined, IdInput } from './input';
import { itemOf, zodInput } from './zod-input';

/** Roles and permissions: what exists, and the custom roles' mutations. */

export const PermissionRef = builder.objectRef<Permission>('Permission').implement({
  description: 'A permission, as `GET /api/admin/permissions` lists it.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Permission id.' }),
    name: t.exposeString('name', { description: 'Permission name, for example UPDATE_FEATURE.' }),
    displayName: t.exposeString('displayName', { description: 'Human-readable name.' }),
    type: t.exposeString('type', { description: 'root, project or environment.' }),
    environment: t.string({ nullable: true, description: 'The environment an environment permission applies to; null when it applies to every environment or is not environment specific.', resolve: (p) => p.environment ?? null }),
  }),
});

const EnvironmentPermissionsRef = builder.objectRef<EnvironmentPermissions>('EnvironmentPermissions').implement({
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

export const RoleRef = builder.objectRef<Role>('Role').implement({
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
builder.queryFields((t) => ({
  roles: t.field({ type: [RoleRef], description: 'Every role, by id.', resolve: (_root, _args, ctx) => ctx.services.roles.list() }),
  role: t.field({
    type: RoleRef,
    description: 'One role; a NotFoundError when it does not exist.',
    args: { id: t.arg.int({ required: true, description: 'Role id.' }) },
    resolve: (_root, args, ctx) => ctx.services.roles.get(args.id),
  }),
  permissions: t.field({ type: PermissionListingRef, description: 'Every permission, and the environment permissions per environment.', resolve: (_root, _args, ctx) => ctx.services.roles.permissions() }),
}));

// ---- inputs ---------------------------------------------------------------------------------------------------------

// A permission's displayName and type, which a client may send back as it read them, are not taken here. Built for the
// role inputs that hold it.
zodInput('RolePermissionInput', itemOf(roleSchema.shape.permissions), {
  description: 'A permission of a role, by id or name.',
  omit: ['displayName', 'type'],
  descriptions: {
    id: 'Permission id.',
    name: 'Permission name.',
    environment: 'For an environment permission of a project role: the environment it holds in (absent: every environment).',
  },
});
const roleFields = {
  name: 'Unique name, whatever its case.',
  description: 'Free text.',
  type: '`root-custom` for a custom root role; anything else makes a custom project role.',
  permissions: 'Its permissions.',
};
const CreateRoleInput = zodInput('CreateRoleInput', roleSchema, { description: 'A new custom role.', descriptions: roleFields });
const UpdateRoleInput = zodInput('UpdateRoleInput', roleSchema, {
  description: 'A custom role, replaced whole.',
  descriptions: roleFields,
  fields: (t) => ({ id: t.int({ required: true, description: 'The role to change.' }) }),
});

const RoleWithVersionRef = builder.objectRef<RoleSaved>('RoleWithVersion').implement({
  description: 'A role written by createRole or updateRole, as REST answers it.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Format version (1).' }),
    role: t.field({ type: RoleRef, description: 'The role.', resolve: (r) => r.roles }),
  }),
});
builder.mutationFields((t) => ({
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
