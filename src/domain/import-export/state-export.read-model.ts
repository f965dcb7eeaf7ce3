import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import { normalizeConstraint } from '../features/constraints';
import type { Constraint } from '../features/constraint.shapes';
import type { FeatureEnvironmentRow } from '../features/feature-environment.entity';
import type { FeatureStrategyRow, FeatureStrategySegmentRow } from '../features/feature-strategy.entity';
import type { FeatureTagRow } from '../features/feature-tag.entity';
import type { FeatureRow } from '../features/feature.entity';
import { canonicalVariant } from '../features/variants';
import type { FeatureVariant, StrategyVariant } from '../features/variant.shapes';
import type { EnvironmentRow } from '../environments/environment.entity';
import { healthRatings } from '../projects/health-report.read-model';
import type { ProjectRow } from '../projects/project.entity';
import { memberCounts } from '../projects/project.read-model';
import type { ProjectMode } from '../projects/project.shapes';
import type { TableRow } from '../rows';
import { SEGMENT_SELECT, toSegment, type SegmentDbRow } from '../segments/segment.read-model';
import type { Segment } from '../segments/segment.shapes';
import type { StrategyDefinitionRow } from '../strategies/strategy-definition.entity';
import type { StrategyDefinition, StrategyParameter, StrategyParameterType } from '../strategies/strategy-definition.shapes';
import type { TagRow, TagTypeRow } from '../tags/tag.entity';
import type { Tag, TagType } from '../tags/tag.shapes';
import type {
  StateExportEnvironment, StateExportFeature, StateExportFeatureEnvironment, StateExportFeatureStrategy, StateExportFeatureStrategySegment,
  StateExportFeatureTag, StateExportProject,
} from './state-export.shapes';

/**
 * The reads of the legacy state export (state-export.service.ts): one statement per section, whatever the amount of
 * data (plus the projects' health and member counts), each run in the service's one REPEATABLE READ transaction, and
 * the mapping of their rows into the export's shapes.
 *
 * Rows are ordered by their names or ids, compared byte-wise (`collate "C"`), so two exports of the same data are
 * identical whichever database collation is in use.
 */

/** Only features that are not archived: every feature-linked section is limited to them, through this join. */
const LIVE_FEATURES = 'join features f on f.name = x.feature_name and f.archived_at is null';

type FeatureDbRow = Pick<TableRow<FeatureRow>,
  'name' | 'description' | 'type' | 'project' | 'stale' | 'created_at' | 'last_seen_at' | 'impression_data' | 'archived_at'>;
type StrategyDbRow = Pick<TableRow<StrategyDefinitionRow>, 'name' | 'display_name' | 'title' | 'description' | 'built_in' | 'deprecated' | 'parameters'>;
/** With its count of non-archived features. */
type ProjectDbRow = Pick<TableRow<ProjectRow>,
  'id' | 'name' | 'description' | 'mode' | 'default_stickiness' | 'feature_naming_pattern' | 'feature_naming_example' | 'feature_naming_description'
  | 'created_at' | 'updated_at'> & { feature_count: number };
type FeatureStrategyDbRow = Pick<TableRow<FeatureStrategyRow>,
  'id' | 'feature_name' | 'project' | 'environment' | 'strategy_name' | 'title' | 'parameters' | 'constraints' | 'variants' | 'created_at' | 'disabled'>;

/** Section `features`: the features that are not archived. */
export async function stateFeatures(tx: EntityManager): Promise<StateExportFeature[]> {
  const rows: FeatureDbRow[] = await tx.execute(
    `select name, description, type, project, stale, created_at, last_seen_at, impression_data, archived_at
       from features where archived_at is null order by name collate "C"`);
  return rows.map((r) => ({
    name: r.name,
    description: r.description ?? null,
    type: r.type,
    project: r.project,
    stale: r.stale,
    createdAt: iso(r.created_at),
    lastSeenAt: isoOrNull(r.last_seen_at),
    impressionData: r.impression_data,
    archivedAt: isoOrNull(r.archived_at),
    archived: r.archived_at !== null,
  }));
}

/** Section `strategies`: the custom (not built-in) strategy definitions. */
export async function stateStrategies(tx: EntityManager): Promise<StrategyDefinition[]> {
  const rows: StrategyDbRow[] = await tx.execute(
    `select name, display_name, title, description, built_in, deprecated, parameters
       from strategies where not built_in order by name collate "C"`);
  return rows.map((r) => ({
    title: r.title ?? null,
    name: r.name,
    displayName: r.display_name ?? null,
    description: r.description ?? null,
    editable: !r.built_in,
    deprecated: r.deprecated,
    parameters: (r.parameters ?? []).map((p) => ({
      name: p.name,
      type: (p.type ?? 'string') as StrategyParameterType,
      description: p.description ?? '',
      required: p.required ?? false,
    })),
  }));
}

/** Section `projects`, with each one's health and member count computed now. */
export async function stateProjects(tx: EntityManager): Promise<StateExportProject[]> {
  const rows: ProjectDbRow[] = await tx.execute(
    `select p.id, p.name, p.description, p.mode, p.default_stickiness,
            p.feature_naming_pattern, p.feature_naming_example, p.feature_naming_description, p.created_at, p.updated_at,
            (select count(*) from features f where f.project = p.id and f.archived_at is null)::int as feature_count
       from projects p order by p.id collate "C"`);
  const health = await healthRatings(tx, rows.map((r) => r.id));
  const members = await memberCounts(tx, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description ?? null,
    health: health.get(r.id) ?? 100,
    featureCount: r.feature_count,
    memberCount: members.get(r.id) ?? 0,
    createdAt: iso(r.created_at),
    updatedAt: isoOrNull(r.updated_at),
    favorite: false,
    mode: r.mode,
    defaultStickiness: r.default_stickiness,
    featureNaming: r.feature_naming_pattern === null
      ? {}
      : { pattern: r.feature_naming_pattern, example: r.feature_naming_example ?? null, description: r.feature_naming_description ?? null },
  }));
}

/** Section `tagTypes`. */
export async function stateTagTypes(tx: EntityManager): Promise<TagType[]> {
  const rows: Array<Pick<TableRow<TagTypeRow>, 'name' | 'description' | 'icon'>> = await tx.execute(
    `select name, description, icon from tag_types order by name collate "C"`);
  return rows.map((r) => ({ name: r.name, description: r.description ?? null, icon: r.icon ?? null }));
}

/** Section `tags`. */
export async function stateTags(tx: EntityManager): Promise<Tag[]> {
  const rows: Array<Pick<TableRow<TagRow>, 'type' | 'value'>> = await tx.execute(
    `select type, value from tags order by type collate "C", value collate "C"`);
  return rows.map((r) => ({ type: r.type, value: r.value }));
}

/** Section `featureTags`: the tags of features that are not archived. */
export async function stateFeatureTags(tx: EntityManager): Promise<StateExportFeatureTag[]> {
  const rows: Array<Pick<TableRow<FeatureTagRow>, 'feature_name' | 'tag_type' | 'tag_value' | 'created_by_user_id'>> = await tx.execute(
    `select x.feature_name, x.tag_type, x.tag_value, x.created_by_user_id from feature_tags x ${LIVE_FEATURES}
      order by x.feature_name collate "C", x.tag_type collate "C", x.tag_value collate "C"`);
  return rows.map((r) => ({ featureName: r.feature_name, tagType: r.tag_type, tagValue: r.tag_value, createdByUserId: r.created_by_user_id ?? null }));
}

/** Section `featureStrategies`: the strategies of features that are not archived, in evaluation order per environment. */
export async function stateFeatureStrategies(tx: EntityManager): Promise<StateExportFeatureStrategy[]> {
  const rows: FeatureStrategyDbRow[] = await tx.execute(
    `select x.id, x.feature_name, x.project, x.environment, x.strategy_name, x.title, x.parameters, x.constraints, x.variants, x.created_at, x.disabled
       from feature_strategies x ${LIVE_FEATURES}
      order by x.feature_name collate "C", x.environment collate "C", x.sort_order, x.created_at, x.id`);
  return rows.map((r) => ({
    id: r.id,
    featureName: r.feature_name,
    projectId: r.project,
    environment: r.environment,
    strategyName: r.strategy_name,
    title: r.title ?? null,
    parameters: r.parameters ?? {},
    constraints: (r.constraints ?? []).map(normalizeConstraint),
    variants: (r.variants ?? []).map(canonicalVariant),
    createdAt: iso(r.created_at),
    disabled: r.disabled,
  }));
}

/** Section `environments`. */
export async function stateEnvironments(tx: EntityManager): Promise<StateExportEnvironment[]> {
  const rows: Array<Pick<TableRow<EnvironmentRow>, 'name' | 'type' | 'sort_order' | 'enabled' | 'protected'>> = await tx.execute(
    `select name, type, sort_order, enabled, protected from environments order by name collate "C"`);
  return rows.map((r) => ({ name: r.name, type: r.type, sortOrder: r.sort_order, enabled: r.enabled, protected: r.protected }));
}

/** Section `featureEnvironments`: the environments of features that are not archived. */
export async function stateFeatureEnvironments(tx: EntityManager): Promise<StateExportFeatureEnvironment[]> {
  const rows: Array<Pick<TableRow<FeatureEnvironmentRow>, 'feature_name' | 'environment' | 'enabled' | 'variants'>> = await tx.execute(
    `select x.feature_name, x.environment, x.enabled, x.variants from feature_environments x ${LIVE_FEATURES}
      order by x.feature_name collate "C", x.environment collate "C"`);
  return rows.map((r) => ({ enabled: r.enabled, featureName: r.feature_name, environment: r.environment, variants: (r.variants ?? []).map(canonicalVariant) }));
}

/** Section `segments`, as both doors return them. */
export async function stateSegments(tx: EntityManager): Promise<Segment[]> {
  const rows: SegmentDbRow[] = await tx.execute(`${SEGMENT_SELECT} order by s.id`);
  return rows.map(toSegment);
}

/** The segment links of the strategies of non-archived features (those `featureStrategies` lists), whatever the flags. */
export async function stateFeatureStrategySegments(tx: EntityManager): Promise<StateExportFeatureStrategySegment[]> {
  const rows: Array<Pick<TableRow<FeatureStrategySegmentRow>, 'feature_strategy_id' | 'segment_id'>> = await tx.execute(
    `select fss.feature_strategy_id, fss.segment_id from feature_strategy_segments fss
       join feature_strategies x on x.id = fss.feature_strategy_id ${LIVE_FEATURES}
      order by fss.feature_strategy_id, fss.segment_id`);
  return rows.map((r) => ({ featureStrategyId: r.feature_strategy_id, segmentId: r.segment_id }));
}
