import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { AddonDeliveryAttempt } from './addon.shapes';

/**
 * Addon deliveries (migration 0012), the transactional outbox: `id` is the idempotency key receivers see, `seq` orders
 * an addon's deliveries and is the paging cursor.
 */
export const AddonDeliverySchema = defineEntity({
  name: 'AddonDelivery',
  tableName: 'addon_deliveries',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    // bigserial, as text: node-postgres returns int8 as a string (no type parser is set for it), and so does a raw
    // select, which TableRow<AddonDeliveryRow> describes.
    seq: p.bigint('string').autoincrement().unique('addon_deliveries_seq_key'),
    addonId: p.integer(),
    // int8, as text (see `seq`).
    eventId: p.bigint('string'),
    status: p.enum(['pending', 'delivered', 'failed', 'skipped']).default('pending'),
    attemptCount: p.integer().default(0),
    attempts: p.json<AddonDeliveryAttempt[]>().default('[]'),
    nextAttemptAt: p.datetime().defaultRaw('now()'),
    claim: p.uuid().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    finishedAt: p.datetime().nullable(),
    redeliveryOf: p.uuid().nullable(),
  },
});
export type AddonDeliveryRow = InferEntity<typeof AddonDeliverySchema>;
