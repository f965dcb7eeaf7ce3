import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import { normalizeConstraint } from '../features/constraints';
import type { Constraint } from '../features/constraint.shapes';
import { canonicalVariant } from '../features/variants';
import type { FeatureVariant, StrategyVariant } from '../features/variant.shapes';
import { healthRatings } from '../projects/health-report.read-model';
import { memberCounts } from '../projects/project.read-model';
import type { ProjectMode } from '../projects/project.shapes';
import { SEGMENT_SELECT, toSegment, type SegmentDbRow } from '../segments/segment.read-model';
import type { Segment } from '../segments/segment.shapes';
import type { StrategyParameter, StrategyParameterType } from '../strategies/strategy-definition.shapes';

/**
 * The reads of the legacy state export (state-export.service.ts): one statement per section, whatever the amount of
 * data (plus the projects' health and member counts), each run in the service's one REPEATABLE READ transaction, and
 * the mapping of their rows into the export's shapes.
 *
 * Rows are ordered by their names or ids, compared byte-wise (`collate "C"`), so two exports of the same data are
 * identical whichever database collation is in use.
 */

/** A feature as the export lists it (non-archived ones only). */
export interface StateExportFeature {
  name: string;
  description: string | null;
  type: string;
  project: string;
  stale: boolean;
  createdAt: string;
  lastSeenAt: string | null;
  impressionData: boolean;
  archivedAt: string | null;
  archived: boolean;
}

/** A custom (non built-in) strategy definition, in the spec's shape. */
export interface StateExportStrategy {
  title: string | null;
  name: string;
  displayName: string | null;
  description: string | null;
  editable: boolean;
  deprecated: boolean;
  parameters: StrategyParameter[];
}

/** A project's naming pattern: `{}` when the project has none. */
export interface StateExportFeatureNaming {
  pattern?: string;
  example?: string | null;
  description?: string | null;
}

export interface StateExportProject {
  id: string;
  name: string;
  description: string | null;
  /** Computed now, as the project's health report computes it (design D5). */
  health: number;
  /** Non-archived features. */
  featureCount: number;
  /** Distinct users holding a role in the project, directly or through a group. */
  memberCount: number;
  createdAt: string;
  updatedAt: string | null;
  /** Always false: an export has no caller's favourites. */
  favorite: boolean;
  mode: ProjectMode;
  defaultStickiness: string;
  featureNaming: StateExportFeatureNaming;
}

export interface StateExportTagType {
  name: string;
  description: string | null;
  icon: string | null;
}

export interface StateExportTag {
  type: string;
  value: string;
}

export interface StateExportFeatureTag {
  featureName: string;
  tagType: string;
  tagValue: string;
  createdByUserId: number | null;
}

/** A feature strategy: `strategyName`, not `name`; no sort order (the list's order is the evaluation order) and no segments. */
export interface StateExportFeatureStrategy {
  id: string;
  featureName: string;
  projectId: string;
  environment: string;
  strategyName: string;
  title: string | null;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: StrategyVariant[];
  createdAt: string;
  disabled: boolean;
}

export interface StateExportEnvironment {
  name: string;
  type: string;
  sortOrder: number;
  enabled: boolean;
  protected: boolean;
}

export interface StateExportFeatureEnvironment {
  enabled: boolean;
  featureName: string;
  environment: string;
  variants: FeatureVariant[];
}

/** A segment in the export: as both doors return it. */
export type StateExportSegment = Segment;

export interface StateExportFeatureStrategySegment {
  featureStrategyId: string;
  segmentId: number;
}

/** The whole export: every key always present; a section left out is an empty list. */
export interface StateExport {
  version: 4;
  features: StateExportFeature[];
  strategies: StateExportStrategy[];
  projects: StateExportProject[];
  tagTypes: StateExportTagType[];
  tags: StateExportTag[];
  featureTags: StateExportFeatureTag[];
  featureStrategies: StateExportFeatureStrategy[];
  environments: StateExportEnvironment[];
  featureEnvironments: StateExportFeatureEnvironment[];
  segments: StateExportSegment[];
  featureStrategySegments: StateExportFeatureStrategySegment[];
}

/** Only features that are not archived: every feature-linked section is limited to them, through this join. */
const LIVE_FEATURES = 'join features f on f.name = x.feature_name and f.archived_at is null';

interface FeatureDbRow {
  name: string; description: string | null; type: string; project: string; stale: boolean; created_at: Date;
  last_seen_at: Date | null; impression_data: boolean; archived_at: Date | null;
}
interface StrategyDbRow {
  name: string; display_name: string | null; title: string | null; description: string | null; built_in: boolean; deprecated: boolean;
  parameters: Array<Partial<StrategyParameter> & { name: string }> | null;
}
interface ProjectDbRow {
  id: string; name: string; description: string | null; mode: ProjectMode; default_stickiness: string;
  feature_naming_pattern: string | null; feature_naming_example: string | null; feature_naming_description: string | null;
  created_at: Date; updated_at: Date | null; feature_count: number;
}
interface FeatureStrategyDbRow {
  id: string; feature_name: string; project: string; environment: string; strategy_name: string; title: string | null;
  parameters: Record<string, string> | null; constraints: Constraint[] | null; variants: StrategyVariant[] | null; created_at: Date; disabled: boolean;
}

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
export async function stateStrategies(tx: EntityManager): Promise<StateExportStrategy[]> {
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
export async function stateTagTypes(tx: EntityManager): Promise<StateExportTagType[]> {
  const rows: Array<{ name: string; description: string | null; icon: string | null }> = await tx.execute(
    `select name, description, icon from tag_types order by name collate "C"`);
  return rows.map((r) => ({ name: r.name, description: r.description ?? null, icon: r.icon ?? null }));
}

/** Section `tags`. */
export async function stateTags(tx: EntityManager): Promise<StateExportTag[]> {
  const rows: Array<{ type: string; value: string }> = await tx.execute(
    `select type, value from tags order by type collate "C", value collate "C"`);
  return rows.map((r) => ({ type: r.type, value: r.value }));
}

/** Section `featureTags`: the tags of features that are not archived. */
export async function stateFeatureTags(tx: EntityManager): Promise<StateExportFeatureTag[]> {
  const rows: Array<{ feature_name: string; tag_type: string; tag_value: string; created_by_user_id: number | null }> = await tx.execute(
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
  const rows: Array<{ name: string; type: string; sort_order: number; enabled: boolean; protected: boolean }> = await tx.execute(
    `select name, type, sort_order, enabled, protected from environments order by name collate "C"`);
  return rows.map((r) => ({ name: r.name, type: r.type, sortOrder: r.sort_order, enabled: r.enabled, protected: r.protected }));
}

/** Section `featureEnvironments`: the environments of features that are not archived. */
export async function stateFeatureEnvironments(tx: EntityManager): Promise<StateExportFeatureEnvironment[]> {
  const rows: Array<{ feature_name: string; environment: string; enabled: boolean; variants: FeatureVariant[] | null }> = await tx.execute(
    `select x.feature_name, x.environment, x.enabled, x.variants from feature_environments x ${LIVE_FEATURES}
      order by x.feature_name collate "C", x.environment collate "C"`);
  return rows.map((r) => ({ enabled: r.enabled, featureName: r.feature_name, environment: r.environment, variants: (r.variants ?? []).map(canonicalVariant) }));
}

/** Section `segments`, as both doors return them. */
export async function stateSegments(tx: EntityManager): Promise<StateExportSegment[]> {
  const rows: SegmentDbRow[] = await tx.execute(`${SEGMENT_SELECT} order by s.id`);
  return rows.map(toSegment);
}

/** The segment links of the strategies of non-archived features (those `featureStrategies` lists), whatever the flags. */
export async function stateFeatureStrategySegments(tx: EntityManager): Promise<StateExportFeatureStrategySegment[]> {
  const rows: Array<{ feature_strategy_id: string; segment_id: number }> = await tx.execute(
    `select fss.feature_strategy_id, fss.segment_id from feature_strategy_segments fss
       join feature_strategies x on x.id = fss.feature_strategy_id ${LIVE_FEATURES}
      order by fss.feature_strategy_id, fss.segment_id`);
  return rows.map((r) => ({ featureStrategyId: r.feature_strategy_id, segmentId: r.segment_id }));
}
