import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { Constraint } from '../features/constraint.shapes';

/** What both doors answer for segments (src/domain/shapes.ts says how shapes are used). */

/**
 * A segment: `description` null when none was given, `project` null for a global segment (usable by strategies of
 * every project); the usage counts are the distinct features (archived included) and projects whose strategies use it.
 */
export const Segment = named('Segment', z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  project: z.string().nullable().describe('Null for a segment every project may use'),
  constraints: z.array(Constraint),
  createdBy: z.string().nullable(),
  createdAt: timestamp,
  usedInFeatures: z.number().int(),
  usedInProjects: z.number().int(),
}));
export type Segment = z.output<typeof Segment>;

/** A strategy that uses a segment, as `GET /api/admin/segments/:id/strategies` lists it. */
export const SegmentStrategy = named('SegmentStrategy', z.object({
  id: z.string(),
  featureName: z.string(),
  projectId: z.string(),
  environment: z.string(),
  strategyName: z.string(),
}));
export type SegmentStrategy = z.output<typeof SegmentStrategy>;
