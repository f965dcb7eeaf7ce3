import { z } from 'zod';
import { named, timestamp } from '../shapes';

/** What both doors answer for personal access tokens (src/domain/shapes.ts says how shapes are used). */

const id = z.number().int();

/** A personal access token as listed: never its secret, which only the create answer carries, once. */
export const PersonalAccessToken = named('PersonalAccessToken', z.object({
  id,
  description: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
  seenAt: timestamp.nullable(),
}), 'A personal access token of the caller, without its secret.');
export type PersonalAccessToken = z.output<typeof PersonalAccessToken>;

export const PersonalAccessTokenCreated = PersonalAccessToken.extend({ secret: z.string() });
export type PersonalAccessTokenCreated = z.output<typeof PersonalAccessTokenCreated>;
