import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { User } from './user.shapes';

/** What both doors answer for groups (src/domain/shapes.ts says how shapes are used). */

const id = z.number().int();

export const GroupUser = named('GroupUser', z.object({
  joinedAt: timestamp,
  createdBy: z.string().nullable(),
  user: User,
}), 'A member of a group: when and by whom the user was added.');
export type GroupUser = z.output<typeof GroupUser>;

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
export type Group = z.output<typeof Group>;
