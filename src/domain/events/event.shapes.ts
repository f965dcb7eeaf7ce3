import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { Tag } from '../tags/tag.shapes';

/** The audit event as both doors answer it (spec endpoint 8; src/domain/shapes.ts says how shapes are used). */
export const Event = named('Event', z.object({
  id: z.number().int().min(1).describe('Increases with every event'),
  type: z.string().describe('The event type (feature-created, feature-strategy-add, …)'),
  createdAt: timestamp,
  createdBy: z.string().describe('Who made the change (user name or email, or the API token’s name)'),
  createdByUserId: z.number().int().nullable(),
  project: z.string().nullable(),
  environment: z.string().nullable(),
  featureName: z.string().nullable(),
  data: z.unknown().describe('The subject after the change (its shape depends on the type), or null'),
  preData: z.unknown().describe('The subject before the change, or null'),
  tags: z.array(Tag).describe('The feature’s tags at the time of the event'),
  revertOf: z.object({
    featureName: z.string(),
    version: z.number().int().describe('The version brought back (with `eventId`: the one before that event’s change, for the parts it changed)'),
    eventId: z.number().int().optional().describe('The event whose change was undone'),
  }).optional().describe('Present on the events of a revert: what it brought back'),
}), 'An audit log entry');
export type AuditEvent = z.output<typeof Event>;
