import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The permissions (migration 0001; rows from the seed, ids fixed by the code's list: not a serial). */
export const PermissionSchema = defineEntity({
  name: 'Permission',
  tableName: 'permissions',
  properties: {
    id: p.integer().primary().autoincrement(false),
    name: p.text().unique('permissions_name_key'),
    displayName: p.text(),
    type: p.text(),
  },
});
export type PermissionRow = InferEntity<typeof PermissionSchema>;

/** Root and project roles (migration 0001; names unique case-insensitively from 0007, an expression index). */
export const RoleSchema = defineEntity({
  name: 'Role',
  tableName: 'roles',
  properties: {
    id: p.integer().primary(),
    name: p.text().unique('roles_name_key'),
    type: p.text(),
    description: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type RoleRow = InferEntity<typeof RoleSchema>;

/**
 * A role's permissions, each for every environment (`environment` null) or one. The table has no primary key: a row is
 * unique by (role, permission, environment) through an expression index (`coalesce(environment, '')`). MikroORM needs
 * a primary key, so the entity names those three columns; read and write the table with SQL, never through the ORM's
 * identity map (a null environment is no key to it). test/e2e/entities.test.ts knows this exception.
 */
export const RolePermissionSchema = defineEntity({
  name: 'RolePermission',
  tableName: 'role_permissions',
  properties: {
    roleId: p.integer().primary(),
    permission: p.text().primary(),
    environment: p.text().nullable().primary(),
  },
});
export type RolePermissionRow = InferEntity<typeof RolePermissionSchema>;
