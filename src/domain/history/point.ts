import { z } from 'zod';
import { ValidationError } from '../errors';
import { isDate } from '../dates';
import type { HistoryReadModel, Point } from './history.read-model';

/** `at` (RFC 3339) or `revision` (a `model_version`): which past a read describes. */
export const pointSchema = z.object({
  at: z.string().max(40).refine(isDate, { message: 'must be an ISO 8601 date-time' }).optional()
    .describe('An instant (ISO 8601): what was committed at or before it'),
  revision: z.string().max(20).regex(/^\d+$/, { message: 'must be a whole number' }).optional()
    .describe('A revision (the counter SDK answers carry): what was committed up to it'),
});
export type PointInput = z.infer<typeof pointSchema>;

/** The point an input names (undefined: none, the present), refused when both are given. */
export function pointOf(input: PointInput): Point | undefined {
  if (input.at !== undefined && input.revision !== undefined) throw ValidationError.single('at', 'Give `at` or `revision`, not both.');
  if (input.at !== undefined) return { at: new Date(input.at) };
  if (input.revision !== undefined) return { revision: input.revision };
  return undefined;
}

/** Refuses an instant before what history keeps (ValidationError on `at`): an answer for it would be made up. */
export async function checkKept(read: HistoryReadModel, point: Point): Promise<void> {
  if (!('at' in point)) return;
  const since = await read.horizon();
  if (since && point.at < since) {
    throw ValidationError.single('at', `History starts at ${since.toISOString()}: nothing earlier is kept.`);
  }
}
