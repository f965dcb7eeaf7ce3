import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Groups (migration 0005); names unique case-insensitively (an expression index). */
export const GroupSchema = defineEntity({
  name: 'Group',
  tableName: 'groups',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    description: p.text().nullable(),
    mappingsSso: p.array().default([]),
    rootRoleId: p.integer().nullable(),
    createdBy: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type GroupRow = InferEntity<typeof GroupSchema>;

/** A group's members (migration 0005). */
export const GroupUserSchema = defineEntity({
  name: 'GroupUser',
  tableName: 'group_user',
  properties: {
    groupId: p.integer().primary(),
    userId: p.integer().primary(),
    createdBy: p.text().nullable(),
    joinedAt: p.datetime().defaultRaw('now()'),
  },
});
export type GroupUserRow = InferEntity<typeof GroupUserSchema>;
