import DataLoader from 'dataloader';
import type { AuditEvent } from '../domain/events/event.shapes';
import {
  DEFAULT_EXPOSURE_HOURS, exposureWindow, GRANULARITIES, MAX_EXPOSURE_HOURS, periodCount, windowKey, type ExposureWindow,
} from '../domain/metrics/exposure-window';
import { EXPOSURE_CHANGE_TYPES, MAX_EXPOSURE_CHANGES, type ExposureBucket, type ExposureCounts, type VariantCount } from '../domain/metrics/exposure.read-model';
import { HOUR_MS } from '../domain/metrics/client-metrics.read-model';
import { WEIGHTS } from './cost';
import { builder, type GraphQLContext } from './builder';
import { EventRef } from './events.resolvers';
import { FeatureRef } from './features.resolvers';
import { enumType } from './zod-input';

/**
 * A flag's exposure chart in one field (issue 44): `Feature.exposure(window)` answers its counts per environment and
 * period, the applications that reported it and its own changes in that window. Each part is loaded for every flag of
 * the request at once (one statement per part and distinct window), and only when selected: a list's sparklines
 * (`totals`) cost one statement for all its flags.
 */

/** What the field resolves to: the flag and the window; its parts load on demand. */
interface FeatureExposure {
  featureName: string;
  window: ExposureWindow;
}

interface ExposureLoaders {
  counts: DataLoader<string, ExposureCounts>;
  applications: DataLoader<string, string[]>;
  changes: DataLoader<string, AuditEvent[]>;
}

const cache = new WeakMap<GraphQLContext, Map<string, ExposureLoaders>>();

function exposureLoaders(ctx: GraphQLContext, window: ExposureWindow): ExposureLoaders {
  let byWindow = cache.get(ctx);
  if (!byWindow) cache.set(ctx, (byWindow = new Map()));
  const key = windowKey(window);
  let l = byWindow.get(key);
  if (l) return l;
  const service = ctx.services.clientMetrics;
  const loader = <T>(load: (names: readonly string[]) => Promise<Map<string, T>>, empty: (name: string) => T) =>
    new DataLoader<string, T>(async (names) => {
      const map = await load(names);
      return names.map((n) => map.get(n) ?? empty(n));
    });
  l = {
    // Every asked flag has an entry (zero-filled periods), so `empty` is only a guard.
    counts: loader((names) => service.exposure(names, window), () => ({ periods: [], environments: [], buckets: [], totals: [] })),
    applications: loader((names) => service.exposureApplications(names, window), () => []),
    changes: loader((names) => service.exposureChanges(names, window), () => []),
  };
  byWindow.set(key, l);
  return l;
}

const GranularityEnum = enumType('ExposureGranularity', GRANULARITIES, {
  description: 'How an exposure chart groups the hourly counts.',
  valueDescriptions: { hour: 'One period per hour.', day: 'One period per calendar day of the chart\'s time zone.' },
});

const VariantCountRef = builder.objectRef<VariantCount>('ExposureVariantCount').implement({
  description: 'How often one variant was handed out in a period.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The variant (`disabled` when the flag was off).' }),
    count: t.exposeFloat('count', { description: 'How often (a whole number).' }),
  }),
});

const ExposureBucketRef = builder.objectRef<ExposureBucket>('ExposureBucket').implement({
  description: 'One period of a flag\'s evaluations in one environment, summed over the applications counted.',
  fields: (t) => ({
    timestamp: t.expose('timestamp', { type: 'DateTime', description: 'Start of the period (for days: the first hour of the window on that day).' }),
    environment: t.exposeString('environment', { description: 'The environment.' }),
    yes: t.exposeFloat('yes', { description: 'Evaluations to enabled (a whole number).' }),
    no: t.exposeFloat('no', { description: 'Evaluations to disabled (a whole number).' }),
    variants: t.field({ type: [VariantCountRef], description: 'Variants handed out, by name.', resolve: (b) => b.variants }),
  }),
});

const FeatureExposureRef = builder.objectRef<FeatureExposure>('FeatureExposure').implement({
  description: 'A flag\'s exposure over a window of hours: what its exposure chart draws.',
  fields: (t) => ({
    from: t.field({ type: 'DateTime', description: 'Start of the first hour counted.', resolve: (e) => new Date(e.window.from).toISOString() }),
    to: t.field({ type: 'DateTime', description: 'End of the last hour counted (exclusive).', resolve: (e) => new Date(e.window.to).toISOString() }),
    granularity: t.field({ type: GranularityEnum, description: 'How the hours are grouped.', resolve: (e) => e.window.granularity }),
    timeZone: t.string({ description: 'The time zone of the days (granularity day).', resolve: (e) => e.window.timeZone }),
    periods: t.field({
      type: ['DateTime'], description: 'Start of each period, oldest first.',
      resolve: async (e, _args, ctx) => (await exposureLoaders(ctx, e.window).counts.load(e.featureName)).periods,
    }),
    totals: t.floatList({
      description: 'Evaluations (yes + no) of each period over every environment counted, in `periods` order: a sparkline\'s data.',
      resolve: async (e, _args, ctx) => (await exposureLoaders(ctx, e.window).counts.load(e.featureName)).totals,
    }),
    environments: t.stringList({
      description: 'Environments that reported the flag in the window, by name.',
      resolve: async (e, _args, ctx) => (await exposureLoaders(ctx, e.window).counts.load(e.featureName)).environments,
    }),
    buckets: t.field({
      type: [ExposureBucketRef],
      description: 'One bucket per environment of `environments` (in that order) per period (oldest first); periods without reports count 0.',
      resolve: async (e, _args, ctx) => (await exposureLoaders(ctx, e.window).counts.load(e.featureName)).buckets,
    }),
    applications: t.stringList({
      description: 'Applications that reported the flag in the window (in its environment, when filtered), by name, at most 100: the choices of the application filter.',
      resolve: (e, _args, ctx) => exposureLoaders(ctx, e.window).applications.load(e.featureName),
    }),
    changes: t.field({
      type: [EventRef],
      // One statement for every flag of the request; at most MAX_EXPOSURE_CHANGES event rows each.
      complexity: { field: WEIGHTS.featureEvents, multiplier: 10 },
      description: `The flag's own changes in the window, oldest first, to draw on the time axis: ${EXPOSURE_CHANGE_TYPES.join(', ')} `
        + `(in the filtered environment or in none, when filtered); at most the newest ${MAX_EXPOSURE_CHANGES}.`,
      resolve: (e, _args, ctx) => exposureLoaders(ctx, e.window).changes.load(e.featureName),
    }),
  }),
});

/** The hours a window's arguments span, for the cost estimate: within 1..MAX_EXPOSURE_HOURS whatever was sent. */
function estimatedHours(args: { hoursBack?: unknown; from?: unknown; to?: unknown }): number {
  let hours = Number(args.hoursBack) || DEFAULT_EXPOSURE_HOURS;
  if (typeof args.from === 'string') {
    const to = typeof args.to === 'string' ? Date.parse(args.to) : Date.now();
    hours = Math.ceil((to - Math.floor(Date.parse(args.from) / HOUR_MS) * HOUR_MS) / HOUR_MS);
  }
  return Number.isFinite(hours) ? Math.min(MAX_EXPOSURE_HOURS, Math.max(1, hours)) : MAX_EXPOSURE_HOURS;
}

builder.objectField(FeatureRef, 'exposure', (t) => t.field({
  type: FeatureExposureRef,
  description: 'The flag\'s exposure chart: SDK evaluations per environment and period over a window (`hoursBack` hours ending with the current one, '
    + `or \`from\`..\`to\`; at most ${MAX_EXPOSURE_HOURS} hours, counts kept CLIENT_METRICS_RETENTION_HOURS), with its own changes in that window. `
    + 'Loaded for every flag of the request at once.',
  args: {
    hoursBack: t.arg.int({ description: `Hours to look back, the current one included: 1..${MAX_EXPOSURE_HOURS} (default ${DEFAULT_EXPOSURE_HOURS}). Not with \`from\`.` }),
    from: t.arg({ type: 'DateTime', description: 'Start of the window (widened to the hour). Not with `hoursBack`.' }),
    to: t.arg({ type: 'DateTime', description: 'End of the window (widened to the hour; default now). Needs `from`.' }),
    granularity: t.arg({ type: GranularityEnum, description: 'Periods of hours (default) or of days.' }),
    appName: t.arg.string({ description: 'Only this application\'s evaluations.' }),
    environment: t.arg.string({ description: 'Only this environment\'s evaluations (and changes in it or in none).' }),
    timeZone: t.arg.string({ description: 'IANA time zone of the days of granularity `day` (default UTC), for example Europe/Oslo.' }),
  },
  // A statement per part for all flags, plus the periods assembled per environment; the 400 for a bad window comes
  // from the resolver, after this estimate (which therefore reads the arguments leniently).
  complexity: (args) => WEIGHTS.featureExposure + periodCount({ from: 0, to: estimatedHours(args) * HOUR_MS, granularity: args.granularity === 'day' ? 'day' : 'hour' }),
  resolve: (f, args) => ({ featureName: f.name, window: exposureWindow(args) }),
}));
