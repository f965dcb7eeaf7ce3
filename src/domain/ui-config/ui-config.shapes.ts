import { z } from 'zod';
import { named } from '../shapes';

/**
 * What Unleash's admin UI and tools read from `GET /api/admin/ui-config` (Unleash v5.8's `uiConfigSchema`), as far as
 * this service has it: no field is made up to look like Unleash's (src/domain/shapes.ts says how shapes are used).
 * `versionInfo.current.oss` is the version; no update check is made, so `latest` is empty and `isLatest` true.
 * `authenticationType` `open-source` is Unleash's built-in username/password login, which is ours (the 401 body says
 * `type: "password"`). There are no UI flags and no maintenance mode; password sign-in is always available; no mail is
 * sent (password reset and invite links are handed to the administrator instead).
 */
export const UiConfig = named('UiConfig', z.object({
  version: z.string().describe('The version of this service'),
  versionInfo: z.object({ current: z.object({ oss: z.string() }), latest: z.object({}), isLatest: z.boolean() }),
  authenticationType: z.literal('open-source').describe('Built-in username and password sign-in (POST /auth/simple/login)'),
  baseUriPath: z.string().describe("The path of PUBLIC_URL ('' at the root)"),
  unleashUrl: z.string().describe('PUBLIC_URL'),
  flags: z.record(z.string(), z.boolean()),
  slogan: z.string(),
  name: z.string(),
  environment: z.string(),
  disablePasswordAuth: z.boolean(),
  emailEnabled: z.boolean(),
  maintenanceMode: z.boolean(),
  strategySegmentsLimit: z.number().int().describe('Most segments one strategy may use'),
}), 'What Unleash clients and admin tools read first');
export type UiConfig = z.output<typeof UiConfig>;
