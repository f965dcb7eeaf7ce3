import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { EnvironmentRow } from '../environments/environment.entity';
import type { TableRow } from '../rows';
import { normalizeConstraint } from './constraints';
import type { FeatureDependencyRow } from './feature-dependency.entity';
import type { FeatureEnvironmentRow } from './feature-environment.entity';
import type { FeatureStrategyRow } from './feature-strategy.entity';
import type { FeatureTagRow } from './feature-tag.entity';
import { FeatureTypeSchema, type FeatureRow } from './feature.entity';
import { canonicalVariant } from './variants';
import { isUuid } from '../validation';
import type { Tag } from '../tags/tag.shapes';
import type { Feature, FeatureDependency, FeatureEnvironmentState, FeatureStrategy, FeatureSummary, FeatureType } from './feature.shapes';

export const toFeatureType = (r: { id: string; name: string; description?: string | null; lifetimeDays?: number | null }): FeatureType => ({
  id: r.id, name: r.name, description: r.description ?? null, lifetimeDays: r.lifetimeDays ?? null,
});

export interface FeatureFilter {
  project?: string;
  names?: readonly string[];
  /** Only archived (true) or only active (false) features; both when absent. */
  archived?: boolean;
  /** Names containing this text (case-insensitive). */
  query?: string;
  type?: string;
  /** Keyset pagination over names. */
  after?: string;
  limit?: number;
}

/** A feature's row as FEATURE_COLUMNS selects it. */
export type FeatureDbRow = Pick<TableRow<FeatureRow>,
  'name' | 'type' | 'description' | 'project' | 'stale' | 'impression_data' | 'created_at' | 'archived_at' | 'last_seen_at'>;
export const FEATURE_COLUMNS = 'name, type, description, project, stale, impression_data, created_at, archived_at, last_seen_at';

export function toFeatureSummary(r: FeatureDbRow): FeatureSummary {
  return {
    name: r.name,
    type: r.type,
    description: r.description ?? null,
    project: r.project,
    stale: r.stale,
    impressionData: r.impression_data,
    createdAt: iso(r.created_at),
    archivedAt: isoOrNull(r.archived_at),
    archived: r.archived_at !== null,
    lastSeenAt: isoOrNull(r.last_seen_at),
    favorite: false,
  };
}

/** A strategy's row with its segment ids (SEGMENT_IDS), as the strategy reads (here and the playground's) select it. */
export type StrategyDbRow = Pick<TableRow<FeatureStrategyRow>,
  'id' | 'feature_name' | 'environment' | 'strategy_name' | 'title' | 'parameters' | 'constraints' | 'variants' | 'sort_order' | 'disabled'>
  & { segments: number[] };

export function toFeatureStrategy(r: StrategyDbRow): FeatureStrategy {
  return {
    id: r.id,
    name: r.strategy_name,
    title: r.title ?? null,
    disabled: r.disabled,
    featureName: r.feature_name,
    sortOrder: r.sort_order,
    segments: r.segments ?? [],
    constraints: (r.constraints ?? []).map(normalizeConstraint),
    variants: (r.variants ?? []).map(canonicalVariant),
    parameters: r.parameters ?? {},
  };
}

/**
 * A strategy's segment ids, ascending, in a query that left-joins `feature_strategy_segments fss` on `fs.id` and groups
 * by `fs.id`. A correlated subquery per strategy instead ran one scan per row (4,000 on the bench data set, each
 * sizing the table anew: on the embedded database a file-status call per scan, 15 % of a GraphQL feature read).
 */
export const SEGMENT_IDS = `coalesce(array_agg(fss.segment_id order by fss.segment_id) filter (where fss.segment_id is not null), '{}')`;

/**
 * A feature's configuration row in one environment, with the environment's type and order and its strategy counts.
 * `variants` is null where a select leaves out a value that is not a list (the project overview's).
 */
export type FeatureEnvironmentDbRow = Pick<TableRow<FeatureEnvironmentRow>, 'feature_name' | 'environment' | 'enabled' | 'last_seen_at'>
  & Pick<TableRow<EnvironmentRow>, 'type' | 'sort_order'>
  & { variants: TableRow<FeatureEnvironmentRow>['variants'] | null; strategy_count: number; enabled_count: number };

export function toFeatureEnvironmentState(r: FeatureEnvironmentDbRow): FeatureEnvironmentState {
  const variants = (r.variants ?? []).map(canonicalVariant);
  return {
    name: r.environment,
    featureName: r.feature_name,
    environment: r.environment,
    type: r.type,
    enabled: r.enabled,
    sortOrder: r.sort_order,
    variantCount: variants.length,
    variants,
    lastSeenAt: isoOrNull(r.last_seen_at),
    hasStrategies: r.strategy_count > 0,
    hasEnabledStrategies: r.enabled_count > 0,
  };
}

/** A dependency's two ends. */
export type DependencyLink = Pick<TableRow<FeatureDependencyRow>, 'parent' | 'child'>;

export const strategyKey = (feature: string, environment: string) => `${feature}\u0000${environment}`;

/** Strategy rows (in sort order) as strategies keyed by `strategyKey(feature, environment)`. */
export function groupStrategies(rows: readonly StrategyDbRow[], out = new Map<string, FeatureStrategy[]>()): Map<string, FeatureStrategy[]> {
  for (const r of rows) {
    const key = strategyKey(r.feature_name, r.environment);
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(toFeatureStrategy(r));
  }
  return out;
}

/**
 * Reads of the feature model in a fixed number of queries, whatever the number of features: each method takes a
 * batch of keys (what a dataloader collects) and answers with one statement.
 */
export class FeatureReadModel {
  constructor(private readonly em: EntityManager) {}

  async summaries(filter: FeatureFilter): Promise<FeatureSummary[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.project !== undefined) { where.push('project = ?'); params.push(filter.project); }
    if (filter.names !== undefined) {
      if (filter.names.length === 0) return [];
      where.push('name in (?)');
      params.push(filter.names as string[]);
    }
    if (filter.archived === true) where.push('archived_at is not null');
    if (filter.archived === false) where.push('archived_at is null');
    if (filter.query) { where.push(`position(lower(?) in lower(name)) > 0`); params.push(filter.query); }
    if (filter.type) { where.push('type = ?'); params.push(filter.type); }
    if (filter.after !== undefined) { where.push('name > ?'); params.push(filter.after); }
    const limit = filter.limit !== undefined ? ` limit ${Math.max(0, Math.floor(filter.limit))}` : '';
    const rows: FeatureDbRow[] = await this.em.execute(
      `select ${FEATURE_COLUMNS} from features ${where.length ? `where ${where.join(' and ')}` : ''} order by name${limit}`, params);
    return rows.map(toFeatureSummary);
  }

  /**
   * The first `limit` features (by name) of each of several projects, in one statement: what a GraphQL list of
   * projects asks for when each selects `features(first: n)`.
   */
  async summariesByProject(projects: readonly string[], filter: Omit<FeatureFilter, 'project' | 'names' | 'limit'>, limit: number): Promise<Map<string, FeatureSummary[]>> {
    const out = new Map<string, FeatureSummary[]>(projects.map((p) => [p, []]));
    if (projects.length === 0) return out;
    const where: string[] = ['project in (?)'];
    const params: unknown[] = [projects as string[]];
    if (filter.archived === true) where.push('archived_at is not null');
    if (filter.archived === false) where.push('archived_at is null');
    if (filter.query) { where.push(`position(lower(?) in lower(name)) > 0`); params.push(filter.query); }
    if (filter.type) { where.push('type = ?'); params.push(filter.type); }
    if (filter.after !== undefined) { where.push('name > ?'); params.push(filter.after); }
    params.push(Math.max(0, Math.floor(limit)));
    const rows: FeatureDbRow[] = await this.em.execute(
      `select ${FEATURE_COLUMNS} from (
         select ${FEATURE_COLUMNS}, row_number() over (partition by project order by name) as rn from features where ${where.join(' and ')}
       ) ranked where rn <= ? order by project, name`, params);
    for (const r of rows) out.get(r.project)?.push(toFeatureSummary(r));
    return out;
  }

  async summary(name: string): Promise<FeatureSummary | undefined> {
    return (await this.summaries({ names: [name] }))[0];
  }

  /**
   * The environments of each feature: those linked to its project and switched on (D6), by sort order then name,
   * with strategy counts aggregated in SQL. The names are joined as an unnested array rather than tested with
   * `in (...)`: with a page of 1000 features, planning a 1000-element `in` list twice cost about as much as running the query.
   */
  async environments(names: readonly string[]): Promise<Map<string, FeatureEnvironmentState[]>> {
    const out = new Map<string, FeatureEnvironmentState[]>(names.map((n) => [n, []]));
    if (names.length === 0) return out;
    const batch = [...out.keys()];
    const rows: FeatureEnvironmentDbRow[] = await this.em.execute(
      `select fe.feature_name, fe.environment, fe.enabled, fe.variants, fe.last_seen_at, e.type, e.sort_order,
              coalesce(s.total, 0)::int as strategy_count, coalesce(s.active, 0)::int as enabled_count
         from unnest(array[?]::text[]) as batch(name)
         join feature_environments fe on fe.feature_name = batch.name
         join features f on f.name = fe.feature_name
         join project_environments pe on pe.project_id = f.project and pe.environment_name = fe.environment
         join environments e on e.name = fe.environment and e.enabled
         left join (select x.feature_name, x.environment, count(*) as total, count(*) filter (where not x.disabled) as active
                      from unnest(array[?]::text[]) as wanted(name) join feature_strategies x on x.feature_name = wanted.name
                     group by x.feature_name, x.environment) s
                on s.feature_name = fe.feature_name and s.environment = fe.environment
        order by e.sort_order, e.name`, [batch, batch]);
    for (const r of rows) out.get(r.feature_name)?.push(toFeatureEnvironmentState(r));
    return out;
  }

  /** Strategies of the given features (every environment), keyed by `strategyKey(feature, environment)`, in sort order. */
  async strategies(names: readonly string[]): Promise<Map<string, FeatureStrategy[]>> {
    const out = new Map<string, FeatureStrategy[]>();
    if (names.length === 0) return out;
    const rows: StrategyDbRow[] = await this.em.execute(
      `select fs.id, fs.feature_name, fs.environment, fs.strategy_name, fs.title, fs.parameters, fs.constraints, fs.variants, fs.sort_order, fs.disabled,
              ${SEGMENT_IDS} as segments
         from feature_strategies fs left join feature_strategy_segments fss on fss.feature_strategy_id = fs.id
        where fs.feature_name in (?)
        group by fs.id
        order by fs.sort_order, fs.created_at, fs.id`, [names as string[]]);
    return groupStrategies(rows, out);
  }

  /** Strategies by id (missing ids are absent from the map). */
  async strategiesById(ids: readonly string[]): Promise<Map<string, FeatureStrategy & { environment: string }>> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return new Map();
    const rows: StrategyDbRow[] = await this.em.execute(
      `select fs.id, fs.feature_name, fs.environment, fs.strategy_name, fs.title, fs.parameters, fs.constraints, fs.variants, fs.sort_order, fs.disabled,
              ${SEGMENT_IDS} as segments
         from feature_strategies fs left join feature_strategy_segments fss on fss.feature_strategy_id = fs.id
        where fs.id in (?)
        group by fs.id`, [valid]);
    return new Map(rows.map((r) => [r.id, { ...toFeatureStrategy(r), environment: r.environment }]));
  }

  async tags(names: readonly string[]): Promise<Map<string, Tag[]>> {
    const out = new Map<string, Tag[]>(names.map((n) => [n, []]));
    if (names.length === 0) return out;
    const rows: Array<Pick<TableRow<FeatureTagRow>, 'feature_name' | 'tag_type' | 'tag_value'>> = await this.em.execute(
      `select feature_name, tag_type, tag_value from feature_tags where feature_name in (?) order by tag_type, tag_value`, [names as string[]]);
    for (const r of rows) out.get(r.feature_name)?.push({ type: r.tag_type, value: r.tag_value });
    return out;
  }

  /** The environments each feature was last seen in (by environment name), with when: what the archive lists. */
  async lastSeen(names: readonly string[]): Promise<Map<string, Array<{ environment: string; lastSeenAt: string }>>> {
    const out = new Map<string, Array<{ environment: string; lastSeenAt: string }>>(names.map((n) => [n, []]));
    if (names.length === 0) return out;
    const rows: Array<Pick<TableRow<FeatureEnvironmentRow>, 'feature_name' | 'environment' | 'last_seen_at'>> = await this.em.execute(
      `select feature_name, environment, last_seen_at from feature_environments where last_seen_at is not null and feature_name in (?) order by environment`,
      [names as string[]]);
    for (const r of rows) out.get(r.feature_name)?.push({ environment: r.environment, lastSeenAt: iso(r.last_seen_at as string) });
    return out;
  }

  /** Parent dependencies of each (child) feature. */
  async dependencies(names: readonly string[]): Promise<Map<string, FeatureDependency[]>> {
    const out = new Map<string, FeatureDependency[]>(names.map((n) => [n, []]));
    if (names.length === 0) return out;
    const rows: Array<Pick<TableRow<FeatureDependencyRow>, 'parent' | 'child' | 'enabled' | 'variants'>> = await this.em.execute(
      `select parent, child, enabled, variants from feature_dependencies where child in (?) order by parent`, [names as string[]]);
    for (const r of rows) {
      const dep: FeatureDependency = { feature: r.parent, enabled: r.enabled };
      if (r.variants && r.variants.length > 0) dep.variants = r.variants;
      out.get(r.child)?.push(dep);
    }
    return out;
  }

  /** Names of the features that depend on each (parent) feature. */
  async children(names: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(names.map((n) => [n, []]));
    if (names.length === 0) return out;
    const rows: DependencyLink[] = await this.em.execute(
      `select parent, child from feature_dependencies where parent in (?) order by child`, [names as string[]]);
    for (const r of rows) out.get(r.parent)?.push(r.child);
    return out;
  }

  /** Every feature type, by id. */
  async featureTypes(): Promise<FeatureType[]> {
    return (await this.em.find(FeatureTypeSchema, {}, { orderBy: { id: 'asc' }, disableIdentityMap: true })).map(toFeatureType);
  }

  /** Full features (the spec's Feature), in five more queries for any number of them. */
  async features(summaries: FeatureSummary[]): Promise<Feature[]> {
    const names = summaries.map((f) => f.name);
    const [envs, strategies, tags, deps, children] = await Promise.all([
      this.environments(names), this.strategies(names), this.tags(names), this.dependencies(names), this.children(names),
    ]);
    return assembleFeatures(summaries, envs, strategies, tags, deps, children);
  }

  /**
   * A feature just created, from what its insert returned (its row and its environment rows in the shape and order
   * `environments` reads): it has no strategies, tags or dependencies yet, so nothing needs reading.
   */
  newFeature(summary: FeatureSummary, environments: FeatureEnvironmentDbRow[]): Feature {
    const none = new Map();
    return assembleFeatures([summary], new Map([[summary.name, environments.map(toFeatureEnvironmentState)]]), none, none, none, none)[0];
  }
}

export function assembleFeatures(
  summaries: FeatureSummary[], envs: Map<string, FeatureEnvironmentState[]>, strategies: Map<string, FeatureStrategy[]>,
  tags: Map<string, Tag[]>, deps: Map<string, FeatureDependency[]>, children: Map<string, string[]>,
): Feature[] {
  return summaries.map((f) => {
    const environments = (envs.get(f.name) ?? []).map((e) => ({ ...e, strategies: strategies.get(strategyKey(f.name, e.name)) ?? [] }));
    return {
      ...f,
      enabled: environments.some((e) => e.enabled),
      environments,
      // Deprecated feature-level variants: those of the first environment that has any.
      variants: environments.find((e) => e.variants.length > 0)?.variants ?? [],
      tags: tags.get(f.name) ?? [],
      children: children.get(f.name) ?? [],
      dependencies: deps.get(f.name) ?? [],
    };
  });
}
