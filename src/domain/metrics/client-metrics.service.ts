import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NotFoundError } from '../errors';
import type { FeatureSummary } from '../features/feature.shapes';
import { StrategyDefinitionService } from '../strategies/strategy-definition.service';
import { description, parse } from '../validation';
import {
  activeFeatureSummaries, applicationCreatedData, applicationRows, instancesOf, seenFeaturesOf, toApplication, usageOf,
} from './application.read-model';
import type { Application, ApplicationDetails, ApplicationInstance, FeatureMetricsBucket, FeatureUsage } from './application.shapes';
import { featureMetricsBuckets, featureUsage, HOUR_MS } from './client-metrics.read-model';
import type { ExposureWindow } from './exposure-window';
import { exposureApplications, exposureChanges, exposureCounts, type ExposureCounts } from './exposure.read-model';
import type { AuditEvent } from '../events/event.shapes';
import {
  deleteApplicationRow, insertApplication, insertRegisteredApplication, loadApplication, updateApplicationDetails, updateRegisteredApplication,
  upsertRegisteredInstance,
} from './client-metrics.store';
import { MAX_NAME, parseRegistration, reportEnvironment } from './metrics-input';

/** Hours the feature metrics views look back: 1..48, 24 by default (Unleash). */
export const HOURS_BACK = { min: 1, max: 48, default: 24 } as const;

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
      const created = await insertRegisteredApplication(tx, reg.appName, strategies, this.principal.name);
      if (created.length > 0) emit({ type: 'application-created', data: applicationCreatedData(created[0]) });
      else await updateRegisteredApplication(tx, reg.appName, strategies);
      await upsertRegisteredInstance(tx, {
        appName: reg.appName, environment, instanceId: reg.instanceId, sdkVersion: reg.sdkVersion ?? null, clientIp,
        started: reg.started.toISOString(), intervalMs: Math.round(reg.interval), projects: JSON.stringify(this.principal.tokenProjects ?? ['*']),
      });
    });
  }

  /** Every application by name, or those whose SDKs implement a strategy (Unleash's `strategyName` filter). */
  async listApplications(strategyName?: string): Promise<Application[]> {
    const rows = await applicationRows(this.em, strategyName);
    const usage = await usageOf(this.em, rows.map((r) => r.app_name));
    return rows.map((r) => toApplication(r, usage.get(r.app_name) ?? []));
  }

  /** One application (the list's shape); 404 NotFoundError when there is none of that name. */
  async getApplication(appName: string): Promise<Application> {
    const row = await loadApplication(this.em, appName);
    return toApplication(row, (await usageOf(this.em, [appName])).get(appName) ?? []);
  }

  /** Unleash's application details: instances, strategies (as definitions) and the features seen in the last day. */
  async getApplicationDetails(appName: string): Promise<ApplicationDetails> {
    const row = await loadApplication(this.em, appName);
    const [instances, seen, definitions] = [
      (await this.instancesOf([appName])).get(appName) ?? [],
      (await this.seenFeaturesOf([appName])).get(appName) ?? [],
      await new StrategyDefinitionService(this.em, this.principal, this.access).list(),
    ];
    const features: FeatureSummary[] = seen.length === 0 ? [] : await activeFeatureSummaries(this.em, seen);
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
    return instancesOf(this.em, appNames);
  }

  /** The features each application reported in the last day, by name. */
  async seenFeaturesOf(appNames: readonly string[]): Promise<Map<string, string[]>> {
    return seenFeaturesOf(this.em, appNames);
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
      const created = await insertApplication(tx, name, this.principal.name);
      const updated = await updateApplicationDetails(tx, name, {
        description: data.description, url: data.url, color: data.color, icon: data.icon,
        strategies: data.strategies === undefined ? undefined : JSON.stringify([...new Set(data.strategies)]),
      });
      let row = created[0];
      if (updated) [row] = updated;
      else if (!row) row = await loadApplication(tx, name);
      if (created.length > 0) emit({ type: 'application-created', data: applicationCreatedData(row) });
      return toApplication(row, (await usageOf(tx, [name])).get(name) ?? []);
    });
  }

  /**
   * `DELETE /api/admin/metrics/applications/:appName` (UPDATE_APPLICATION): the application and its instances. Its
   * metrics stay until they are pruned, and its next report brings it back, as in Unleash. 404 when there is none.
   */
  async deleteApplication(appName: string): Promise<void> {
    await this.access.check('UPDATE_APPLICATION');
    await change(this.em, this.principal, async (tx) => {
      if (!(await deleteApplicationRow(tx, appName))) throw new NotFoundError(`Could not find application with appName ${appName}`);
    });
  }

  /**
   * `GET /api/admin/client-metrics/features/:name` (Unleash's feature usage summary): the counts of the last hour,
   * summed per environment, and the applications seen using the feature in the last day. An unknown feature has none.
   */
  async featureUsage(featureName: string): Promise<FeatureUsage> {
    return featureUsage(this.em, featureName);
  }

  /**
   * The hourly counts of features over the last `hoursBack` hours (the current one included), as Unleash's raw feature
   * metrics: for every environment and application that reported the feature in that time, one bucket per hour (hours
   * without reports count 0), ordered by hour. One statement for any number of features (the GraphQL loader).
   */
  async featureMetrics(featureNames: readonly string[], hoursBack: number = HOURS_BACK.default): Promise<Map<string, FeatureMetricsBucket[]>> {
    if (featureNames.length === 0) return new Map();
    const hours = Math.min(HOURS_BACK.max, Math.max(HOURS_BACK.min, Math.trunc(hoursBack)));
    const currentHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const from = currentHour - (hours - 1) * HOUR_MS;
    return featureMetricsBuckets(this.em, featureNames, from, currentHour);
  }

  /**
   * Flags' exposure charts (issue 44): their counts in the window (exposure-window.ts), summed per environment and
   * period; the applications that reported them there; and their own changes there. One statement each, for any
   * number of flags (the GraphQL loaders).
   */
  async exposure(featureNames: readonly string[], window: ExposureWindow): Promise<Map<string, ExposureCounts>> {
    return featureNames.length === 0 ? new Map() : exposureCounts(this.em, featureNames, window);
  }

  async exposureApplications(featureNames: readonly string[], window: ExposureWindow): Promise<Map<string, string[]>> {
    return featureNames.length === 0 ? new Map() : exposureApplications(this.em, featureNames, window);
  }

  async exposureChanges(featureNames: readonly string[], window: ExposureWindow): Promise<Map<string, AuditEvent[]>> {
    return featureNames.length === 0 ? new Map() : exposureChanges(this.em, featureNames, window);
  }
}
