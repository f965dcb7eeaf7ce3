import { z } from 'zod';
import { named } from './describe';

/**
 * Answer shapes several route groups share. Each is registered by name, so the reference shows it once under
 * `components.schemas` and refers to it. Objects are closed (the document says `additionalProperties: false`): a field
 * the service sends that is not written here fails the e2e suite's response check.
 */

export const Tag = named('Tag', z.object({ type: z.string(), value: z.string() }));

export const TagType = named('TagType', z.object({ name: z.string(), description: z.string().nullable(), icon: z.string().nullable() }));
