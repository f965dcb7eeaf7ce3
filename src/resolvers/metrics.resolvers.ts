import DataLoader from 'dataloader';
import type { Application, ApplicationInstance, ApplicationUsage, FeatureMetricsBucket, FeatureUsage } from '../domain/metrics/application.shapes';
import { HOURS_BACK, updateSchema } from '../domain/metrics/client-metrics.service';
import { ValidationError } from '../domain/errors';
import type { FeatureSummary } from '../domain/features/feature.shapes';
import { NESTED_LIST_MULTIPLIER, WEIGHTS } from './cost';
import { builder, type GraphQLContext } from './builder';
import { FeatureRef } from './features.resolvers';
import { defined } from './input';
import { zodInput } from './zod-input';

/**
 * What SDKs report (issue 14 part 3): applications with their instances, a feature's usage summary, and a feature's
 * hourly counts (`Feature.metrics`), the GraphQL twins of /api/admin/metrics/applications and
 * /api/admin/client-metrics/features/:name[/raw]. Nested lists are batched per request (one statement per level).
 */

interface MetricsLoaders {
  instances: DataLoader<string, ApplicationInstance[]>;
  seenToggles: DataLoader<string, string[]>;
  /** Features by name (undefined once deleted), for the features an application reported. */
  features: DataLoader<string, FeatureSummary | undefined>;
  /** Hourly counts of features, one loader per `hours`. */
  featureMetrics(hours: number): DataLoader<string, FeatureMetricsBucket[]>;
}

const cache = new WeakMap<GraphQLContext, MetricsLoaders>();

function metricsLoaders(ctx: GraphQLContext): MetricsLoaders {
  let l = cache.get(ctx);
  if (l) return l;
  const service = ctx.services.clientMetrics;
  const byKey = <T>(load: (keys: readonly string[]) => Promise<Map<string, T>>, empty: T) =>
    new DataLoader<string, T>(async (keys) => {
      const map = await load(keys);
      return keys.map((k) => map.get(k) ?? empty);
    });
  const metrics = new Map<number, DataLoader<string, FeatureMetricsBucket[]>>();
  l = {
    instances: byKey((names) => service.instancesOf(names), []),
    seenToggles: byKey((names) => service.seenFeaturesOf(names), []),
    features: new DataLoader<string, FeatureSummary | undefined>(async (names) => {
      const found = new Map((await ctx.services.features.read.summaries({ names })).map((f) => [f.name, f]));
      return names.map((n) => found.get(n));
    }),
    featureMetrics: (hours) => {
      let loader = metrics.get(hours);
      if (!loader) metrics.set(hours, (loader = byKey((names) => service.featureMetrics(names, hours), [])));
      return loader;
    },
  };
  cache.set(ctx, l);
  return l;
}

function checkHours(hours: number | null | undefined): number {
  const h = hours ?? HOURS_BACK.default;
  if (!Number.isInteger(h) || h < HOURS_BACK.min || h > HOURS_BACK.max) {
    throw ValidationError.single('hours', `The \`hours\` argument must be a whole number from ${HOURS_BACK.min} to ${HOURS_BACK.max}. You sent ${h}.`);
  }
  return h;
}

// ---- output types ------------------------------------------------------------------------------------------

const ApplicationUsageRef = builder.objectRef<ApplicationUsage>('ApplicationUsage').implement({
  description: 'A project an application reads (from its instances\' API tokens; `*` for every project) and the environments it reads it in.',
  fields: (t) => ({
    project: t.exposeString('project', { description: 'Project id, or `*`.' }),
    environments: t.exposeStringList('environments', { description: 'Environments its instances report in.' }),
  }),
});

const ApplicationInstanceRef = builder.objectRef<ApplicationInstance>('ApplicationInstance').implement({
  description: 'One running SDK of an application in one environment.',
  fields: (t) => ({
    appName: t.exposeString('appName', { description: 'The application.' }),
    instanceId: t.exposeString('instanceId', { description: 'The id the SDK reports (a host name, pod id, …).' }),
    environment: t.exposeString('environment', { description: 'The environment it reports in (its token\'s).' }),
    sdkVersion: t.exposeString('sdkVersion', { nullable: true, description: 'SDK name and version, for example unleash-client-node:6.12.1.' }),
    clientIp: t.exposeString('clientIp', { nullable: true, description: 'Address of its last report.' }),
    started: t.expose('started', { type: 'DateTime', nullable: true, description: 'When the SDK started (from its registration).' }),
    interval: t.exposeFloat('interval', { nullable: true, description: 'How often it sends metrics, in milliseconds (from its registration).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Its first report.' }),
    lastSeen: t.expose('lastSeen', { type: 'DateTime', description: 'Its last report (registration or metrics).' }),
  }),
});

const ApplicationRef = builder.objectRef<Application>('Application').implement({
  description: 'An application that uses the SDKs, known from its registrations and metrics reports.',
  fields: (t) => ({
    appName: t.exposeString('appName', { description: 'Application name, as its SDKs report it.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text, set by an admin.' }),
    url: t.exposeString('url', { nullable: true, description: 'A link to the application, set by an admin.' }),
    color: t.exposeString('color', { nullable: true, description: 'A CSS color for lists, set by an admin.' }),
    icon: t.exposeString('icon', { nullable: true, description: 'An icon for lists, set by an admin.' }),
    strategies: t.exposeStringList('strategies', { description: 'Strategy types its SDK implements (from the latest registration).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was first seen.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its strategies or details last changed.' }),
    createdBy: t.exposeString('createdBy', { description: 'The token or user that first reported or created it.' }),
    lastSeen: t.expose('lastSeen', { type: 'DateTime', nullable: true, description: 'The last report of any of its instances.' }),
    usage: t.field({ type: [ApplicationUsageRef], description: 'Projects and environments its instances read.', resolve: (a) => a.usage }),
    instances: t.field({
      type: [ApplicationInstanceRef],
      description: 'Its instances, newest report first (loaded in one batch per request).',
      resolve: (a, _args, ctx) => metricsLoaders(ctx).instances.load(a.appName),
    }),
    seenToggles: t.field({
      type: ['String'],
      description: 'Features it reported metrics for in the last 24 hours, by name (loaded in one batch per request).',
      resolve: (a, _args, ctx) => metricsLoaders(ctx).seenToggles.load(a.appName),
    }),
    // The names alone do not say where a flag lives: a page linking to each needs its project.
    seenFeatures: t.field({
      type: [FeatureRef],
      description: 'The features of seenToggles that still exist (archived included), by name, with their projects (loaded in one batch per request).',
      resolve: async (a, _args, ctx) => {
        const loaders = metricsLoaders(ctx);
        const found = await loaders.features.loadMany(await loaders.seenToggles.load(a.appName));
        return found.filter((f): f is FeatureSummary => !!f && !(f instanceof Error));
      },
    }),
  }),
});

const FeatureMetricsBucketRef = builder.objectRef<FeatureMetricsBucket>('FeatureMetricsBucket').implement({
  description: 'One hour of a feature\'s use by one application in one environment.',
  fields: (t) => ({
    featureName: t.exposeString('featureName', { description: 'The feature.' }),
    appName: t.exposeString('appName', { description: 'The application that evaluated it.' }),
    environment: t.exposeString('environment', { description: 'The environment it was evaluated in.' }),
    timestamp: t.expose('timestamp', { type: 'DateTime', description: 'Start of the hour.' }),
    yes: t.exposeFloat('yes', { description: 'Evaluations to enabled (a whole number).' }),
    no: t.exposeFloat('no', { description: 'Evaluations to disabled (a whole number).' }),
    variants: t.field({ type: 'JSON', description: 'Variant name to count, for the variants that were handed out.', resolve: (b) => b.variants }),
  }),
});

type LastHour = FeatureUsage['lastHourUsage'][number];
const FeatureEnvironmentUsageRef = builder.objectRef<LastHour>('FeatureEnvironmentUsage').implement({
  description: 'A feature\'s evaluations of the last hour in one environment, over every application.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'The environment.' }),
    timestamp: t.expose('timestamp', { type: 'DateTime', description: 'Start of the hour counted.' }),
    yes: t.exposeFloat('yes', { description: 'Evaluations to enabled.' }),
    no: t.exposeFloat('no', { description: 'Evaluations to disabled.' }),
  }),
});

const FeatureUsageRef = builder.objectRef<FeatureUsage>('FeatureUsage').implement({
  description: 'How a feature was used: the last hour per environment, and the applications that used it in the last day.',
  fields: (t) => ({
    featureName: t.exposeString('featureName', { description: 'The feature.' }),
    lastHourUsage: t.field({ type: [FeatureEnvironmentUsageRef], description: 'The last hour, per environment.', resolve: (u) => u.lastHourUsage }),
    seenApplications: t.exposeStringList('seenApplications', { description: 'Applications that reported it in the last 24 hours, by name.' }),
  }),
});

builder.objectField(FeatureRef, 'metrics', (t) => t.field({
  type: [FeatureMetricsBucketRef],
  description: 'Hourly evaluation counts of the last `hours` hours (the current one included), per environment and application that reported it, '
    + 'hours without reports counting 0 (loaded in one batch per request).',
  args: { hours: t.arg.int({ defaultValue: HOURS_BACK.default, description: `Hours to look back, ${HOURS_BACK.min}..${HOURS_BACK.max} (default ${HOURS_BACK.default}).` }) },
  // One statement for every feature of the request, and a bucket per hour for each environment and application.
  complexity: (args) => ({ field: WEIGHTS.featureMetrics, multiplier: Math.max(1, Math.min(HOURS_BACK.max, Number(args.hours) || HOURS_BACK.default)) * NESTED_LIST_MULTIPLIER }),
  resolve: (f, args, ctx) => metricsLoaders(ctx).featureMetrics(checkHours(args.hours)).load(f.name),
}));

builder.queryFields((t) => ({
  applications: t.field({
    type: [ApplicationRef],
    description: 'Every application that registered or reported metrics (or an admin created), by name.',
    args: { strategyName: t.arg.string({ description: 'Only applications whose SDKs implement this strategy type.' }) },
    resolve: (_root, args, ctx) => ctx.services.clientMetrics.listApplications(args.strategyName ?? undefined),
  }),
  application: t.field({
    type: ApplicationRef,
    description: 'One application; a NotFoundError when there is none of that name.',
    args: { appName: t.arg.string({ required: true, description: 'Application name.' }) },
    resolve: (_root, args, ctx) => ctx.services.clientMetrics.getApplication(args.appName),
  }),
  featureUsage: t.field({
    type: FeatureUsageRef,
    description: 'A feature\'s usage summary (REST: /api/admin/client-metrics/features/:name); empty for a feature never reported.',
    args: { feature: t.arg.string({ required: true, description: 'Feature name.' }) },
    resolve: (_root, args, ctx) => ctx.services.clientMetrics.featureUsage(args.feature),
  }),
}));

// ---- mutations ---------------------------------------------------------------------------------------------

// `sdkVersion` and `announced` are what an SDK's registration sets, not a person.
const UpdateApplicationInput = zodInput('UpdateApplicationInput', updateSchema, {
  description: 'An application to create, or the details to change; absent fields are untouched, null empties them.',
  omit: ['sdkVersion', 'announced'],
  descriptions: {
    description: 'Free text.',
    url: 'A link to the application.',
    color: 'A CSS color.',
    icon: 'An icon.',
    strategies: 'Strategy types its SDKs implement (replaced by the next registration).',
  },
  fields: (t) => ({ appName: t.string({ required: true, description: 'Application name.' }) }),
});
const ApplicationNameInput = builder.inputType('ApplicationNameInput', {
  description: 'Names one application.',
  fields: (t) => ({ appName: t.string({ required: true, description: 'Application name.' }) }),
});

builder.mutationFields((t) => ({
  updateApplication: t.field({
    type: ApplicationRef,
    description: 'Creates an application or changes its details (REST: POST /api/admin/metrics/applications/:appName). Creating writes application-created.',
    args: { input: t.arg({ type: UpdateApplicationInput, required: true, description: 'The application and its details.' }) },
    resolve: (_root, { input: { appName, ...rest } }, ctx) => ctx.services.clientMetrics.updateApplication(appName, defined(rest) as never),
  }),
  deleteApplication: t.boolean({
    description: 'Deletes an application and its instances; its metrics stay until pruned, and its next report brings it back.',
    args: { input: t.arg({ type: ApplicationNameInput, required: true, description: 'The application to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.clientMetrics.deleteApplication(input.appName);
      return true;
    },
  }),
}));
