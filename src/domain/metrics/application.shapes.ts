import { z } from 'zod';
import { named, timestamp } from '../shapes';
import { FeatureSummary } from '../features/feature.shapes';
import { StrategyDefinition } from '../strategies/strategy-definition.shapes';

/**
 * What both doors answer for applications, their instances and the usage counts SDKs report (Unleash's shapes;
 * src/domain/shapes.ts says how shapes are used): application.read-model.ts and client-metrics.read-model.ts map the
 * rows into them.
 */

// ---- applications ----

export const ApplicationUsage = named('ApplicationUsage', z.object({
  project: z.string().describe('`*`: every project'),
  environments: z.array(z.string()),
}), 'Which projects an application’s instances read, and in which environments');
export type ApplicationUsage = z.output<typeof ApplicationUsage>;

/** An application in the list (`GET /api/admin/metrics/applications`). */
export const Application = named('Application', z.object({
  appName: z.string(),
  description: z.string().nullable(),
  url: z.string().nullable(),
  color: z.string().nullable(),
  icon: z.string().nullable(),
  strategies: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
  createdBy: z.string(),
  lastSeen: timestamp.nullable().describe('The last report of any of its instances'),
  usage: z.array(ApplicationUsage),
}));
export type Application = z.output<typeof Application>;

/** One running SDK of an application; `started` and `interval` come from its registration. */
export const ApplicationInstance = named('ApplicationInstance', z.object({
  appName: z.string(),
  instanceId: z.string(),
  environment: z.string(),
  sdkVersion: z.string().nullable(),
  clientIp: z.string().nullable(),
  started: timestamp.nullable(),
  interval: z.number().nullable().describe('How often the SDK reports metrics, in milliseconds'),
  createdAt: timestamp,
  lastSeen: timestamp,
}), 'One running SDK of an application');
export type ApplicationInstance = z.output<typeof ApplicationInstance>;

/** An application with its instances, strategies and the features it was seen using (Unleash's application details). */
export const ApplicationDetails = named('ApplicationDetails', z.object({
  appName: z.string(),
  createdAt: timestamp,
  description: z.string().nullable(),
  url: z.string().nullable(),
  color: z.string().nullable(),
  icon: z.string().nullable(),
  strategies: z.array(z.union([StrategyDefinition, z.object({ name: z.string(), notFound: z.literal(true) })]))
    .describe('The strategy types its SDKs implement; `notFound` for a name no strategy type has'),
  instances: z.array(ApplicationInstance),
  seenToggles: z.array(z.union([FeatureSummary, z.object({ name: z.string(), notFound: z.literal(true) })]))
    .describe('The features it reported in the last day; `notFound` for one that is archived or gone'),
  links: z.object({ self: z.string() }),
}));
export type ApplicationDetails = z.output<typeof ApplicationDetails>;

// ---- usage counts (the REST door wraps each in `{version: 1, maturity: 'stable'}`) ----

/** The last hour's use of a feature per environment, and the applications that used it in the last day. */
export const FeatureUsage = z.object({
  featureName: z.string(),
  lastHourUsage: z.array(z.object({ environment: z.string(), timestamp, yes: z.number().int(), no: z.number().int() })),
  seenApplications: z.array(z.string()).describe('Applications that used it in the last day'),
});
export type FeatureUsage = z.output<typeof FeatureUsage>;

/** One hour of one feature's use by one application in one environment (Unleash's raw feature metrics). */
export const FeatureMetricsBucket = z.object({
  featureName: z.string(),
  appName: z.string(),
  environment: z.string(),
  timestamp: timestamp.describe('The start of the hour'),
  yes: z.number().int(),
  no: z.number().int(),
  /** Variant name to count (only variants that were counted). */
  variants: z.record(z.string(), z.number().int()),
});
export type FeatureMetricsBucket = z.output<typeof FeatureMetricsBucket>;
