import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The log of client-visible changes (migration 0023), written only by triggers and read with SQL by
 * revision-log.store.ts. Revisions are int8 and transaction ids xid8, both read as text: node-postgres returns them as
 * strings (no type parser is set for either), and so does a raw select, which TableRow describes.
 */

/** Which transaction each revision (a value of `model_version`) is. */
export const ClientRevisionSchema = defineEntity({
  name: 'ClientRevision',
  tableName: 'client_revisions',
  properties: {
    revision: p.bigint('string').primary().autoincrement(false),
    txid: p.string().columnType('xid8').runtimeType('string'),
  },
});
export type ClientRevisionRow = InferEntity<typeof ClientRevisionSchema>;

/**
 * What each writing transaction changed: a feature (`f`, with its environment when the row is per environment, and
 * its project) or a segment (`s`). The table has no primary key (a transaction records the same change as often as it
 * makes it); MikroORM needs one, so the entity names every column. Read it with SQL, never through the ORM's identity
 * map. test/e2e/entities.test.ts knows this exception.
 */
export const ClientChangeSchema = defineEntity({
  name: 'ClientChange',
  tableName: 'client_changes',
  properties: {
    txid: p.string().columnType('xid8').runtimeType('string').primary().defaultRaw('pg_current_xact_id()'),
    kind: p.enum(['f', 's']).columnType('char(1)').primary(),
    key: p.text().primary(),
    environment: p.text().nullable().primary(),
    project: p.text().nullable().primary(),
  },
});
export type ClientChangeRow = InferEntity<typeof ClientChangeSchema>;

/** The oldest revision a change set can start from (one row, id 1). */
export const ClientRevisionHorizonSchema = defineEntity({
  name: 'ClientRevisionHorizon',
  tableName: 'client_revision_horizon',
  properties: {
    id: p.integer().primary().autoincrement(false),
    revision: p.bigint('string'),
  },
});
export type ClientRevisionHorizonRow = InferEntity<typeof ClientRevisionHorizonSchema>;
