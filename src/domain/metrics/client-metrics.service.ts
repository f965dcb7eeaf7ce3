import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NotFoundError } from '../errors';
import { FEATURE_COLUMNS, toFeatureSummary, type FeatureSummary } from '../features/feature.read-model';
import type { StrategyDefinition } from '../strategies/strategy-definition.read-model';
import { StrategyDefinitionService } from '../strategies/strategy-definition.service';
import { description, parse } from '../validation';
import {
  APPLICATION_COLUMNS, INSTANCE_COLUMNS, applicationCreatedData, toApplication, toInstance,
  type Application, type ApplicationInstance, type ApplicationRow, type ApplicationUsage, type InstanceRow,
} from './applications';
import { MAX_NAME, parseRegistration, reportEnvironment } from './metrics-input';

/** One hour of one feature's use by one application in one environment (Unleash's raw feature metrics). */
export interface FeatureMetricsBucket {
  featureName: string;
  appName: string;
  environment: string;
  /** Start of the hour. */
  timestamp: string;
  yes: number;
  no: number;
  /** Variant name to count (only variants that were counted). */
  variants: Record<string, number>;
}

/** The last hour's use of a feature per environment, and the applications that used it in the last day. */
export interface FeatureUsage {
  featureName: string;
  lastHourUsage: Array<{ environment: string; timestamp: string; yes: number; no: number }>;
  seenApplications: string[];
}

/** An application with its instances, strategies and the features it was seen using (Unleash's application details). */
export interface ApplicationDetails {
  appName: string;
  createdAt: string;
  description: string | null;
  url: string | null;
  color: string | null;
  icon: string | null;
  strategies: Array<StrategyDefinition | { name: string; notFound: true }>;
  instances: ApplicationInstance[];
  seenToggles: Array<FeatureSummary | { name: string; notFound: true }>;
  links: { self: string };
}

/** Hours the feature metrics views look back: 1..48, 24 by default (Unleash). */
export const HOURS_BACK = { min: 1, max: 48, default: 24 } as const;
/** The features an application "was seen using": those it reported in the last day (Unleash). */
const SEEN_HOURS = 24;
const HOUR_MS = 3_600_000;

const optionalText = (max: number) => z.string().max(max).nullish();
export const updateSchema = z.object({
  appName: z.string().optional(),
  description: description.nullish(),
  url: optionalText(1000),
  color: optionalText(100),
  icon: optionalText(1000),
  strategies: z.array(z.string().max(MAX_NAME)).max(1000).optional(),
  sdkVersion: optionalText(MAX_NAME),
  announced: z.boolean().optional(),
}).strict();
export type UpdateApplicationInput = z.input<typeof updateSchema>;

const appNameSchema = z.string().min(1).max(MAX_NAME);

/**
 * Applications, their instances and the usage counts SDKs report (issue 14). Registration comes through the SDK doors
 * (`register`, as the token that calls); the rest is the admin API's views and changes of that data. Metrics reports
 * themselves do not pass through here: they are buffered by MetricsIntake and written by writeMetrics.
 */
export class ClientMetricsService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /**
   * `POST /api/client/register` and `/api/frontend/client/register`: creates or updates the application (its
   * strategies are the latest registration's) and the instance, in the environment the token decides. A new
   * application writes `application-created`, once: the unique key decides which of concurrent registrations
   * created it. Unleash writes no `client-register` event (it only tells its in-process listeners), and neither do we.
   */
  async register(input: unknown, clientIp: string): Promise<void> {
    const reg = parseRegistration(input);
    const environment = reportEnvironment(this.principal, reg.environment);
    const strategies = JSON.stringify([...new Set(reg.strategies)]);
    await change(this.em, this.principal, async (tx, emit) => {
      const created: ApplicationRow[] = await tx.execute(
        `insert into client_applications (app_name, strategies, created_by, seen_at) values (?, ?::jsonb, ?, now())
         on conflict (app_name) do nothing returning ${APPLICATION_COLUMNS}`,
        [reg.appName, strategies, this.principal.name]);
      if (created.length > 0) emit({ type: 'application-created', data: applicationCreatedData(created[0]) });
      else {
        await tx.execute(`update client_applications set strategies = ?::jsonb, seen_at = greatest(seen_at, now()),
          updated_at = case when strategies = ?::jsonb then updated_at else now() end where app_name = ?`, [strategies, strategies, reg.appName]);
      }
      await tx.execute(
        `insert into client_instances (app_name, environment, instance_id, sdk_version, client_ip, started_at, interval_ms, projects, seen_at)
         values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, now())
         on conflict (app_name, environment, instance_id) do update set sdk_version = excluded.sdk_version, client_ip = excluded.client_ip,
           started_at = excluded.started_at, interval_ms = excluded.interval_ms, projects = excluded.projects, seen_at = greatest(client_instances.seen_at, now())`,
        [reg.appName, environment, reg.instanceId, reg.sdkVersion ?? null, clientIp, reg.started.toISOString(), Math.round(reg.interval),
          JSON.stringify(this.principal.tokenProjects ?? ['*'])]);
    });
  }

  /** Every application by name, or those whose SDKs implement a strategy (Unleash's `strategyName` filter). */
  async listApplications(strategyName?: string): Promise<Application[]> {
    const rows: ApplicationRow[] = strategyName === undefined
      ? await this.em.execute(`select ${APPLICATION_COLUMNS} from client_applications order by app_name`)
      : await this.em.execute(`select ${APPLICATION_COLUMNS} from client_applications where jsonb_exists(strategies, ?) order by app_name`, [strategyName]);
    const usage = await this.usageOf(rows.map((r) => r.app_name));
    return rows.map((r) => toApplication(r, usage.get(r.app_name) ?? []));
  }

  /** One application (the list's shape); 404 NotFoundError when there is none of that name. */
  async getApplication(appName: string): Promise<Application> {
    const row = await this.loadApplication(this.em, appName);
    return toApplication(row, (await this.usageOf([appName])).get(appName) ?? []);
  }

  /** Unleash's application details: instances, strategies (as definitions) and the features seen in the last day. */
  async getApplicationDetails(appName: string): Promise<ApplicationDetails> {
    const row = await this.loadApplication(this.em, appName);
    const [instances, seen, definitions] = [
      (await this.instancesOf([appName])).get(appName) ?? [],
      (await this.seenFeaturesOf([appName])).get(appName) ?? [],
      await new StrategyDefinitionService(this.em, this.principal, this.access).list(),
    ];
    const features: FeatureSummary[] = seen.length === 0 ? [] : (await this.em.execute<Array<Parameters<typeof toFeatureSummary>[0]>>(
      `select ${FEATURE_COLUMNS} from features where name in (?) and archived_at is null`, [seen])).map(toFeatureSummary);
    const app = toApplication(row);
    return {
      appName: app.appName,
      createdAt: app.createdAt,
      description: app.description,
      url: app.url,
      color: app.color,
      icon: app.icon,
      strategies: app.strategies.map((name) => definitions.find((d) => d.name === name) ?? { name, notFound: true as const }),
      instances,
      seenToggles: seen.map((name) => features.find((f) => f.name === name) ?? { name, notFound: true as const }),
      links: { self: `/api/applications/${app.appName}` },
    };
  }

  /** Instances of applications, by application, newest report first. */
  async instancesOf(appNames: readonly string[]): Promise<Map<string, ApplicationInstance[]>> {
    const out = new Map<string, ApplicationInstance[]>();
    if (appNames.length === 0) return out;
    const rows: InstanceRow[] = await this.em.execute(
      `select ${INSTANCE_COLUMNS} from client_instances where app_name in (?) order by app_name, seen_at desc, environment, instance_id`, [[...appNames]]);
    for (const r of rows) {
      const list = out.get(r.app_name) ?? [];
      list.push(toInstance(r));
      out.set(r.app_name, list);
    }
    return out;
  }

  /** The features each application reported in the last day, by name. */
  async seenFeaturesOf(appNames: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (appNames.length === 0) return out;
    const rows: Array<{ app_name: string; feature_name: string }> = await this.em.execute(
      `select distinct app_name, feature_name from client_metrics_hourly
        where app_name in (?) and hour >= now() - make_interval(hours => ?) order by app_name, feature_name`, [[...appNames], SEEN_HOURS]);
    for (const r of rows) out.set(r.app_name, [...(out.get(r.app_name) ?? []), r.feature_name]);
    return out;
  }

  /**
   * `POST /api/admin/metrics/applications/:appName` (UPDATE_APPLICATION): creates the application or changes what is
   * sent of its description, url, color, icon and strategies (absent: untouched; null: emptied). Creating writes
   * `application-created`; Unleash has no event for a change.
   */
  async updateApplication(appName: string, input: UpdateApplicationInput): Promise<Application> {
    const name = parse(appNameSchema, appName);
    const data = parse(updateSchema, input);
    await this.access.check('UPDATE_APPLICATION');
    return change(this.em, this.principal, async (tx, emit) => {
      const created: ApplicationRow[] = await tx.execute(
        `insert into client_applications (app_name, created_by) values (?, ?) on conflict (app_name) do nothing returning ${APPLICATION_COLUMNS}`,
        [name, this.principal.name]);
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const column of ['description', 'url', 'color', 'icon'] as const) {
        if (data[column] !== undefined) {
          sets.push(`${column} = ?`);
          values.push(data[column]);
        }
      }
      if (data.strategies !== undefined) {
        sets.push('strategies = ?::jsonb');
        values.push(JSON.stringify([...new Set(data.strategies)]));
      }
      let row = created[0];
      if (sets.length > 0) {
        [row] = await tx.execute(`update client_applications set ${sets.join(', ')}, updated_at = now() where app_name = ? returning ${APPLICATION_COLUMNS}`, [...values, name]);
      } else if (!row) {
        row = await this.loadApplication(tx, name);
      }
      if (created.length > 0) emit({ type: 'application-created', data: applicationCreatedData(row) });
      return toApplication(row, (await this.usageOf([name], tx)).get(name) ?? []);
    });
  }

  /**
   * `DELETE /api/admin/metrics/applications/:appName` (UPDATE_APPLICATION): the application and its instances. Its
   * metrics stay until they are pruned, and its next report brings it back, as in Unleash. 404 when there is none.
   */
  async deleteApplication(appName: string): Promise<void> {
    await this.access.check('UPDATE_APPLICATION');
    await change(this.em, this.principal, async (tx) => {
      const deleted: unknown[] = await tx.execute(`delete from client_applications where app_name = ? returning app_name`, [appName]);
      if (deleted.length === 0) throw new NotFoundError(`Could not find application with appName ${appName}`);
    });
  }

  /**
   * `GET /api/admin/client-metrics/features/:name` (Unleash's feature usage summary): the counts of the last hour,
   * summed per environment, and the applications seen using the feature in the last day. An unknown feature has none.
   */
  async featureUsage(featureName: string): Promise<FeatureUsage> {
    const rows: Array<{ environment: string; hour: Date; yes: string; no: string }> = await this.em.execute(
      `select environment, min(hour) as hour, sum(yes) as yes, sum(no) as no from client_metrics_hourly
        where feature_name = ? and hour >= now() - interval '1 hour' group by environment order by environment`, [featureName]);
    const apps: Array<{ app_name: string }> = await this.em.execute(
      `select distinct app_name from client_metrics_hourly where feature_name = ? and hour >= now() - make_interval(hours => ?) order by app_name`,
      [featureName, SEEN_HOURS]);
    return {
      featureName,
      lastHourUsage: rows.map((r) => ({ environment: r.environment, timestamp: new Date(r.hour).toISOString(), yes: Number(r.yes), no: Number(r.no) })),
      seenApplications: apps.map((a) => a.app_name),
    };
  }

  /**
   * The hourly counts of features over the last `hoursBack` hours (the current one included), as Unleash's raw feature
   * metrics: for every environment and application that reported the feature in that time, one bucket per hour (hours
   * without reports count 0), ordered by hour. One statement for any number of features (the GraphQL loader).
   */
  async featureMetrics(featureNames: readonly string[], hoursBack: number = HOURS_BACK.default): Promise<Map<string, FeatureMetricsBucket[]>> {
    const out = new Map<string, FeatureMetricsBucket[]>();
    if (featureNames.length === 0) return out;
    const hours = Math.min(HOURS_BACK.max, Math.max(HOURS_BACK.min, Math.trunc(hoursBack)));
    const currentHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const from = currentHour - (hours - 1) * HOUR_MS;
    const rows: Array<{ feature_name: string; app_name: string; environment: string; hour: Date; yes: string; no: string; variants: Record<string, string> | null }> = await this.em.execute(
      `select m.feature_name, m.app_name, m.environment, m.hour, m.yes, m.no,
              (select jsonb_object_agg(v.variant, v.count order by v.variant) from client_metrics_hourly_variants v
                where v.feature_name = m.feature_name and v.app_name = m.app_name and v.environment = m.environment and v.hour = m.hour) as variants
         from client_metrics_hourly m
        where m.feature_name in (?) and m.hour >= ?
        order by m.feature_name, m.environment, m.app_name, m.hour`,
      [[...featureNames], new Date(from).toISOString()]);
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
              featureName, appName, environment, timestamp: new Date(hour).toISOString(),
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

  private async loadApplication(em: EntityManager, appName: string): Promise<ApplicationRow> {
    const [row]: ApplicationRow[] = await em.execute(`select ${APPLICATION_COLUMNS} from client_applications where app_name = ?`, [appName]);
    if (!row) throw new NotFoundError(`Could not find application with appName ${appName}`);
    return row;
  }

  /** Which projects each application's instances read, per environment (from their tokens). */
  private async usageOf(appNames: readonly string[], em: EntityManager = this.em): Promise<Map<string, ApplicationUsage[]>> {
    const out = new Map<string, ApplicationUsage[]>();
    if (appNames.length === 0) return out;
    const rows: Array<{ app_name: string; project: string; environments: string[] }> = await em.execute(
      `select ci.app_name, p.project, array_agg(distinct ci.environment order by ci.environment) as environments
         from client_instances ci cross join lateral jsonb_array_elements_text(ci.projects) as p(project)
        where ci.app_name in (?) group by ci.app_name, p.project order by ci.app_name, p.project`, [[...appNames]]);
    for (const r of rows) out.set(r.app_name, [...(out.get(r.app_name) ?? []), { project: r.project, environments: r.environments }]);
    return out;
  }
}
