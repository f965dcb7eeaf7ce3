import { z } from 'zod';
import { named, timestamp } from '../shapes';

/** What both doors answer for context fields (src/domain/shapes.ts says how shapes are used). */

export const LegalValue = named('LegalValue', z.object({ value: z.string(), description: z.string().optional() }));
export type LegalValue = z.output<typeof LegalValue>;

export const ContextField = named('ContextField', z.object({
  name: z.string(),
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number().int(),
  legalValues: z.array(LegalValue),
  createdAt: timestamp,
  usedInFeatures: z.number().int(),
  usedInProjects: z.number().int(),
}));
export type ContextField = z.output<typeof ContextField>;
