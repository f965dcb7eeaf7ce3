import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Yes/no counts per feature, application, environment and hour (migration 0016), added to by every flush. The counts
 * are int8, read as text: node-postgres returns int8 as a string (no type parser is set for it), and so does a raw
 * select, which TableRow<ClientMetricsHourlyRow> describes.
 */
export const ClientMetricsHourlySchema = defineEntity({
  name: 'ClientMetricsHourly',
  tableName: 'client_metrics_hourly',
  properties: {
    featureName: p.text().primary(),
    appName: p.text().primary(),
    environment: p.text().primary(),
    hour: p.datetime().primary(),
    yes: p.bigint('string').default(0),
    no: p.bigint('string').default(0),
  },
});
export type ClientMetricsHourlyRow = InferEntity<typeof ClientMetricsHourlySchema>;

/** The variant counts of those hours (migration 0016); `count` is int8, read as text like the counts above. */
export const ClientMetricsHourlyVariantSchema = defineEntity({
  name: 'ClientMetricsHourlyVariant',
  tableName: 'client_metrics_hourly_variants',
  properties: {
    featureName: p.text().primary(),
    appName: p.text().primary(),
    environment: p.text().primary(),
    hour: p.datetime().primary(),
    variant: p.text().primary(),
    count: p.bigint('string').default(0),
  },
});
export type ClientMetricsHourlyVariantRow = InferEntity<typeof ClientMetricsHourlyVariantSchema>;
