import { z } from 'zod';
import { named, timestamp } from '../shapes';

/** What both doors answer for users and the caller (src/domain/shapes.ts says how shapes are used). */

const id = z.number().int();

/** A user as both doors return it. The password hash never reaches one. */
export const User = named('User', z.object({
  id,
  isAPI: z.boolean(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  imageUrl: z.string(),
  inviteLink: z.string(),
  loginAttempts: z.number().int(),
  emailSent: z.boolean(),
  rootRole: id,
  seenAt: timestamp.nullable(),
  createdAt: timestamp,
  accountType: z.string(),
  permissions: z.array(z.string()),
}), 'A user. `isAPI` and `permissions` are deprecated (kept for Unleash clients): `permissions` is always empty and `isAPI` is true only in `GET /api/admin/user` answered to an API token. `inviteLink` is set only in the answer that creates the user ("" elsewhere). `email` or `username` may be null, never both.');
export type User = z.output<typeof User>;

/** A permission the caller holds, and where: absent `project` and `environment` mean everywhere. */
const HeldPermission = z.object({ permission: z.string(), project: z.string().optional(), environment: z.string().optional() });
export type HeldPermission = z.output<typeof HeldPermission>;

/** The caller (`GET /api/admin/user`): the user and every permission it holds, with where. */
export const UserProfile = named('UserProfile', z.object({
  user: User,
  feedback: z.array(z.unknown()),
  splash: z.record(z.string(), z.boolean()),
  permissions: z.array(HeldPermission),
}), 'The caller: its user (for an API token, a stand-in user with `isAPI: true`) and every permission it holds, with the project and environment where it holds it (absent: everywhere).');
export type UserProfile = z.output<typeof UserProfile>;
