import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../access/principal';
import type { EventInput } from '../events/event.store';
import { iso } from '../dates';
import { NameExistsError } from '../errors';
import { normalizeConstraint } from '../features/constraints';
import { featureEventData } from '../features/feature.store';
import type { FeatureStrategy, FeatureSummary } from '../features/feature.shapes';
import { defaultStrategyFrom } from '../features/feature-strategy.rules';
import { defaultStrategySettings, strategyEventData } from '../features/feature-strategy.store';
import { toStrategyVariants } from '../features/variants';
import type { ImportPlan } from './import-plan';
import {
  deleteDependencies, deleteFeatureTags, deleteStrategies, insertContextFields, insertFeatures, insertFeatureTags, insertNewFeatureEnvironments,
  insertStrategies, insertStrategySegments, insertTags, insertTagTypes, updateFeatures, upsertDependencies, upsertFeatureEnvironments,
} from './import.store';

type Emit = (e: EventInput) => void;

/**
 * Writes a planned import inside the caller's transaction, set by set (one statement per kind of row, whatever the
 * number of features: import.store.ts), and queues the events each change writes when made directly: tag-type-created,
 * context-field-created, feature-created, feature-metadata-updated, feature-stale-on/off, feature-strategy-remove,
 * feature-strategy-add, feature-environment-enabled/disabled, feature-environment-variants-updated, tag-created,
 * feature-untagged, feature-tagged, feature-dependency-removed and feature-dependency-added. Only what the plan found
 * different is written, so importing the same payload again changes nothing and writes no per-feature event.
 */
export async function writeImport(tx: EntityManager, emit: Emit, principal: Principal, project: string, environment: string, plan: ImportPlan): Promise<void> {
  if (plan.newTagTypes.length) {
    const created = await insertTagTypes(tx, plan.newTagTypes);
    for (const t of created) emit({ type: 'tag-type-created', data: { name: t.name, description: t.description, icon: t.icon } });
  }
  if (plan.newContextFields.length) {
    const fields = plan.newContextFields.map((f) => ({
      name: f.name, description: f.description ?? null, stickiness: f.stickiness ?? false, sort_order: f.sortOrder ?? 10, legal_values: f.legalValues ?? [],
    }));
    const created = await insertContextFields(tx, fields);
    const done = new Set(created.map((c) => c.name));
    for (const f of fields) {
      if (done.has(f.name)) emit({ type: 'context-field-created', data: { name: f.name, description: f.description, stickiness: f.stickiness, sortOrder: f.sort_order, legalValues: f.legal_values } });
    }
  }

  await writeFeatures(tx, emit, principal, project, plan);
  await writeStrategies(tx, emit, project, environment, plan);
  await writeEnvironment(tx, emit, project, environment, plan);
  await writeTags(tx, emit, project, principal, plan);
  await writeDependencies(tx, emit, project, plan);
}

async function writeFeatures(tx: EntityManager, emit: Emit, principal: Principal, project: string, plan: ImportPlan): Promise<void> {
  const created = plan.features.filter((f) => f.change.action === 'create').map((f) => f.metadata);
  if (created.length) {
    const inserted = await insertFeatures(tx, project, principal.userId,
      created.map((m) => ({ name: m.name, type: m.type, description: m.description, stale: m.stale, impression_data: m.impressionData })));
    // A feature of the same name created meanwhile (the planning read saw none): the unique key decides, as for a direct create.
    if (inserted.length !== created.length) {
      const taken = created.find((m) => !inserted.some((i) => i.name === m.name));
      throw new NameExistsError(`A toggle with the name ${taken?.name} already exists`);
    }
    await insertNewFeatureEnvironments(tx, created.map((m) => m.name));
    const createdAt = new Map(inserted.map((i) => [i.name, iso(i.created_at)]));
    for (const m of created) {
      const summary: FeatureSummary = {
        ...m, project, createdAt: createdAt.get(m.name) as string, archivedAt: null, archived: false, lastSeenAt: null, favorite: false,
      };
      emit({ type: 'feature-created', project, featureName: m.name, data: featureEventData(summary) });
    }
  }
  const updated = plan.features.filter((f) => f.change.fields.length && f.before);
  if (updated.length) {
    await updateFeatures(tx, updated.map(({ metadata: m }) => ({ name: m.name, type: m.type, description: m.description, stale: m.stale, impression_data: m.impressionData })));
    for (const { metadata: m, before, change } of updated) {
      const prior = before as FeatureSummary;
      const after: FeatureSummary = { ...prior, type: m.type, description: m.description, impressionData: m.impressionData, stale: m.stale };
      if (change.fields.some((d) => d.field !== 'stale')) {
        emit({ type: 'feature-metadata-updated', project, featureName: m.name, data: featureEventData(after), preData: featureEventData(prior) });
      }
      if (after.stale !== prior.stale) emit({ type: after.stale ? 'feature-stale-on' : 'feature-stale-off', project, featureName: m.name });
    }
  }
}

async function writeStrategies(tx: EntityManager, emit: Emit, project: string, environment: string, plan: ImportPlan): Promise<void> {
  const removed = plan.features.flatMap((f) => f.change.strategies.removed);
  if (removed.length) {
    await deleteStrategies(tx, removed.map((s) => s.id));
    for (const s of removed) emit({ type: 'feature-strategy-remove', project, environment, featureName: s.featureName, preData: strategyEventData(s) });
  }
  const added: FeatureStrategy[] = [];
  for (const f of plan.features) {
    for (const s of f.change.strategies.added) added.push({ ...s, id: randomUUID(), featureName: f.change.feature });
  }
  // An environment the import switches on with no active strategy gets the default one, as switching it on directly does.
  const switchedOn = plan.features.filter((f) => f.change.enabled?.after === true
    && ![...f.change.strategies.added, ...f.kept].some((s) => !s.disabled));
  if (switchedOn.length) {
    const setting = (await defaultStrategySettings(tx, project, [environment])).get(environment);
    for (const f of switchedOn) {
      const d = defaultStrategyFrom(setting, f.change.feature);
      const strategy: FeatureStrategy = {
        id: randomUUID(), featureName: f.change.feature, name: d.name, title: d.title ?? null, disabled: false, sortOrder: d.sortOrder ?? 0,
        parameters: (d.parameters ?? {}) as Record<string, string>, constraints: (d.constraints ?? []).map(normalizeConstraint),
        variants: toStrategyVariants(d.variants ?? [], 'variants'), segments: d.segments ?? [],
      };
      f.change.strategies.added.push(strategy);
      added.push(strategy);
    }
  }
  if (!added.length) return;
  await insertStrategies(tx, project, environment, added.map((s) => ({
    id: s.id, feature_name: s.featureName, strategy_name: s.name, title: s.title, parameters: s.parameters, constraints: s.constraints,
    variants: s.variants, sort_order: s.sortOrder, disabled: s.disabled,
  })));
  const links = added.flatMap((s) => s.segments.map((segment) => ({ id: s.id, segment })));
  if (links.length) await insertStrategySegments(tx, links);
  for (const s of added) emit({ type: 'feature-strategy-add', project, environment, featureName: s.featureName, data: strategyEventData(s) });
}

async function writeEnvironment(tx: EntityManager, emit: Emit, project: string, environment: string, plan: ImportPlan): Promise<void> {
  const changed = plan.features.filter((f) => f.change.enabled || f.change.variants);
  if (!changed.length) return;
  await upsertFeatureEnvironments(tx, environment, changed.map((f) => ({
    feature_name: f.change.feature, enabled: f.change.enabled?.after ?? f.enabledBefore, variants: f.change.variants?.after ?? f.variantsBefore,
  })));
  for (const f of changed) {
    const name = f.change.feature;
    if (f.change.enabled) emit({ type: f.change.enabled.after ? 'feature-environment-enabled' : 'feature-environment-disabled', project, environment, featureName: name });
    if (f.change.variants) {
      emit({ type: 'feature-environment-variants-updated', project, environment, featureName: name, data: { variants: f.change.variants.after }, preData: { variants: f.change.variants.before } });
    }
  }
}

async function writeTags(tx: EntityManager, emit: Emit, project: string, principal: Principal, plan: ImportPlan): Promise<void> {
  const removed = plan.features.flatMap((f) => f.change.tags.removed.map((t) => ({ feature: f.change.feature, ...t })));
  if (removed.length) {
    await deleteFeatureTags(tx, removed);
    for (const t of removed) emit({ type: 'feature-untagged', project, featureName: t.feature, preData: { type: t.type, value: t.value } });
  }
  const added = plan.features.flatMap((f) => f.change.tags.added.map((t) => ({ feature: f.change.feature, ...t })));
  if (!added.length) return;
  const newTags = await insertTags(tx, added);
  for (const t of newTags) emit({ type: 'tag-created', data: { type: t.type, value: t.value } });
  await insertFeatureTags(tx, principal.userId, added);
  for (const t of added) emit({ type: 'feature-tagged', project, featureName: t.feature, data: { type: t.type, value: t.value } });
}

async function writeDependencies(tx: EntityManager, emit: Emit, project: string, plan: ImportPlan): Promise<void> {
  const removed = plan.features.flatMap((f) => f.change.dependencies.removed.map((d) => ({ child: f.change.feature, parent: d.feature })));
  if (removed.length) {
    await deleteDependencies(tx, removed);
    for (const d of removed) emit({ type: 'feature-dependency-removed', project, featureName: d.child, data: { feature: d.parent } });
  }
  const added = plan.features.flatMap((f) => f.change.dependencies.added.map((d) => ({ child: f.change.feature, dep: d })));
  if (!added.length) return;
  await upsertDependencies(tx, added.map(({ child, dep }) => ({ parent: dep.feature, child, enabled: dep.enabled, variants: dep.variants ?? [] })));
  for (const { child, dep } of added) emit({ type: 'feature-dependency-added', project, featureName: child, data: dep });
}
