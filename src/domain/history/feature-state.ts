import type { FeatureDbRow, StrategyDbRow } from '../features/feature.read-model';
import type { FeatureEnvironmentRow } from '../features/feature-environment.entity';
import type { FeatureStrategyRow } from '../features/feature-strategy.entity';
import type { FeatureDependencyRow } from '../features/feature-dependency.entity';
import type { SegmentRow } from '../segments/segment.entity';
import type { TableRow } from '../rows';
import type { Tag } from '../tags/tag.shapes';

type Strategies = TableRow<FeatureStrategyRow>;

/**
 * A feature's whole configuration as a version records it (`feature_version_state()`, migration 0024): column values as
 * stored, lists in the order every read gives them. Readers turn it into the rows the live reads return (`stateRows`)
 * and map those as they map live rows, so a past answer is made by the same code as the present one.
 */
export interface StrategyState {
  id: string;
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  parameters: Strategies['parameters'];
  constraints: Strategies['constraints'];
  variants: Strategies['variants'];
  segments: number[];
}

export interface EnvironmentState {
  name: string;
  /** Whether the feature has its row in the environment (strategies may exist without one). */
  configured: boolean;
  enabled: boolean;
  variants: TableRow<FeatureEnvironmentRow>['variants'];
  strategies: StrategyState[];
}

export interface FeatureState {
  name: string;
  project: string;
  type: string;
  description: string | null;
  stale: boolean;
  impressionData: boolean;
  /** ISO 8601 with microseconds (it orders features as their rows' `created_at` does). */
  createdAt: string;
  archivedAt: string | null;
  tags: Tag[];
  dependencies: Array<Pick<TableRow<FeatureDependencyRow>, 'enabled' | 'variants'> & { feature: string }>;
  environments: EnvironmentState[];
}

export interface SegmentState {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: TableRow<SegmentRow>['constraints'];
  createdAt: string;
}

/** The environment of a state by name (a list, so any name is safe), or undefined. */
export const environmentOf = (state: FeatureState, environment: string): EnvironmentState | undefined =>
  state.environments.find((e) => e.name === environment);

/** Rows of states, in the shapes the live reads select (strategy rows of `environments` only, when given). */
export interface StateRows {
  features: FeatureDbRow[];
  envRows: Array<Pick<TableRow<FeatureEnvironmentRow>, 'feature_name' | 'environment' | 'enabled' | 'variants'>>;
  strategyRows: StrategyDbRow[];
  dependencyRows: Array<Pick<TableRow<FeatureDependencyRow>, 'parent' | 'child' | 'enabled' | 'variants'>>;
}

export function stateRows(states: readonly FeatureState[], environments?: ReadonlySet<string>): StateRows {
  const out: StateRows = { features: [], envRows: [], strategyRows: [], dependencyRows: [] };
  for (const s of states) {
    out.features.push({
      name: s.name, type: s.type, description: s.description, project: s.project, stale: s.stale, impression_data: s.impressionData,
      created_at: s.createdAt, archived_at: s.archivedAt, last_seen_at: null,
    });
    for (const e of s.environments) {
      if (environments && !environments.has(e.name)) continue;
      if (e.configured) out.envRows.push({ feature_name: s.name, environment: e.name, enabled: e.enabled, variants: e.variants });
      for (const st of e.strategies) {
        out.strategyRows.push({
          id: st.id, feature_name: s.name, environment: e.name, strategy_name: st.name, title: st.title, parameters: st.parameters,
          constraints: st.constraints, variants: st.variants, sort_order: st.sortOrder, disabled: st.disabled, segments: st.segments,
        });
      }
    }
    for (const d of s.dependencies) out.dependencyRows.push({ parent: d.feature, child: s.name, enabled: d.enabled, variants: d.variants });
  }
  return out;
}
