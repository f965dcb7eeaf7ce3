import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeConstraint } from '../features/constraints';
import type { Constraint } from '../features/constraint.shapes';
import type { FeatureDependencyRow } from '../features/feature-dependency.entity';
import type { FeatureEnvironmentRow } from '../features/feature-environment.entity';
import type { FeatureStrategyRow } from '../features/feature-strategy.entity';
import type { FeatureRow } from '../features/feature.entity';
import { readModelVersion } from '../model-version.read-model';
import { canonicalVariant } from '../features/variants';
import type { FeatureVariant, StrategyVariant } from '../features/variant.shapes';
import { SEGMENT_IDS } from '../features/feature.read-model';
import type { TableRow } from '../rows';
import type { SegmentRow } from '../segments/segment.entity';
import type { ClientConstraint, ClientDependency, ClientFeature, ClientSegment, ClientStrategy } from './client-feature.shapes';

/**
 * What one client-API answer covers: the environment, the projects (already narrowed to the token's), and the query's
 * name prefix and tags. Every part is normalised (sorted, deduplicated) by whoever builds it, so equal scopes have
 * equal keys.
 */
export interface ClientFeatureScope {
  environment: string;
  /** `*`: every project; `[]`: none. */
  projects: readonly string[] | '*';
  namePrefix?: string;
  /** `[type, value]` pairs; a feature passes when it carries any of them. Empty: no tag filter. */
  tags: ReadonlyArray<readonly [string, string]>;
}

/** The features of a scope read in one snapshot, with the `model_version` that snapshot belongs to. */
export interface ClientFeatureSnapshot {
  version: string;
  /** By name; strategies reference segments by id. */
  features: ClientFeature[];
  /** The segments the features' strategies use, by id. */
  segments: ClientSegment[];
}

/** The segments a flag's strategies use. */
export function segmentIds(feature: ClientFeature): number[] {
  const ids = new Set<number>();
  for (const s of feature.strategies) for (const id of s.segments ?? []) ids.add(id);
  return [...ids];
}

/**
 * Reads what backend SDKs see of a scope in six statements, whatever the number of features, inside one REPEATABLE
 * READ, READ ONLY transaction: the version and the rows come from the same snapshot, so an answer cached under that
 * version is exactly that version's data (a change committed meanwhile moves the version and is read next time).
 *
 * As Unleash v5.8 answers SDKs: archived features are left out; a feature with no row for the environment is present,
 * off, with no strategies; disabled strategies are left out, and a feature whose strategies are all disabled is off
 * (as Unleash does since 5.0: an SDK would otherwise read an empty strategy list as "on for everyone").
 */
export async function loadClientFeatures(em: EntityManager, scope: ClientFeatureScope): Promise<ClientFeatureSnapshot> {
  return em.fork().transactional(async (tx) => {
    const version = await readModelVersion(tx);
    return { version, ...await readClientFeatures(tx, scope) };
  }, { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true, clear: true });
}

/**
 * The features of `scope` (only those of `names`, when given) and the segments their strategies use, read through `tx`
 * (the caller's snapshot): five statements at most, whatever the number of features.
 */
export async function readClientFeatures(tx: EntityManager, scope: ClientFeatureScope, names?: readonly string[]): Promise<Omit<ClientFeatureSnapshot, 'version'>> {
  if ((scope.projects !== '*' && scope.projects.length === 0) || names?.length === 0) return { features: [], segments: [] };
  const filter = featureFilter(scope, names);
  const env = scope.environment;
  const features = await tx.execute<ClientFeatureDbRow[]>(
    `select f.name, f.project, f.type, f.description, f.stale, f.impression_data from features f where ${filter.sql} order by f.name`, filter.params);
  if (features.length === 0) return { features: [], segments: [] };
  const envRows = await tx.execute<ClientEnvDbRow[]>(
    `select fe.feature_name, fe.enabled, fe.variants from feature_environments fe join features f on f.name = fe.feature_name
      where fe.environment = ? and ${filter.sql}`, [env, ...filter.params]);
  const strategyRows = await tx.execute<ClientStrategyDbRow[]>(
    `select fs.feature_name, fs.strategy_name, fs.parameters, fs.constraints, fs.variants, fs.disabled,
            ${SEGMENT_IDS} as segments
       from feature_strategies fs join features f on f.name = fs.feature_name
       left join feature_strategy_segments fss on fss.feature_strategy_id = fs.id
      where fs.environment = ? and ${filter.sql}
      group by fs.id
      order by fs.sort_order, fs.created_at, fs.id`, [env, ...filter.params]);
  const dependencyRows = await tx.execute<ClientDependencyDbRow[]>(
    `select d.parent, d.child, d.enabled, d.variants from feature_dependencies d join features f on f.name = d.child
      where ${filter.sql} order by d.parent`, filter.params);
  return { features: assembleClientFeatures(features, envRows, strategyRows, dependencyRows), segments: await readClientSegments(tx, usedSegmentIds(strategyRows)) };
}

/** The segments the enabled strategies of `rows` use: those a client answer carries. */
export function usedSegmentIds(rows: readonly ClientStrategyDbRow[]): number[] {
  const used = new Set<number>();
  for (const s of rows) if (!s.disabled) for (const id of s.segments ?? []) used.add(Number(id));
  return [...used];
}

/** The segments of `ids` that exist, in the client shape, by id. */
export async function readClientSegments(tx: EntityManager, ids: readonly number[]): Promise<ClientSegment[]> {
  if (ids.length === 0) return [];
  const rows = await tx.execute<SegmentDbRow[]>(`select id, name, constraints from segments where id in (?) order by id`, [[...ids]]);
  return rows.map(toSegment);
}

/** The segments any strategy of the flags `names` holds in `environment` (switched off or not, the flags archived or not). */
export async function readAttachedSegmentIds(tx: EntityManager, names: readonly string[], environment: string): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await tx.execute<Array<{ id: number | string }>>(
    `select distinct fss.segment_id as id from feature_strategy_segments fss join feature_strategies fs on fs.id = fss.feature_strategy_id
      where fs.feature_name in (?) and fs.environment = ?`, [[...names], environment]);
  return rows.map((r) => Number(r.id));
}

/** The segments of `ids` that an enabled strategy of a feature of `scope` uses (what a client of that scope holds). */
export async function readUsedClientSegments(tx: EntityManager, scope: ClientFeatureScope, ids: readonly number[]): Promise<ClientSegment[]> {
  if (ids.length === 0 || (scope.projects !== '*' && scope.projects.length === 0)) return [];
  const filter = featureFilter(scope);
  const rows = await tx.execute<SegmentDbRow[]>(
    `select s.id, s.name, s.constraints from segments s
      where s.id in (?) and exists (
        select 1 from feature_strategy_segments fss
          join feature_strategies fs on fs.id = fss.feature_strategy_id and fs.environment = ? and not fs.disabled
          join features f on f.name = fs.feature_name
         where fss.segment_id = s.id and ${filter.sql})
      order by s.id`, [[...ids], scope.environment, ...filter.params]);
  return rows.map(toSegment);
}

/** The `where` clause on `features f` for a scope, and its parameters. */
function featureFilter(scope: ClientFeatureScope, names?: readonly string[]): { sql: string; params: unknown[] } {
  const parts = ['f.archived_at is null'];
  const params: unknown[] = [];
  if (names) {
    parts.push('f.name in (?)');
    params.push([...names]);
  }
  if (scope.projects !== '*') {
    parts.push('f.project in (?)');
    params.push([...scope.projects]);
  }
  if (scope.namePrefix) {
    parts.push('starts_with(f.name, ?)');
    params.push(scope.namePrefix);
  }
  if (scope.tags.length > 0) {
    parts.push(`exists (select 1 from feature_tags t where t.feature_name = f.name and (${scope.tags.map(() => '(t.tag_type = ? and t.tag_value = ?)').join(' or ')}))`);
    for (const [type, value] of scope.tags) params.push(type, value);
  }
  return { sql: parts.join(' and '), params };
}

/**
 * Client features from their rows (in name order; strategies in evaluation order): the live rows, or a past state's
 * (src/domain/history), so both answer the same bytes.
 */
export function assembleClientFeatures(
  features: readonly ClientFeatureDbRow[], envRows: readonly ClientEnvDbRow[], strategyRows: readonly ClientStrategyDbRow[], dependencyRows: readonly ClientDependencyDbRow[],
): ClientFeature[] {
  const byName = new Map<string, ClientFeature>();
  const hasDisabled = new Set<string>();
  const out = features.map((f) => {
    const feature: ClientFeature = {
      name: f.name,
      type: f.type,
      description: f.description,
      enabled: false,
      stale: f.stale,
      impressionData: f.impression_data,
      project: f.project,
      strategies: [],
      variants: [],
    };
    byName.set(f.name, feature);
    return feature;
  });
  for (const r of envRows) {
    const feature = byName.get(r.feature_name);
    if (!feature) continue;
    feature.enabled = r.enabled;
    feature.variants = (r.variants ?? []).map(canonicalVariant);
  }
  for (const r of strategyRows) {
    const feature = byName.get(r.feature_name);
    if (!feature) continue;
    if (r.disabled) {
      hasDisabled.add(r.feature_name);
      continue;
    }
    const strategy: ClientStrategy = {
      name: r.strategy_name,
      constraints: (r.constraints ?? []).map(clientConstraint),
      parameters: r.parameters ?? {},
      variants: (r.variants ?? []).map(canonicalVariant),
    };
    if (r.segments && r.segments.length > 0) strategy.segments = r.segments.map(Number);
    feature.strategies.push(strategy);
  }
  for (const name of hasDisabled) {
    const feature = byName.get(name)!;
    if (feature.strategies.length === 0) feature.enabled = false;
  }
  for (const d of dependencyRows) {
    const feature = byName.get(d.child);
    if (!feature) continue;
    const dependency: ClientDependency = { feature: d.parent, enabled: d.enabled };
    if (d.enabled && d.variants && d.variants.length > 0) dependency.variants = d.variants;
    (feature.dependencies ??= []).push(dependency);
  }
  return out;
}

/**
 * A constraint as SDKs receive it: `caseInsensitive` and `inverted` only when true (SDKs read an absent flag as false,
 * and Unleash sends them only when they were given), so a large answer is not mostly repeated `false`s.
 */
export function clientConstraint(stored: Constraint): ClientConstraint {
  const { caseInsensitive, inverted, ...rest } = normalizeConstraint(stored);
  const out: ClientConstraint = rest;
  if (caseInsensitive) out.caseInsensitive = true;
  if (inverted) out.inverted = true;
  return out;
}

export const toSegment = (r: SegmentDbRow): ClientSegment => ({ id: Number(r.id), name: r.name, constraints: (r.constraints ?? []).map(clientConstraint) });

export type ClientFeatureDbRow = Pick<TableRow<FeatureRow>, 'name' | 'project' | 'type' | 'description' | 'stale' | 'impression_data'>;
export type ClientEnvDbRow = Pick<TableRow<FeatureEnvironmentRow>, 'feature_name' | 'enabled' | 'variants'>;
/** With the ids of the segments it uses (`SEGMENT_IDS`: an aggregate over its links). */
export type ClientStrategyDbRow = Pick<TableRow<FeatureStrategyRow>, 'feature_name' | 'strategy_name' | 'parameters' | 'constraints' | 'variants' | 'disabled'>
  & { segments: Array<number | string> | null };
export type ClientDependencyDbRow = Pick<TableRow<FeatureDependencyRow>, 'parent' | 'child' | 'enabled' | 'variants'>;
export type SegmentDbRow = Pick<TableRow<SegmentRow>, 'id' | 'name' | 'constraints'>;
