import { z } from 'zod';
import { ValidationError } from '../errors';
import { dependencyPayloadSchema } from '../features/feature.schemas';
import { strategyPayloadSchemas } from '../features/feature-strategy.schemas';
import { featureVariantsSchema } from '../features/variants';
import { segmentPayloadSchema } from '../segments/segment.service';
import { CHANGE_REQUEST_STATES } from './change-request-states';

/** The inputs of change requests: their zod schemas, and the permission each kind of change needs. */

export const stateSchema = z.object({
  state: z.enum(CHANGE_REQUEST_STATES),
  comment: z.string().trim().min(1).max(10_000).optional(),
  scheduledAt: z.iso.datetime({ offset: true }).optional(),
}).strict();

const featureRef = z.string().min(1).max(100);
const segmentId = z.number().int().min(1).max(2_147_483_647);
const empty = z.object({}).strict().optional();

/** One change, validated as its action's own shape (spec endpoint 9's table). */
export const changeSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('updateEnabled'), feature: featureRef, payload: z.object({ enabled: z.boolean(), shouldActivateDisabledStrategies: z.boolean().optional() }).strict() }).strict(),
  z.object({ action: z.literal('addStrategy'), feature: featureRef, payload: strategyPayloadSchemas.create }).strict(),
  z.object({ action: z.literal('updateStrategy'), feature: featureRef, payload: strategyPayloadSchemas.update.extend({ id: z.string().min(1).max(100) }) }).strict(),
  z.object({ action: z.literal('deleteStrategy'), feature: featureRef, payload: z.object({ id: z.string().min(1).max(100) }).strict() }).strict(),
  z.object({ action: z.literal('archiveFeature'), feature: featureRef, payload: empty }).strict(),
  z.object({ action: z.literal('patchVariant'), feature: featureRef, payload: z.object({ variants: featureVariantsSchema }).strict() }).strict(),
  z.object({ action: z.literal('reorderStrategy'), feature: featureRef, payload: strategyPayloadSchemas.sortOrder }).strict(),
  z.object({ action: z.literal('addDependency'), feature: featureRef, payload: dependencyPayloadSchema }).strict(),
  z.object({ action: z.literal('deleteDependency'), feature: featureRef, payload: empty }).strict(),
  z.object({ action: z.literal('updateSegment'), payload: segmentPayloadSchema.extend({ id: segmentId }) }).strict(),
  z.object({ action: z.literal('deleteSegment'), payload: z.object({ id: segmentId }).strict() }).strict(),
]);
export type ChangeInput = z.output<typeof changeSchema>;


/** An unknown or missing `action` named as such (the union alone would report it without a path). */
export function checkActions(input: unknown): void {
  const items = Array.isArray(input) ? input : [input];
  items.forEach((item, i) => {
    const action = item !== null && typeof item === 'object' ? (item as { action?: unknown }).action : undefined;
    if (typeof action !== 'string' || !Object.hasOwn(CHANGE_PERMISSIONS, action)) {
      throw ValidationError.single(Array.isArray(input) ? `${i}/action` : 'action', `The \`action\` must be one of ${Object.keys(CHANGE_PERMISSIONS).join(', ')}.`);
    }
  });
}

export const changeListSchema = z.array(changeSchema).min(1).max(100);
export const titleSchema = z.object({ title: z.string().trim().min(1).max(255) }).strict();
export const commentSchema = z.object({ text: z.string().trim().min(1).max(10_000) }).strict();

/** The permission the change itself would need if made directly: a request may only propose what its author may do. */
export const CHANGE_PERMISSIONS: Record<ChangeInput['action'], { permission: string; environment: boolean; root?: boolean }> = {
  updateEnabled: { permission: 'UPDATE_FEATURE_ENVIRONMENT', environment: true },
  addStrategy: { permission: 'CREATE_FEATURE_STRATEGY', environment: true },
  updateStrategy: { permission: 'UPDATE_FEATURE_STRATEGY', environment: true },
  reorderStrategy: { permission: 'UPDATE_FEATURE_STRATEGY', environment: true },
  deleteStrategy: { permission: 'DELETE_FEATURE_STRATEGY', environment: true },
  patchVariant: { permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', environment: true },
  archiveFeature: { permission: 'DELETE_FEATURE', environment: false },
  addDependency: { permission: 'UPDATE_FEATURE_DEPENDENCY', environment: false },
  deleteDependency: { permission: 'UPDATE_FEATURE_DEPENDENCY', environment: false },
  updateSegment: { permission: 'UPDATE_SEGMENT', environment: false, root: true },
  deleteSegment: { permission: 'DELETE_SEGMENT', environment: false, root: true },
};
