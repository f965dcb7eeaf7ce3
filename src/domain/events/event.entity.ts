import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Tag } from '../tags/tag.shapes';

/** The audit log (migration 0001). */
export const EventSchema = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    // bigserial: node-postgres returns int8 as text (no type parser is set for it), so the entity reads it as a
    // string too, and TableRow<EventRow> says what a raw select returns.
    id: p.bigint('string').primary().autoincrement(),
    type: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
    createdBy: p.text(),
    createdByUserId: p.integer().nullable(),
    project: p.text().nullable(),
    environment: p.text().nullable(),
    featureName: p.text().nullable(),
    data: p.json<unknown>().nullable(),
    preData: p.json<unknown>().nullable(),
    tags: p.json<Tag[]>().default('[]'),
    /** The writing transaction (migration 0024): the versions it recorded have the same (src/domain/history). */
    txid: p.string().columnType('xid8').runtimeType('string').nullable().defaultRaw('pg_current_xact_id()'),
    /** Set on the events of a revert: the flag and version it brought back. */
    revertOf: p.json<{ featureName: string; version: number; eventId?: number }>().nullable(),
  },
});
export type EventRow = InferEntity<typeof EventSchema>;
