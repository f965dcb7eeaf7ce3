import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import { iso, isoOrNull } from '../dates';
import { FeatureReadModel, strategyKey } from '../features/feature.read-model';
import type { FeatureDependency, FeatureStrategy, FeatureSummary } from '../features/feature.shapes';
import type { Tag } from '../tags/tag.shapes';
import { PermissionSchema } from '../access/role.entity';
import { ContextFieldSchema, type ContextFieldRow } from '../context/context-field.entity';
import { EnvironmentSchema } from '../environments/environment.entity';
import { FeatureDependencySchema } from '../features/feature-dependency.entity';
import { FeatureEnvironmentSchema } from '../features/feature-environment.entity';
import { FeatureSchema, FeatureTypeSchema, type FeatureRow } from '../features/feature.entity';
import { canonicalVariant } from '../features/variants';
import type { FeatureVariant } from '../features/variant.shapes';
import type { ProjectRow } from '../projects/project.entity';
import type { TableRow } from '../rows';
import { SegmentSchema, type SegmentRow } from '../segments/segment.entity';
import type { StrategyDefinitionRow } from '../strategies/strategy-definition.entity';
import { TagTypeSchema, type TagTypeRow } from '../tags/tag.entity';
import type { ExportResult } from './import-export.shapes';
import type { ImportState } from './import-plan';
import { tagOf, type ImportRequest } from './import-payload';

/**
 * The reads of the batch export and of import planning (import-export.service.ts): the state an import is planned
 * against (in a fixed number of statements, locked when the import runs), the features an export chooses, and the
 * export's sections in the import payload's shape.
 */

const rows = <T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> => em.execute(sql, params) as Promise<T[]>;

/** A feature the import names, as its summary needs it. */
type FeatureDbRow = Pick<TableRow<FeatureRow>, 'name' | 'type' | 'description' | 'project' | 'stale' | 'impression_data' | 'created_at' | 'archived_at' | 'last_seen_at'>;

/** The target project: its limit, its naming pattern (renamed `pattern`, `example`, `description`) and its count of active features. */
type Project = TableRow<ProjectRow>;
type ProjectDbRow = Pick<Project, 'id' | 'feature_limit'> & {
  pattern: Project['feature_naming_pattern']; example: Project['feature_naming_example']; description: Project['feature_naming_description']; active: number;
};

/**
 * Reads what planning an import needs, one statement per kind, one after the other (inside the import's transaction
 * they share its one connection). `lock` locks the import's existing features `for update` first (rule 3 in change.ts:
 * the project is locked by the caller before).
 */
export async function readImportState(em: EntityManager, request: ImportRequest, lock?: { features: RowLock; definitions: RowLock }): Promise<ImportState> {
  const { project, environment, data } = request;
  const featureNames = [...new Set(data.features.map((f) => f.name))];
  const parents = (data.dependencies ?? []).flatMap((d) => d.dependencies.map((p) => p.feature));
  const named = [...new Set([...featureNames, ...parents])].sort();
  const constraintFields = data.featureStrategies.flatMap((s) => (s.constraints ?? []).map((c) => c.contextName));
  const fieldNames = [...new Set([...(data.contextFields ?? []).map((f) => f.name), ...constraintFields])].sort();
  const segmentNames = [...new Set((data.segments ?? []).map((s) => s.name))].sort();
  const tagTypeNames = [...new Set([...data.tagTypes.map((t) => t.name), ...(data.featureTags ?? []).map((t) => tagOf(t).type)])].sort();
  const strategyNames = [...new Set(data.featureStrategies.map((s) => s.name))].sort();

  // SQL where a read takes the import's row locks (`share` is no lock the ORM's finds take), or joins or counts.
  const featureRows = named.length === 0 ? [] : await rows<FeatureDbRow>(em, `select name, type, description, project, stale, impression_data, created_at, archived_at, last_seen_at from features where name in (?) order by name${lockClause(lock?.features)}`, [named]);
  const features = new Map<string, FeatureSummary>(featureRows.map((r) => [r.name, {
    name: r.name, type: r.type, description: r.description, project: r.project, stale: r.stale, impressionData: r.impression_data,
    createdAt: iso(r.created_at), archivedAt: isoOrNull(r.archived_at),
    archived: r.archived_at !== null, lastSeenAt: isoOrNull(r.last_seen_at), favorite: false,
  }]));
  const [projectRow] = await rows<ProjectDbRow>(em,
    `select p.id, p.feature_limit, p.feature_naming_pattern as pattern, p.feature_naming_example as example, p.feature_naming_description as description,
            (select count(*)::int from features f where f.project = p.id and f.archived_at is null) as active
       from projects p where p.id = ?`, [project]);
  const [envRow] = await rows<{ exists: boolean; linked: boolean }>(em,
    `select true as exists, exists (select 1 from project_environments where project_id = ? and environment_name = e.name) as linked from environments e where e.name = ?`, [project, environment]);
  const definitions = strategyNames.length === 0 ? [] : await rows<Pick<TableRow<StrategyDefinitionRow>, 'name' | 'built_in'>>(em,
    `select name, built_in from strategies where name in (?) order by name${lockClause(lock?.definitions)}`, [strategyNames]);
  const fields = fieldNames.length === 0 ? [] : await rows<Pick<TableRow<ContextFieldRow>, 'name' | 'legal_values'>>(em,
    `select name, legal_values from context_fields where name in (?) order by name${lockClause(lock?.definitions)}`, [fieldNames]);
  const segments = segmentNames.length === 0 ? [] : await rows<Pick<TableRow<SegmentRow>, 'id' | 'name'>>(em,
    `select id, name from segments where name in (?) and (project is null or project = ?) order by id${lockClause(lock?.definitions)}`, [segmentNames, project]);
  const tagTypes = tagTypeNames.length === 0 ? [] : await rows<Pick<TableRow<TagTypeRow>, 'name'>>(em,
    `select name from tag_types where name in (?) order by name${lockClause(lock?.definitions)}`, [tagTypeNames]);
  const featureTypes = await em.find(FeatureTypeSchema, {}, { fields: ['id'], disableIdentityMap: true });
  const permissionNames = await em.find(PermissionSchema, {}, { fields: ['name', 'displayName'], disableIdentityMap: true });
  // The current configuration of the features that would be overwritten: active ones of the target project.
  const current = featureNames.filter((n) => { const f = features.get(n); return f !== undefined && !f.archived && f.project === project; });
  const read = new FeatureReadModel(em);
  const strategies = current.length === 0 ? new Map<string, FeatureStrategy[]>() : await read.strategies(current);
  // Rows SQL writes (switches, variants, dependencies): read afresh, never from the identity map.
  const envStates = current.length === 0 ? [] : await em.find(FeatureEnvironmentSchema, { environment, featureName: { $in: current } },
    { fields: ['enabled', 'variants'], disableIdentityMap: true });
  const tags = current.length === 0 ? new Map<string, Tag[]>() : await read.tags(current);
  const edges = named.length === 0 ? [] : await em.find(FeatureDependencySchema, { $or: [{ child: { $in: named } }, { parent: { $in: named } }] },
    { orderBy: [{ child: 'asc' }, { parent: 'asc' }], disableIdentityMap: true });

  const segmentByName = new Map<string, number>();
  for (const s of segments) if (!segmentByName.has(s.name)) segmentByName.set(s.name, s.id);
  return {
    project: projectRow ? {
      id: projectRow.id, featureLimit: projectRow.feature_limit, activeFeatures: projectRow.active,
      naming: { pattern: projectRow.pattern, example: projectRow.example, description: projectRow.description },
    } : null,
    environment: { exists: envRow?.exists ?? false, linked: envRow?.linked ?? false },
    strategyDefinitions: new Map(definitions.map((d) => [d.name, { builtIn: d.built_in }])),
    contextFields: new Map(fields.map((f) => [f.name, new Set((f.legal_values ?? []).map((v) => v.value))])),
    features,
    segments: segmentByName,
    tagTypes: new Set(tagTypes.map((t) => t.name)),
    featureTypes: new Set(featureTypes.map((t) => t.id)),
    strategies: new Map(current.map((n) => [n, strategies.get(strategyKey(n, environment)) ?? []])),
    environments: new Map(envStates.map((e) => [e.featureName, { enabled: e.enabled, variants: e.variants ?? [] }])),
    tags,
    edges: edges.map((e) => ({ parent: e.parent, child: e.child, enabled: e.enabled, variants: e.variants ?? [] })),
    permissionNames: new Map(permissionNames.map((p) => [p.name, p.displayName])),
  };
}

// ---- export -------------------------------------------------------------------------------------------------

/** Whether the environment exists. */
export async function environmentExists(em: EntityManager, name: string): Promise<boolean> {
  return (await em.count(EnvironmentSchema, { name })) > 0;
}

/** The active features among these names, by name. */
export async function activeFeaturesNamed(em: EntityManager, names: string[]): Promise<string[]> {
  const rows = await em.find(FeatureSchema, { name: { $in: names }, archivedAt: null }, { fields: ['name'], orderBy: { name: 'asc' }, disableIdentityMap: true });
  return rows.map((r) => r.name);
}

/** The active features with a tag, by name. */
export async function activeFeaturesTagged(em: EntityManager, type: string, value: string): Promise<string[]> {
  // SQL: a join.
  const rows: Array<Pick<TableRow<FeatureRow>, 'name'>> = await em.execute(
    `select f.name from features f join feature_tags ft on ft.feature_name = f.name where ft.tag_type = ? and ft.tag_value = ? and f.archived_at is null order by f.name`,
    [type, value]);
  return rows.map((r) => r.name);
}

/** The active features of a project, by name. */
export async function activeFeaturesOfProject(em: EntityManager, project: string): Promise<string[]> {
  const rows = await em.find(FeatureSchema, { project, archivedAt: null }, { fields: ['name'], orderBy: { name: 'asc' }, disableIdentityMap: true });
  return rows.map((r) => r.name);
}

/** The chosen features' configuration in one environment, and the definitions it uses (their segments, context fields and tag types). */
export async function exportOf(em: EntityManager, names: string[], environment: string): Promise<ExportResult> {
  const empty: ExportResult = { features: [], featureStrategies: [], featureEnvironments: [], contextFields: [], featureTags: [], segments: [], tagTypes: [], dependencies: [] };
  if (names.length === 0) return empty;
  const read = new FeatureReadModel(em);
  const [summaries, strategies, envRows, tags, deps] = await Promise.all([
    read.summaries({ names }),
    read.strategies(names),
    // Rows SQL writes: read afresh, never from the identity map.
    em.find(FeatureEnvironmentSchema, { environment, featureName: { $in: names } }, { fields: ['enabled', 'variants'], orderBy: { featureName: 'asc' }, disableIdentityMap: true }),
    read.tags(names),
    read.dependencies(names),
  ]);
  const featureStrategies = names.flatMap((n) => (strategies.get(strategyKey(n, environment)) ?? []).map((s) => ({
    id: s.id, name: s.name, title: s.title, disabled: s.disabled, featureName: s.featureName, sortOrder: s.sortOrder, segments: s.segments,
    constraints: s.constraints, variants: s.variants, parameters: s.parameters,
  })));
  const segmentIds = [...new Set(featureStrategies.flatMap((s) => s.segments))].sort((a, b) => a - b);
  const fieldNames = [...new Set(featureStrategies.flatMap((s) => s.constraints.map((c) => (c as { contextName: string }).contextName)))].sort();
  const featureTags = names.flatMap((n) => (tags.get(n) ?? []).map((t) => ({ featureName: n, tagType: t.type, tagValue: t.value })));
  const tagTypeNames = [...new Set(featureTags.map((t) => t.tagType))].sort();
  const [segments, fields, tagTypes] = await Promise.all([
    segmentIds.length ? em.find(SegmentSchema, { id: { $in: segmentIds } }, { fields: ['name'], orderBy: { id: 'asc' }, disableIdentityMap: true }) : [],
    fieldNames.length ? em.find(ContextFieldSchema, { name: { $in: fieldNames } }, { fields: ['description', 'stickiness', 'sortOrder', 'legalValues'], orderBy: { name: 'asc' }, disableIdentityMap: true }) : [],
    tagTypeNames.length ? em.find(TagTypeSchema, { name: { $in: tagTypeNames } }, { fields: ['description', 'icon'], orderBy: { name: 'asc' }, disableIdentityMap: true }) : [],
  ]);
  return {
    features: summaries.map((f) => ({ name: f.name, type: f.type, description: f.description, project: f.project, stale: f.stale, impressionData: f.impressionData, archived: false })),
    featureStrategies,
    featureEnvironments: envRows.map((e) => ({ name: e.featureName, featureName: e.featureName, environment, enabled: e.enabled, variants: (e.variants ?? []).map(canonicalVariant) })),
    contextFields: fields.map((f) => ({ name: f.name, description: f.description ?? null, stickiness: f.stickiness, sortOrder: f.sortOrder, legalValues: f.legalValues ?? [] })),
    featureTags,
    segments: segments.map((s) => ({ id: s.id, name: s.name })),
    tagTypes: tagTypes.map((t) => ({ name: t.name, description: t.description ?? null, icon: t.icon ?? null })),
    dependencies: names.flatMap((n) => {
      const list = deps.get(n) ?? [];
      return list.length ? [{ feature: n, dependencies: list }] : [];
    }),
  };
}
