import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const EventSchema = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    type: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
    createdBy: p.text(),
    createdByUserId: p.integer().nullable(),
    project: p.text().nullable(),
    environment: p.text().nullable(),
    featureName: p.text().nullable(),
    data: p.json<unknown>().nullable(),
    preData: p.json<unknown>().nullable(),
    tags: p.json<Array<{ type: string; value: string }>>().default('[]'),
  },
});
export type EventRow = InferEntity<typeof EventSchema>;
