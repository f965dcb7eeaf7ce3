import { z } from 'zod';
import { description, urlFriendlyName } from '../validation';

/** The inputs of feature changes (REST bodies, GraphQL inputs and change-request payloads are parsed with these). */

const typeId = z.string().min(1).max(100);
const metadataFields = {
  type: typeId.optional(),
  description: description.nullable().optional(),
  impressionData: z.boolean().optional(),
  stale: z.boolean().optional(),
};
// "." and ".." are URL friendly characters but not addressable path segments (URLs normalise them away), as Unleash refuses them.
const featureName = urlFriendlyName(1, 100);
export const createSchema = z.object({ name: featureName, ...metadataFields }).strict();
// Clients often send back the feature they read: `name`/`project` may be repeated but must match the path.
export const updateSchema = z.object({ name: z.string().optional(), project: z.string().optional(), archived: z.boolean().optional(), ...metadataFields }).strict();
export const validateSchema = z.object({ name: featureName, projectId: z.string().min(1).max(100).optional() }).strict();
export const tagSchema = z.object({ type: urlFriendlyName(2, 50).optional(), value: z.string().trim().min(2).max(50) }).strict();
export const namesSchema = z.object({ features: z.array(z.string().min(1).max(100)).min(1).max(1000) }).strict();
export const staleSchema = z.object({ features: z.array(z.string().min(1).max(100)).min(1).max(1000), stale: z.boolean() }).strict();
export const dependencySchema = z.object({
  feature: z.string().min(1).max(100),
  enabled: z.boolean().optional(),
  variants: z.array(z.string().min(1).max(100)).max(100).optional(),
}).strict();
/** The payload of a dependency, as a change request's addDependency change carries it (issue 12). */
export const dependencyPayloadSchema = dependencySchema;
export const cloneSchema = z.object({ name: featureName, replaceGroupId: z.boolean().optional() }).passthrough();
export const lifetimeSchema = z.object({ lifetimeDays: z.number().int().min(1).max(100_000).nullable() }).strict();

export type CreateFeatureInput = z.input<typeof createSchema>;
export type UpdateFeatureInput = z.input<typeof updateSchema>;
