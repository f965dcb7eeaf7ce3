import { z } from 'zod';
import { createTagTypeSchema, tagSchema, updateTagTypeSchema, validateTagTypeSchema } from '../../../domain/tags/tag.service';
import { version1, type RouteDocs } from '../describe';
import { Tag, TagType } from '../../../domain/tags/tag.shapes';

const tag = 'Tags';

export const TAG_DOCS: RouteDocs = {
  'GET /api/admin/tag-types': { tag, summary: 'List tag types', responses: { 200: z.object({ version: version1, tagTypes: z.array(TagType) }) } },
  'POST /api/admin/tag-types/validate': {
    tag, summary: 'Check that a tag type name is valid and free', body: validateTagTypeSchema,
    responses: { 200: z.object({ valid: z.literal(true) }) }, errors: ['NameExistsError'],
  },
  'POST /api/admin/tag-types': { tag, summary: 'Create a tag type', body: createTagTypeSchema, responses: { 201: TagType }, errors: ['NameExistsError'] },
  'GET /api/admin/tag-types/:name': { tag, summary: 'Get a tag type', responses: { 200: z.object({ version: version1, tagType: TagType }) } },
  'PUT /api/admin/tag-types/:name': { tag, summary: 'Update a tag type’s description and icon', body: updateTagTypeSchema, responses: { 200: TagType } },
  'DELETE /api/admin/tag-types/:name': { tag, summary: 'Delete a tag type (and its tags)', responses: { 200: null } },
  'GET /api/admin/tags': { tag, summary: 'List all tags', responses: { 200: z.object({ version: version1, tags: z.array(Tag) }) } },
  'GET /api/admin/tags/:type': { tag, summary: 'List the tags of a type', responses: { 200: z.object({ version: version1, tags: z.array(Tag) }) } },
  'GET /api/admin/tags/:type/:value': { tag, summary: 'Get a tag', responses: { 200: z.object({ version: version1, tag: Tag }) } },
  'POST /api/admin/tags': { tag, summary: 'Create a tag', body: tagSchema, responses: { 201: z.object({ version: version1, tag: Tag }) }, errors: ['NameExistsError'] },
  'DELETE /api/admin/tags/:type/:value': { tag, summary: 'Delete a tag', responses: { 200: null } },
};
