import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** SDK applications (migration 0016): one row per application name, made by its first registration or report. */
export const ClientApplicationSchema = defineEntity({
  name: 'ClientApplication',
  tableName: 'client_applications',
  properties: {
    appName: p.text().primary(),
    description: p.text().nullable(),
    url: p.text().nullable(),
    color: p.text().nullable(),
    icon: p.text().nullable(),
    strategies: p.json<string[]>().default('[]'),
    createdBy: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
    seenAt: p.datetime().nullable(),
  },
});
export type ClientApplicationRow = InferEntity<typeof ClientApplicationSchema>;

/** Running SDKs (migration 0016): one row per application, environment and instance id. */
export const ClientInstanceSchema = defineEntity({
  name: 'ClientInstance',
  tableName: 'client_instances',
  properties: {
    appName: p.text().primary(),
    environment: p.text().primary(),
    instanceId: p.text().primary(),
    sdkVersion: p.text().nullable(),
    clientIp: p.text().nullable(),
    startedAt: p.datetime().nullable(),
    // int8, as text: node-postgres returns int8 as a string (no type parser is set for it), and so does a raw select,
    // which TableRow<ClientInstanceRow> describes.
    intervalMs: p.bigint('string').nullable(),
    projects: p.json<string[]>().default('["*"]'),
    createdAt: p.datetime().defaultRaw('now()'),
    seenAt: p.datetime().defaultRaw('now()'),
  },
});
export type ClientInstanceRow = InferEntity<typeof ClientInstanceSchema>;
