import { z } from 'zod';
import { named, timestamp } from '../shapes';

/** What both doors answer for API tokens (src/domain/shapes.ts says how shapes are used). */

const id = z.number().int();

/** An API token as listed (as Unleash's apiTokenSchema), never with its secret. */
export const ApiToken = named('ApiToken', z.object({
  id,
  tokenName: z.string(),
  username: z.string(),
  type: z.enum(['client', 'admin', 'frontend']),
  environment: z.string(),
  project: z.string(),
  projects: z.array(z.string()),
  expiresAt: timestamp.nullable(),
  createdAt: timestamp,
  seenAt: timestamp.nullable(),
  alias: z.null(),
}), 'An API token, without its secret. `username` repeats `tokenName`; `project` is the one project (or `*`), `[]` when there are several (see `projects`).');
export type ApiToken = z.output<typeof ApiToken>;

/** The token as created: with its secret, shown this once. */
export const ApiTokenCreated = ApiToken.extend({ secret: z.string() });
export type ApiTokenCreated = z.output<typeof ApiTokenCreated>;
