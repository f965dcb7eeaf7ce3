import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import { FEATURE_COLUMNS, toFeatureSummary } from '../features/feature.read-model';
import type { FeatureSummary } from '../features/feature.shapes';
import type { StrategyDefinition } from '../strategies/strategy-definition.shapes';
import type { TableRow } from '../rows';
import { ClientInstanceSchema, type ClientApplicationRow, type ClientInstanceRow } from './application.entity';
import type { ClientMetricsHourlyRow } from './client-metrics.entity';
import type { Application, ApplicationInstance, ApplicationUsage } from './application.shapes';
import { SEEN_HOURS } from './client-metrics.read-model';

/**
 * Applications and their instances as stored (migration 0016) and as both doors return them (Unleash's shapes): the
 * rows, their mapping, and the reads of the applications views.
 */

/** An application's row as `APPLICATION_COLUMNS` read it. */
export type ApplicationDbRow = Pick<TableRow<ClientApplicationRow>,
  'app_name' | 'description' | 'url' | 'color' | 'icon' | 'strategies' | 'created_by' | 'created_at' | 'updated_at' | 'seen_at'>;

export const APPLICATION_COLUMNS = 'app_name, description, url, color, icon, strategies, created_by, created_at, updated_at, seen_at';

export function toApplication(r: ApplicationDbRow, usage: ApplicationUsage[] = []): Application {
  return {
    appName: r.app_name,
    description: r.description,
    url: r.url,
    color: r.color,
    icon: r.icon,
    strategies: r.strategies ?? [],
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    createdBy: r.created_by,
    lastSeen: isoOrNull(r.seen_at),
    usage,
  };
}

export function toInstance(r: ClientInstanceRow): ApplicationInstance {
  return {
    appName: r.appName,
    instanceId: r.instanceId,
    environment: r.environment,
    sdkVersion: r.sdkVersion ?? null,
    clientIp: r.clientIp ?? null,
    started: isoOrNull(r.startedAt),
    interval: r.intervalMs === null || r.intervalMs === undefined ? null : Number(r.intervalMs),
    createdAt: iso(r.createdAt),
    lastSeen: iso(r.seenAt),
  };
}

/** The `data` of an `application-created` event: the application as it was created. */
export function applicationCreatedData(r: ApplicationDbRow) {
  const { usage: _usage, lastSeen: _lastSeen, ...rest } = toApplication(r);
  return rest;
}

/** Every application by name, or those whose SDKs implement a strategy (Unleash's `strategyName` filter). */
export async function applicationRows(em: EntityManager, strategyName?: string): Promise<ApplicationDbRow[]> {
  return strategyName === undefined
    ? em.execute(`select ${APPLICATION_COLUMNS} from client_applications order by app_name`)
    : em.execute(`select ${APPLICATION_COLUMNS} from client_applications where jsonb_exists(strategies, ?) order by app_name`, [strategyName]);
}

/** Instances of applications, by application, newest report first. */
export async function instancesOf(em: EntityManager, appNames: readonly string[]): Promise<Map<string, ApplicationInstance[]>> {
  const out = new Map<string, ApplicationInstance[]>();
  if (appNames.length === 0) return out;
  // Instances are written by SQL (registrations, metrics flushes): read afresh, never from the identity map.
  const rows = await em.find(ClientInstanceSchema, { appName: { $in: [...appNames] } }, {
    orderBy: [{ appName: 'asc' }, { seenAt: 'desc' }, { environment: 'asc' }, { instanceId: 'asc' }], disableIdentityMap: true,
  });
  for (const r of rows) {
    const list = out.get(r.appName) ?? [];
    list.push(toInstance(r));
    out.set(r.appName, list);
  }
  return out;
}

/** The features each application reported in the last day, by name. */
export async function seenFeaturesOf(em: EntityManager, appNames: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (appNames.length === 0) return out;
  const rows: Array<Pick<TableRow<ClientMetricsHourlyRow>, 'app_name' | 'feature_name'>> = await em.execute(
    `select distinct app_name, feature_name from client_metrics_hourly
      where app_name in (?) and hour >= now() - make_interval(hours => ?) order by app_name, feature_name`, [[...appNames], SEEN_HOURS]);
  for (const r of rows) out.set(r.app_name, [...(out.get(r.app_name) ?? []), r.feature_name]);
  return out;
}

/** Which projects each application's instances read, per environment (from their tokens). */
export async function usageOf(em: EntityManager, appNames: readonly string[]): Promise<Map<string, ApplicationUsage[]>> {
  const out = new Map<string, ApplicationUsage[]>();
  if (appNames.length === 0) return out;
  const rows: Array<Pick<TableRow<ClientInstanceRow>, 'app_name'> & { project: string; environments: string[] }> = await em.execute(
    `select ci.app_name, p.project, array_agg(distinct ci.environment order by ci.environment) as environments
       from client_instances ci cross join lateral jsonb_array_elements_text(ci.projects) as p(project)
      where ci.app_name in (?) group by ci.app_name, p.project order by ci.app_name, p.project`, [[...appNames]]);
  for (const r of rows) out.set(r.app_name, [...(out.get(r.app_name) ?? []), { project: r.project, environments: r.environments }]);
  return out;
}

/** The active features of these names (the features an application was seen using that still exist). */
export async function activeFeatureSummaries(em: EntityManager, names: readonly string[]): Promise<FeatureSummary[]> {
  return (await em.execute<Array<Parameters<typeof toFeatureSummary>[0]>>(
    `select ${FEATURE_COLUMNS} from features where name in (?) and archived_at is null`, [names])).map(toFeatureSummary);
}
