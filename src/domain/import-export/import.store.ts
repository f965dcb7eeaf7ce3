import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContextFieldRow } from '../context/context-field.entity';
import type { FeatureDependencyRow } from '../features/feature-dependency.entity';
import type { FeatureEnvironmentRow } from '../features/feature-environment.entity';
import type { FeatureStrategyRow } from '../features/feature-strategy.entity';
import type { FeatureRow } from '../features/feature.entity';
import { PRE_LIVE_ON_SWITCH } from '../lifecycle/lifecycle.store';
import type { TableRow } from '../rows';
import type { TagRow } from '../tags/tag.entity';
import type { TagTypeDbRow } from '../tags/tag.store';

/**
 * The writes of a batch import (import-writer.ts says which rows and events each one is for), set by set: each list
 * travels as one jsonb parameter and is unpacked with `jsonb_to_recordset`, so a kind of row costs one statement
 * however many features the import has (and no bound-parameter limit applies).
 */

/** JSON for `jsonb_to_recordset`: one parameter however many rows. */
const recordset = (rows: unknown[]) => JSON.stringify(rows);

/**
 * The lock every change of the project's count of features takes (rule 2 in change.ts): an advisory lock per project,
 * as creating a feature takes it (feature.store.ts), so imports and creates in the project take turns.
 */
export async function lockFeatureLimit(tx: EntityManager, project: string): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`features.limit:${project}`]);
}

/** The tag types that did not exist, as created. */
export async function insertTagTypes(tx: EntityManager, tagTypes: TagTypeDbRow[]): Promise<TagTypeDbRow[]> {
  return tx.execute(
    `insert into tag_types (name, description, icon) select r.name, r.description, r.icon from jsonb_to_recordset(?::jsonb) as r(name text, description text, icon text)
     on conflict do nothing returning name, description, icon`, [recordset(tagTypes)]);
}

export type ContextFieldDbRow = Pick<TableRow<ContextFieldRow>, 'name' | 'description' | 'stickiness' | 'sort_order' | 'legal_values'>;

/** The names of the context fields that did not exist, as created. */
export async function insertContextFields(tx: EntityManager, fields: ContextFieldDbRow[]): Promise<Array<Pick<ContextFieldDbRow, 'name'>>> {
  return tx.execute(
    `insert into context_fields (name, description, stickiness, sort_order, legal_values)
     select r.name, r.description, r.stickiness, r.sort_order, r.legal_values from jsonb_to_recordset(?::jsonb) as r(name text, description text, stickiness boolean, sort_order int, legal_values jsonb)
     on conflict do nothing returning name`, [recordset(fields)]);
}

/** A feature's metadata as the import writes it. */
export type FeatureMetadataRow = Pick<TableRow<FeatureRow>, 'name' | 'type' | 'description' | 'stale' | 'impression_data'>;

/** The new features (a name taken meanwhile is left out: the unique key decides), with their creation times. */
export async function insertFeatures(tx: EntityManager, project: string, userId: number | null | undefined, features: FeatureMetadataRow[]): Promise<Array<Pick<TableRow<FeatureRow>, 'name' | 'created_at'>>> {
  return tx.execute(
    `insert into features (name, project, type, description, stale, impression_data, created_by_user_id)
     select r.name, ?, r.type, r.description, r.stale, r.impression_data, ?::int from jsonb_to_recordset(?::jsonb) as r(name text, type text, description text, stale boolean, impression_data boolean)
     on conflict (name) do nothing returning name, created_at`,
    [project, userId, recordset(features)]);
}

/** The new features' environments: every environment of their project, switched off. */
export async function insertNewFeatureEnvironments(tx: EntityManager, names: string[]): Promise<void> {
  await tx.execute(
    `insert into feature_environments (feature_name, environment, enabled) select f.name, pe.environment_name, false
       from features f join project_environments pe on pe.project_id = f.project where f.name in (?)`, [names]);
}

export async function updateFeatures(tx: EntityManager, features: FeatureMetadataRow[]): Promise<void> {
  await tx.execute(
    `update features f set type = r.type, description = r.description, stale = r.stale, impression_data = r.impression_data
       from jsonb_to_recordset(?::jsonb) as r(name text, type text, description text, stale boolean, impression_data boolean) where f.name = r.name`,
    [recordset(features)]);
}

export async function deleteStrategies(tx: EntityManager, ids: string[]): Promise<void> {
  await tx.execute(`delete from feature_strategies where id in (?)`, [ids]);
}

/** A strategy as the import writes it. */
export type StrategyDbRow = Pick<TableRow<FeatureStrategyRow>,
  'id' | 'feature_name' | 'strategy_name' | 'title' | 'parameters' | 'constraints' | 'variants' | 'sort_order' | 'disabled'>;

export async function insertStrategies(tx: EntityManager, project: string, environment: string, strategies: StrategyDbRow[]): Promise<void> {
  await tx.execute(
    `insert into feature_strategies (id, feature_name, project, environment, strategy_name, title, parameters, constraints, variants, sort_order, disabled)
     select r.id, r.feature_name, ?, ?, r.strategy_name, r.title, r.parameters, r.constraints, r.variants, r.sort_order, r.disabled
       from jsonb_to_recordset(?::jsonb) as r(id uuid, feature_name text, strategy_name text, title text, parameters jsonb, constraints jsonb, variants jsonb, sort_order int, disabled boolean)`,
    [project, environment, recordset(strategies)]);
}

export async function insertStrategySegments(tx: EntityManager, links: Array<{ id: string; segment: number }>): Promise<void> {
  await tx.execute(`insert into feature_strategy_segments (feature_strategy_id, segment_id) select r.id, r.segment from jsonb_to_recordset(?::jsonb) as r(id uuid, segment int)`,
    [recordset(links)]);
}

/** The features' switch and variants in the environment (the variants as the plan holds them: `overrides` may be left out). */
export async function upsertFeatureEnvironments(tx: EntityManager, environment: string, rows: Array<Pick<TableRow<FeatureEnvironmentRow>, 'feature_name' | 'enabled'> & { variants: unknown[] }>): Promise<void> {
  await tx.execute(
    `with switched as (
       insert into feature_environments (feature_name, environment, enabled, variants)
       select r.feature_name, ?, r.enabled, r.variants from jsonb_to_recordset(?::jsonb) as r(feature_name text, enabled boolean, variants jsonb)
       on conflict (feature_name, environment) do update set enabled = excluded.enabled, variants = excluded.variants
       returning feature_name, environment, enabled)
     ${PRE_LIVE_ON_SWITCH}`,
    [environment, recordset(rows)]);
}

export async function deleteFeatureTags(tx: EntityManager, tags: Array<{ feature: string; type: string; value: string }>): Promise<void> {
  await tx.execute(`delete from feature_tags ft using jsonb_to_recordset(?::jsonb) as r(feature text, type text, value text)
    where ft.feature_name = r.feature and ft.tag_type = r.type and ft.tag_value = r.value`, [recordset(tags)]);
}

/** The tags that did not exist, as created. */
export async function insertTags(tx: EntityManager, tags: Array<Pick<TableRow<TagRow>, 'type' | 'value'>>): Promise<Array<Pick<TableRow<TagRow>, 'type' | 'value'>>> {
  return tx.execute(
    `insert into tags (type, value) select distinct r.type, r.value from jsonb_to_recordset(?::jsonb) as r(type text, value text)
     on conflict do nothing returning type, value`, [recordset(tags)]);
}

export async function insertFeatureTags(tx: EntityManager, userId: number | null | undefined, tags: Array<{ feature: string; type: string; value: string }>): Promise<void> {
  await tx.execute(
    `insert into feature_tags (feature_name, tag_type, tag_value, created_by_user_id) select r.feature, r.type, r.value, ?::int from jsonb_to_recordset(?::jsonb) as r(feature text, type text, value text)
     on conflict do nothing`, [userId, recordset(tags)]);
}

export async function deleteDependencies(tx: EntityManager, edges: Array<{ child: string; parent: string }>): Promise<void> {
  await tx.execute(`delete from feature_dependencies d using jsonb_to_recordset(?::jsonb) as r(child text, parent text) where d.child = r.child and d.parent = r.parent`,
    [recordset(edges)]);
}

export async function upsertDependencies(tx: EntityManager, edges: Array<Pick<TableRow<FeatureDependencyRow>, 'parent' | 'child' | 'enabled' | 'variants'>>): Promise<void> {
  await tx.execute(
    `insert into feature_dependencies (parent, child, enabled, variants) select r.parent, r.child, r.enabled, r.variants
       from jsonb_to_recordset(?::jsonb) as r(parent text, child text, enabled boolean, variants jsonb)
     on conflict (parent, child) do update set enabled = excluded.enabled, variants = excluded.variants`,
    [recordset(edges)]);
}
