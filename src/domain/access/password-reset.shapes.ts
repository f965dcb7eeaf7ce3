import { z } from 'zod';
import { named } from '../shapes';
import { Role } from './role.shapes';

/** What the public side of reset and invite links answers (src/domain/shapes.ts says how shapes are used). */

const id = z.number().int();

/** The answer of GET /auth/reset/validate: the user the link belongs to, who asked for it, and their root role. */
export const TokenUser = named('TokenUser', z.object({
  id,
  name: z.string().nullable(),
  email: z.string(),
  token: z.string(),
  createdBy: z.string().nullable(),
  role: Role,
}), 'The user a password reset or invite link belongs to, with their root role. `email` is "" for a user who has only a username.');
export type TokenUser = z.output<typeof TokenUser>;
