import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const TagTypeSchema = defineEntity({
  name: 'TagType',
  tableName: 'tag_types',
  properties: {
    name: p.text().primary(),
    description: p.text().nullable(),
    icon: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export type TagTypeRow = InferEntity<typeof TagTypeSchema>;

export const TagSchema = defineEntity({
  name: 'Tag',
  tableName: 'tags',
  properties: {
    type: p.text().primary(),
    value: p.text().primary(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export type TagRow = InferEntity<typeof TagSchema>;
