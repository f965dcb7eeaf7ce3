import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The project roles users hold (migration 0005): one row per role, user and project. */
export const RoleUserSchema = defineEntity({
  name: 'RoleUser',
  tableName: 'role_user',
  properties: {
    roleId: p.integer().primary(),
    userId: p.integer().primary(),
    project: p.text().primary(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type RoleUserRow = InferEntity<typeof RoleUserSchema>;

/** The project roles groups hold (migration 0005): one row per group, role and project. */
export const GroupRoleSchema = defineEntity({
  name: 'GroupRole',
  tableName: 'group_role',
  properties: {
    groupId: p.integer().primary(),
    roleId: p.integer().primary(),
    project: p.text().primary(),
    createdBy: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type GroupRoleRow = InferEntity<typeof GroupRoleSchema>;
