import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Users (migration 0005). Username and e-mail are unique case-insensitively (expression indexes the migrations make),
 * and at least one of them is set (a check constraint).
 */
export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary(),
    name: p.text().nullable(),
    username: p.text().nullable(),
    email: p.text().nullable(),
    imageUrl: p.text().nullable(),
    passwordHash: p.text().nullable(),
    loginAttempts: p.integer().default(0),
    emailSent: p.boolean().default(false),
    accountType: p.enum(['User', 'Service Account']).default('User'),
    rootRoleId: p.integer(),
    seenAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type UserRow = InferEntity<typeof UserSchema>;

/**
 * Every user's username and e-mail, lower-cased, in one namespace (migration 0020): a trigger on `users` keeps it, so
 * a name resolves to at most one user.
 */
export const UserLoginNameSchema = defineEntity({
  name: 'UserLoginName',
  tableName: 'user_login_names',
  properties: {
    name: p.text().primary(),
    userId: p.integer(),
    property: p.enum(['username', 'email']),
  },
});
export type UserLoginNameRow = InferEntity<typeof UserLoginNameSchema>;
