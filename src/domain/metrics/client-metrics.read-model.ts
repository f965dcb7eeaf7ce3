import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import type { TableRow } from '../rows';
import type { ClientMetricsHourlyRow } from './client-metrics.entity';
import type { FeatureMetricsBucket, FeatureUsage } from './application.shapes';

/** The usage counts SDKs reported (client_metrics_hourly and its variants, migration 0016), as both doors return them. */

/** The features an application "was seen using": those it reported in the last day (Unleash). */
export const SEEN_HOURS = 24;
export const HOUR_MS = 3_600_000;

/** The counts of the last hour of a feature, summed per environment, and the applications seen using it in the last day. */
export async function featureUsage(em: EntityManager, featureName: string): Promise<FeatureUsage> {
  const rows: Array<Pick<TableRow<ClientMetricsHourlyRow>, 'environment' | 'hour' | 'yes' | 'no'>> = await em.execute(
    `select environment, min(hour) as hour, sum(yes) as yes, sum(no) as no from client_metrics_hourly
      where feature_name = ? and hour >= now() - interval '1 hour' group by environment order by environment`, [featureName]);
  const apps: Array<Pick<TableRow<ClientMetricsHourlyRow>, 'app_name'>> = await em.execute(
    `select distinct app_name from client_metrics_hourly where feature_name = ? and hour >= now() - make_interval(hours => ?) order by app_name`,
    [featureName, SEEN_HOURS]);
  return {
    featureName,
    lastHourUsage: rows.map((r) => ({ environment: r.environment, timestamp: iso(r.hour), yes: Number(r.yes), no: Number(r.no) })),
    seenApplications: apps.map((a) => a.app_name),
  };
}

/**
 * The hourly counts of features from the hour starting at `from` to the one starting at `currentHour` (epoch ms): for
 * every environment and application that reported the feature in that time, one bucket per hour (hours without reports
 * count 0), ordered by hour. One statement for any number of features.
 */
export async function featureMetricsBuckets(em: EntityManager, featureNames: readonly string[], from: number, currentHour: number): Promise<Map<string, FeatureMetricsBucket[]>> {
  const out = new Map<string, FeatureMetricsBucket[]>();
  const rows: Array<Pick<TableRow<ClientMetricsHourlyRow>, 'feature_name' | 'app_name' | 'environment' | 'hour' | 'yes' | 'no'> & { variants: Record<string, string> | null }> = await em.execute(
    `select m.feature_name, m.app_name, m.environment, m.hour, m.yes, m.no,
            (select jsonb_object_agg(v.variant, v.count order by v.variant) from client_metrics_hourly_variants v
              where v.feature_name = m.feature_name and v.app_name = m.app_name and v.environment = m.environment and v.hour = m.hour) as variants
       from client_metrics_hourly m
      where m.feature_name in (?) and m.hour >= ?
      order by m.feature_name, m.environment, m.app_name, m.hour`,
    [[...featureNames], iso(from)]);
  const byFeature = new Map<string, typeof rows>();
  for (const r of rows) byFeature.set(r.feature_name, [...(byFeature.get(r.feature_name) ?? []), r]);
  for (const [featureName, list] of byFeature) {
    const counted = new Map(list.map((r) => [`${r.environment}\u0000${r.app_name}\u0000${new Date(r.hour).getTime()}`, r]));
    const environments = [...new Set(list.map((r) => r.environment))];
    // Unleash shows at most 100 applications per feature.
    const apps = [...new Set(list.map((r) => r.app_name))].slice(0, 100);
    const buckets: FeatureMetricsBucket[] = [];
    for (let hour = from; hour <= currentHour; hour += HOUR_MS) {
      for (const environment of environments) {
        for (const appName of apps) {
          const r = counted.get(`${environment}\u0000${appName}\u0000${hour}`);
          buckets.push({
            featureName, appName, environment, timestamp: iso(hour),
            yes: r ? Number(r.yes) : 0, no: r ? Number(r.no) : 0,
            variants: Object.fromEntries(Object.entries(r?.variants ?? {}).map(([k, v]) => [k, Number(v)])),
          });
        }
      }
    }
    out.set(featureName, buckets);
  }
  return out;
}
