import { z } from 'zod';
import { named } from '../shapes';

/** What both doors answer for tags and tag types (src/domain/shapes.ts says how shapes are used). */

export const Tag = named('Tag', z.object({ type: z.string(), value: z.string() }));
export type Tag = z.output<typeof Tag>;

export const TagType = named('TagType', z.object({ name: z.string(), description: z.string().nullable(), icon: z.string().nullable() }));
export type TagType = z.output<typeof TagType>;
