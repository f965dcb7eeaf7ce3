import { z } from 'zod';
import { named } from '../shapes';

/** What both doors answer for roles and permissions (src/domain/shapes.ts says how shapes are used). */

const id = z.number().int();
/** `version: 1`, as Unleash's answers carry it. */
const version1 = z.literal(1);

export const Role = named('Role', z.object({
  id,
  name: z.string(),
  type: z.string(),
  description: z.string(),
}), 'A role: `root` and `root-custom` roles hold everywhere, `project` and `custom` roles in the projects they are given in.');
export type Role = z.output<typeof Role>;

/** A permission as the listing shows it; environment permissions in `environments` carry their environment. */
export const Permission = named('Permission', z.object({
  id,
  name: z.string(),
  displayName: z.string(),
  type: z.string(),
  environment: z.string().optional(),
}), 'A permission: `type` is root, project or environment; `environment` names the environment of an environment permission where it is held in one.');
export type Permission = z.output<typeof Permission>;

export const RoleWithPermissions = named('RoleWithPermissions', Role.extend({ permissions: z.array(Permission) }));
export type RoleWithPermissions = z.output<typeof RoleWithPermissions>;

/** The environment permissions, for one environment. */
const EnvironmentPermissions = z.object({ name: z.string(), permissions: z.array(Permission) });
export type EnvironmentPermissions = z.output<typeof EnvironmentPermissions>;

/** The permission listing (`GET /api/admin/permissions`). */
export const PermissionListing = z.object({
  version: version1,
  permissions: z.object({
    root: z.array(Permission),
    project: z.array(Permission),
    environments: z.array(EnvironmentPermissions),
  }),
});
export type PermissionListing = z.output<typeof PermissionListing>;

/** `{version: 1, roles: Role}`: what creating or changing a role answers (`roles` holds one role, as Unleash's). */
export const RoleSaved = named('RoleSaved', z.object({ version: version1, roles: Role }));
export type RoleSaved = z.output<typeof RoleSaved>;
