import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { Group } from './group.shapes';
import { Role } from './role.shapes';
import { User } from './user.shapes';

/** What both doors answer for who holds which roles in a project (src/domain/shapes.ts says how shapes are used). */

const id = z.number().int();

/** A user holding roles in the project directly: when it got the first, the first (`roleId`) and all of them. */
const ProjectAccessUser = User.extend({ addedAt: timestamp, roleId: id, roles: z.array(id) });
export type ProjectAccessUser = z.output<typeof ProjectAccessUser>;

/** A group holding roles in the project, with its members (their count is not shown here). */
const ProjectAccessGroup = Group.omit({ userCount: true }).extend({ createdAt: timestamp.nullable(), addedAt: timestamp, roleId: id, roles: z.array(id) });
export type ProjectAccessGroup = z.output<typeof ProjectAccessGroup>;

export const ProjectAccess = named('ProjectAccess', z.object({
  roles: z.array(Role),
  users: z.array(ProjectAccessUser),
  groups: z.array(ProjectAccessGroup),
}), 'Who holds which project roles in a project: `roles` are the project roles there are, `users` and `groups` those who hold some here (`roleId` is the first of their `roles`).');
export type ProjectAccess = z.output<typeof ProjectAccess>;
