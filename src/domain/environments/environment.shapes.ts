import { z } from 'zod';
import { named } from '../shapes';

/** What both doors answer for environments (src/domain/shapes.ts says how shapes are used). */

export const Environment = named('Environment', z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number().int(),
}));
export type Environment = z.output<typeof Environment>;
