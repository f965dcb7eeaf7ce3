import type { EntityManager } from '@mikro-orm/postgresql';
import type { EnvironmentRow } from '../environments/environment.entity';
import type { FeatureTagRow } from '../features/feature-tag.entity';
import type { FeatureTypeRow } from '../features/feature.entity';
import type { TableRow } from '../rows';
import type { ProjectEnvironmentRow, ProjectRow } from './project.entity';
import { toFeatureEnvironmentState, toFeatureSummary, type FeatureDbRow, type FeatureEnvironmentDbRow } from '../features/feature.read-model';
import type { FeatureEnvironmentState, FeatureSummary } from '../features/feature.shapes';
import type { Tag } from '../tags/tag.shapes';
import type { OverviewEnvironment, OverviewFeature } from './feature-overview.shapes';

/**
 * The reads of the project feature overview (feature-overview.ts keeps the overviews): the counters an overview is
 * current at, and the overviews themselves, with the mapping of their rows into the objects every reader shares.
 */

export interface ProjectOverview {
  readonly project: string;
  /** The counters it was read at. */
  readonly version: string;
  /** Shared by every reader of this version: never modify. */
  readonly features: readonly OverviewFeature[];
  /** Per feature (same order): creation time and its type's lifetime, for the "potentially stale" count at any time. */
  readonly ages: ReadonlyArray<{ createdMs: number; lifetimeDays: number | null }>;
  /** What the health report's stats take from the project's whole history (archived features included). */
  readonly history: {
    /** When each archived feature of the project was archived (ms since the epoch, truncated to ms). */
    archivedMs: readonly number[];
    /**
     * Over every release feature of the project: whole days from its creation to its first enable in a production-type
     * environment after it, averaged to 1 decimal; null when none was ever enabled there.
     */
    avgDaysToProduction: number | null;
  };
  /**
   * The first `limit` features after `after` (of `type` when given), with their environments and tags as the feature
   * read model gives them. Undefined for a cursor naming a feature the overview does not list: where such a name falls
   * in the order is the database collation's call.
   */
  page(type: string | undefined, after: string | undefined, limit: number): ProjectFeaturePage | undefined;
}

/**
 * A page of a project's features. `environments` and `tags` (same order as `features`) come with a page read from the
 * overview: shared by every reader of its version and frozen, so a reader that tried to change one would throw.
 */
export interface ProjectFeaturePage {
  features: readonly FeatureSummary[];
  environments?: ReadonlyArray<readonly FeatureEnvironmentState[]>;
  tags?: ReadonlyArray<readonly Tag[]>;
}

/** What GraphQL reads of each feature (same order as the overview's features). */
interface GraphQLShapes {
  summaries: readonly FeatureSummary[];
  /** Only the environments with a configuration row, as the read model lists them. */
  environments: ReadonlyArray<readonly FeatureEnvironmentState[]>;
}

function overview(project: string, version: string, features: OverviewFeature[], ages: ProjectOverview['ages'], history: ProjectOverview['history'],
  shapes: GraphQLShapes): ProjectOverview {
  let positions: Map<string, number> | undefined;
  return {
    project,
    version,
    features,
    ages,
    history,
    page(type, after, limit) {
      let start = 0;
      if (after !== undefined) {
        positions ??= new Map(features.map((f, i) => [f.name, i]));
        const at = positions.get(after);
        if (at === undefined) return undefined;
        start = at + 1;
      }
      const page: Required<ProjectFeaturePage> = { features: [], environments: [], tags: [] };
      for (let i = start; i < features.length && page.features.length < limit; i++) {
        if (type && features[i].type !== type) continue; // an empty type filters nothing, as in the query
        (page.features as FeatureSummary[]).push(shapes.summaries[i]);
        (page.environments as Array<readonly FeatureEnvironmentState[]>).push(shapes.environments[i]);
        (page.tags as Array<readonly Tag[]>).push(features[i].tags);
      }
      return page;
    },
  };
}


/** A feature's row with its type's lifetime (null: the type has none, or there is no such type). */
type OverviewFeatureRow = FeatureDbRow & Pick<TableRow<FeatureTypeRow>, 'lifetime_days'>;
/** A configuration row without its environment's type and order (the overview joins them from the project's list). */
type ConfigurationRow = Omit<FeatureEnvironmentDbRow, 'type' | 'sort_order'>;

/** Reads the overviews of `projects` (those that exist) in five statements, whatever their number and size. */
export async function loadOverviews(em: EntityManager, projects: readonly string[], version: string): Promise<ProjectOverview[]> {
  const [environments, features, configurations, tags, histories] = await Promise.all([
    em.execute<Array<Pick<TableRow<ProjectEnvironmentRow>, 'project_id'> & Pick<TableRow<EnvironmentRow>, 'name' | 'type' | 'sort_order'>>>(
      `select pe.project_id, e.name, e.type, e.sort_order
         from project_environments pe join environments e on e.name = pe.environment_name and e.enabled
        where pe.project_id in (?) order by e.sort_order, e.name`, [projects as string[]]),
    em.execute<OverviewFeatureRow[]>(
      `select f.project, f.name, f.type, f.description, f.created_at, f.archived_at, f.stale, f.impression_data, f.last_seen_at, ft.lifetime_days
         from features f left join feature_types ft on ft.id = f.type
        where f.project in (?) and f.archived_at is null order by f.name`, [projects as string[]]),
    // Strategy counts per (feature, environment) grouped once over the project's strategies rather than per row.
    em.execute<ConfigurationRow[]>(
      `select fe.feature_name, fe.environment, fe.enabled, fe.last_seen_at,
              case when jsonb_typeof(fe.variants) = 'array' then fe.variants end as variants,
              coalesce(s.total, 0)::int as strategy_count, coalesce(s.active, 0)::int as enabled_count
         from features f
         join feature_environments fe on fe.feature_name = f.name
         left join (select fs.feature_name, fs.environment, count(*) as total, count(*) filter (where not fs.disabled) as active
                      from feature_strategies fs join features sf on sf.name = fs.feature_name
                     where sf.project in (?) and sf.archived_at is null
                     group by fs.feature_name, fs.environment) s
                on s.feature_name = fe.feature_name and s.environment = fe.environment
        where f.project in (?) and f.archived_at is null`, [projects as string[], projects as string[]]),
    em.execute<Array<Pick<TableRow<FeatureTagRow>, 'feature_name' | 'tag_type' | 'tag_value'>>>(
      `select t.feature_name, t.tag_type, t.tag_value
         from feature_tags t join features f on f.name = t.feature_name
        where f.project in (?) and f.archived_at is null order by t.feature_name, t.tag_type, t.tag_value`, [projects as string[]]),
    em.execute<Array<Pick<TableRow<ProjectRow>, 'id'> & { archived_ms: number[]; avg_days: number | null }>>(
      `select p.id,
              coalesce((select array_agg(floor(extract(epoch from f.archived_at) * 1000)::float8)
                          from features f where f.project = p.id and f.archived_at is not null), '{}') as archived_ms,
              ttp.avg_days
         from projects p
         -- The first enable of each release feature in a production-type environment after its creation (index
         -- events_enabled_feature_idx, migration 0002), in whole days, averaged to 1 decimal.
         cross join lateral (
           select round(avg(floor(extract(epoch from (first_enabled.at - f.created_at)) / 86400)::numeric), 1)::float8 as avg_days
             from features f
             cross join lateral (select min(ev.created_at) as at
                                   from events ev join environments e on e.name = ev.environment and e.type = 'production'
                                  where ev.feature_name = f.name and ev.type = 'feature-environment-enabled'
                                    and ev.created_at > f.created_at) first_enabled
            where f.project = p.id and f.type = 'release' and first_enabled.at is not null) ttp
        where p.id in (?)`, [projects as string[]]),
  ]);

  const envsByProject = group(environments, (r) => r.project_id);
  const configuration = new Map(configurations.map((r) => [`${r.feature_name}\u0000${r.environment}`, r]));
  const tagsByFeature = group(tags, (r) => r.feature_name);
  const featuresByProject = group(features, (r) => r.project);
  const historyOf = new Map(histories.map((h) => [h.id, { archivedMs: h.archived_ms.map(Number), avgDaysToProduction: h.avg_days }]));
  return projects.map((project) => {
    const envs = envsByProject.get(project) ?? [];
    const rows = featuresByProject.get(project) ?? [];
    const summaries: FeatureSummary[] = [];
    const states: Array<readonly FeatureEnvironmentState[]> = [];
    const list = rows.map((f): OverviewFeature => {
      summaries.push(Object.freeze(toFeatureSummary(f)));
      const configured: FeatureEnvironmentState[] = [];
      const environments = envs.map((e): OverviewEnvironment => {
        const c = configuration.get(`${f.name}\u0000${e.name}`);
        // An environment without a configuration row (which the feature service always writes) reads as disabled and
        // empty here; the read model does not list it.
        if (!c) {
          return { name: e.name, enabled: false, type: e.type, sortOrder: e.sort_order, variantCount: 0, lastSeenAt: null, hasStrategies: false, hasEnabledStrategies: false };
        }
        const state = Object.freeze(toFeatureEnvironmentState({ ...c, type: e.type, sort_order: e.sort_order }));
        Object.freeze(state.variants);
        configured.push(state);
        const { name, enabled, type, sortOrder, variantCount, lastSeenAt, hasStrategies, hasEnabledStrategies } = state;
        return { name, enabled, type, sortOrder, variantCount, lastSeenAt, hasStrategies, hasEnabledStrategies };
      });
      states.push(Object.freeze(configured));
      const tags = (tagsByFeature.get(f.name) ?? []).map((t) => Object.freeze({ value: t.tag_value, type: t.tag_type }));
      const { type, description, name, createdAt, stale, impressionData, lastSeenAt } = summaries[summaries.length - 1];
      return { type, description, name, createdAt, stale, impressionData, lastSeenAt, environments, tags: Object.freeze(tags) as OverviewFeature['tags'] };
    });
    const ages = rows.map((f) => ({ createdMs: new Date(f.created_at).getTime(), lifetimeDays: f.lifetime_days }));
    return overview(project, version, list, ages, historyOf.get(project) ?? { archivedMs: [], avgDaysToProduction: null }, { summaries, environments: states });
  });
}


/**
 * The version the overviews of `ids` are read at (`<model_version>.<last_seen_version>`) and which of those projects
 * exist, in one statement.
 */
export async function readOverviewVersion(em: EntityManager, ids: readonly string[]): Promise<{ version: string; existing: string[] }> {
  const [{ version, existing }] = await em.execute<Array<{ version: string; existing: string[] }>>(
    `select coalesce((select version from model_version where id = 1), 0)::text || '.' ||
            coalesce((select version from last_seen_version where id = 1), 0)::text as version,
            array(select id from projects where id in (?)) as existing`, [ids]);
  return { version, existing };
}

function group<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
