import DataLoader from 'dataloader';
import type { FeatureDependency, FeatureEnvironmentState, FeatureStrategy, FeatureSummary } from '../domain/features/feature.shapes';
import { strategyKey } from '../domain/features/feature.read-model';
import type { Tag } from '../domain/tags/tag.shapes';
import type { AuditEvent } from '../domain/events/event.shapes';
import type { ProjectFeaturePage } from '../domain/projects/feature-overview.read-model';
import type { FeatureLifecycle } from '../domain/lifecycle/lifecycle.shapes';
import type { Segment } from '../domain/segments/segment.shapes';
import type { GraphQLContext } from './builder';

/**
 * Per-request dataloaders for the nested lists of the feature model. Every field that needs, say, a feature's
 * environments shares one loader, so a request costs one query per level of nesting, whatever the row counts.
 */
export interface FeatureLoaders {
  environments: DataLoader<string, FeatureEnvironmentState[]>;
  strategies: DataLoader<string, FeatureStrategy[]>;
  tags: DataLoader<string, Tag[]>;
  dependencies: DataLoader<string, FeatureDependency[]>;
  children: DataLoader<string, string[]>;
  segments: DataLoader<number, Segment | undefined>;
  /** Lifecycles of features (issue 44), one query for all asked. */
  lifecycles: DataLoader<string, FeatureLifecycle | undefined>;
  /** The first page of events of features, one loader per page size. */
  featureEvents(first: number): DataLoader<string, { events: AuditEvent[]; totalEvents: number }>;
  /** Features of projects, one loader per distinct page request (filter, first, after). */
  projectFeatures(key: string, load: (projects: readonly string[]) => Promise<Map<string, ProjectFeaturePage>>): DataLoader<string, ProjectFeaturePage>;
}

const cache = new WeakMap<GraphQLContext, FeatureLoaders>();

export function loaders(ctx: GraphQLContext): FeatureLoaders {
  let l = cache.get(ctx);
  if (l) return l;
  const read = ctx.services.features.read;
  const byName = <T>(load: (names: readonly string[]) => Promise<Map<string, T>>, empty: T) =>
    new DataLoader<string, T>(async (names) => {
      const map = await load(names);
      return names.map((n) => map.get(n) ?? empty);
    });
  const pages = new Map<string, DataLoader<string, ProjectFeaturePage>>();
  const eventPages = new Map<number, DataLoader<string, { events: AuditEvent[]; totalEvents: number }>>();
  l = {
    featureEvents: (first) => {
      let loader = eventPages.get(first);
      if (!loader) eventPages.set(first, (loader = byName((names) => ctx.services.events.newestForFeatures(names, first), { events: [], totalEvents: 0 })));
      return loader;
    },
    projectFeatures: (key, load) => {
      let loader = pages.get(key);
      if (!loader) pages.set(key, (loader = byName(load, { features: [] })));
      return loader;
    },
    environments: byName((names) => read.environments(names), []),
    tags: byName((names) => read.tags(names), []),
    dependencies: byName((names) => read.dependencies(names), []),
    children: byName((names) => read.children(names), []),
    // Keyed by strategyKey(feature, environment): one query loads the strategies of every feature asked for.
    strategies: new DataLoader<string, FeatureStrategy[]>(async (keys) => {
      const features = [...new Set(keys.map((k) => k.split('\u0000')[0]))];
      const map = await read.strategies(features);
      return keys.map((k) => map.get(k) ?? []);
    }),
    segments: new DataLoader<number, Segment | undefined>(async (ids) => {
      const map = await ctx.services.segments.byIds(ids);
      return ids.map((id) => map.get(id));
    }),
    lifecycles: new DataLoader<string, FeatureLifecycle | undefined>(async (names) => {
      const map = await ctx.services.lifecycle.lifecycles(names);
      return names.map((n) => map.get(n));
    }),
  };
  cache.set(ctx, l);
  return l;
}

export { strategyKey };
