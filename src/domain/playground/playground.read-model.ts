import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeConstraint } from '../features/constraints';
import type { FeatureDependencyRow } from '../features/feature-dependency.entity';
import type { FeatureEnvironmentRow } from '../features/feature-environment.entity';
import type { FeatureRow } from '../features/feature.entity';
import { canonicalVariant } from '../features/variants';
import { SEGMENT_IDS, type StrategyDbRow } from '../features/feature.read-model';
import type { TableRow } from '../rows';
import type { SegmentSchema } from '../segments/segment.entity';
import type { PlaygroundDependencyInput, PlaygroundFeatureInput, PlaygroundSegmentInput, PlaygroundStrategyInput } from './types';

/** What one evaluation needs, per environment: every active feature of the chosen projects, and all segments. */
export interface PlaygroundSnapshot {
  features: Map<string, PlaygroundFeatureInput[]>;
  segments: PlaygroundSegmentInput[];
}

/**
 * Loads the snapshot the engine evaluates in five statements, whatever the number of features or environments:
 * features, their environment rows, their strategies (with segment ids), their dependencies, and the segments.
 * A feature without a row for an environment (not linked to it, or an unknown environment) is present, switched off,
 * with no strategies, as Unleash's left join gives it.
 */
export class PlaygroundReadModel {
  constructor(private readonly em: EntityManager) {}

  async load(environments: readonly string[], projects: readonly string[] | '*'): Promise<PlaygroundSnapshot> {
    const all = projects === '*';
    if (!all && projects.length === 0) return { features: new Map(environments.map((e) => [e, []])), segments: await this.segments() };
    const projectFilter = all ? '' : ' and f.project in (?)';
    const projectParams = all ? [] : [projects as string[]];
    const envs = environments as string[];
    const [features, envRows, strategyRows, dependencyRows, segments] = await Promise.all([
      this.em.execute(`select f.name, f.project, f.impression_data from features f where f.archived_at is null${projectFilter} order by f.created_at, f.name`, projectParams) as Promise<PlaygroundFeatureDbRow[]>,
      this.em.execute(
        `select fe.feature_name, fe.environment, fe.enabled, fe.variants from feature_environments fe join features f on f.name = fe.feature_name
          where f.archived_at is null and fe.environment in (?)${projectFilter}`, [envs, ...projectParams]) as Promise<PlaygroundEnvDbRow[]>,
      this.em.execute(
        `select fs.id, fs.feature_name, fs.environment, fs.strategy_name, fs.title, fs.parameters, fs.constraints, fs.variants, fs.sort_order, fs.disabled,
                ${SEGMENT_IDS} as segments
           from feature_strategies fs join features f on f.name = fs.feature_name
           left join feature_strategy_segments fss on fss.feature_strategy_id = fs.id
          where f.archived_at is null and fs.environment in (?)${projectFilter}
          group by fs.id
          order by fs.sort_order, fs.created_at, fs.id`, [envs, ...projectParams]) as Promise<StrategyDbRow[]>,
      this.em.execute(
        `select d.parent, d.child, d.enabled, d.variants from feature_dependencies d join features f on f.name = d.child
          where f.archived_at is null${projectFilter} order by d.parent`, projectParams) as Promise<PlaygroundDependencyDbRow[]>,
      this.segments(),
    ]);

    return { features: assemblePlaygroundFeatures(environments, features, envRows, strategyRows, dependencyRows), segments };
  }

  private async segments(): Promise<PlaygroundSegmentInput[]> {
    const rows: Array<Pick<TableRow<InferEntity<typeof SegmentSchema>>, 'id' | 'name' | 'constraints'>> = await this.em.execute(
      `select id, name, constraints from segments order by id`);
    return rows.map(toPlaygroundSegment);
  }
}

/** A segment as the engine reads it. */
export const toPlaygroundSegment = (r: Pick<TableRow<InferEntity<typeof SegmentSchema>>, 'id' | 'name' | 'constraints'>): PlaygroundSegmentInput =>
  ({ id: r.id, name: r.name, constraints: (r.constraints ?? []).map(normalizeConstraint) });

export type PlaygroundFeatureDbRow = Pick<TableRow<FeatureRow>, 'name' | 'project' | 'impression_data'>;
export type PlaygroundEnvDbRow = Pick<TableRow<FeatureEnvironmentRow>, 'feature_name' | 'environment' | 'enabled' | 'variants'>;
export type PlaygroundDependencyDbRow = Pick<TableRow<FeatureDependencyRow>, 'parent' | 'child' | 'enabled' | 'variants'>;

/**
 * The engine's input per environment from the rows of features (in the order results are wanted), their environment
 * rows, strategies (in evaluation order) and dependencies: the live rows, or a past state's (src/domain/history).
 */
export function assemblePlaygroundFeatures(
  environments: readonly string[], features: readonly PlaygroundFeatureDbRow[], envRows: readonly PlaygroundEnvDbRow[],
  strategyRows: readonly StrategyDbRow[], dependencyRows: readonly PlaygroundDependencyDbRow[],
): Map<string, PlaygroundFeatureInput[]> {
  const dependencies = new Map<string, PlaygroundDependencyInput[]>();
  for (const d of dependencyRows) {
    const dep: PlaygroundDependencyInput = { feature: d.parent, enabled: d.enabled };
    if (d.variants && d.variants.length > 0) dep.variants = d.variants;
    let list = dependencies.get(d.child);
    if (!list) dependencies.set(d.child, (list = []));
    list.push(dep);
  }
  const byEnvironment = new Map<string, PlaygroundFeatureInput[]>();
  for (const environment of new Set(environments)) {
    const index = new Map<string, PlaygroundFeatureInput>();
    const list = features.map((f) => {
      const feature: PlaygroundFeatureInput = { name: f.name, project: f.project, enabled: false, strategies: [], variants: [], dependencies: dependencies.get(f.name) ?? [], impressionData: f.impression_data };
      index.set(f.name, feature);
      return feature;
    });
    byEnvironment.set(environment, list);
    for (const r of envRows) {
      if (r.environment !== environment) continue;
      const feature = index.get(r.feature_name);
      if (!feature) continue;
      feature.enabled = r.enabled;
      feature.variants = (r.variants ?? []).map(canonicalVariant);
    }
    for (const r of strategyRows) {
      if (r.environment !== environment) continue;
      index.get(r.feature_name)?.strategies.push({
        id: r.id,
        name: r.strategy_name,
        title: r.title,
        disabled: r.disabled,
        sortOrder: r.sort_order,
        parameters: r.parameters ?? {},
        constraints: (r.constraints ?? []).map(normalizeConstraint),
        variants: (r.variants ?? []).map(canonicalVariant),
        segments: r.segments ?? [],
      } satisfies PlaygroundStrategyInput);
    }
  }
  return byEnvironment;
}
