import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { User } from './user.shapes';

/** What both doors answer for public signup tokens (src/domain/shapes.ts says how shapes are used). */

const id = z.number().int();

export const SignupToken = named('SignupToken', z.object({
  secret: z.string(),
  url: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  expiresAt: timestamp,
  createdAt: timestamp,
  createdBy: z.string().nullable(),
  users: z.array(User),
  role: z.object({ id, name: z.string(), type: z.string(), description: z.string().nullable() }),
}), 'A public signup token (invite link): whoever holds `url` signs up with `role` while it is enabled and not expired. `enabled` is false for an expired token.');
export type SignupToken = z.output<typeof SignupToken>;
