import type { FeatureDependency, FeatureStrategy, FeatureSummary } from '../features/feature.shapes';
import type { Tag } from '../tags/tag.shapes';
import type { FeatureVariant } from '../features/variant.shapes';
import type { FieldDifference, ImportChange, PlannedStrategy } from './import-export.shapes';
import { canonicalJson, sameJson } from '../validation';
import type { ImportFeature } from './import-payload';

/**
 * What importing would do to one feature (issue 13 part 5): its metadata, strategies, switch and variants in the
 * environment, tags and dependencies as the import leaves them, compared with what it has now. Pure; import-plan.ts
 * calls it for every feature of the payload it imports.
 */

/** The metadata an import writes of a feature. */
export interface PlannedMetadata {
  name: string;
  type: string;
  description: string | null;
  impressionData: boolean;
  stale: boolean;
}

/** One feature of a plan: what changes, and what the writer needs of its state before. */
export interface PlannedFeature {
  change: ImportChange;
  metadata: PlannedMetadata;
  before?: FeatureSummary;
  /** Its strategies in the environment that the import keeps as they are. */
  kept: FeatureStrategy[];
  enabledBefore: boolean;
  variantsBefore: FeatureVariant[];
}

/** A strategy compared by what it does (its id and the order of its keys left out). */
const strategyShape = (s: PlannedStrategy | FeatureStrategy) => canonicalJson({
  name: s.name, title: s.title ?? null, disabled: s.disabled, sortOrder: s.sortOrder, parameters: s.parameters,
  constraints: s.constraints, variants: s.variants, segments: [...s.segments].sort((a, b) => a - b),
});
export const tagKey = (t: Tag) => `${t.type}\u0000${t.value}`;
const depShape = (d: FeatureDependency) => canonicalJson({ feature: d.feature, enabled: d.enabled, variants: d.variants ?? [] });

/** Items of `a` not matched one for one by an item of `b` with the same key (a multiset difference, order kept). */
function without<T, U>(a: readonly T[], b: readonly U[], keyA: (x: T) => string, keyB: (x: U) => string): T[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(keyB(x), (left.get(keyB(x)) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(keyA(x)) ?? 0;
    if (n === 0) return true;
    left.set(keyA(x), n - 1);
    return false;
  });
}

/** What a feature has now, and what the payload gives it (undefined: the payload leaves that part alone). */
export interface FeatureInputs {
  strategies: PlannedStrategy[];
  currentStrategies: FeatureStrategy[];
  environment?: { enabled: boolean; variants?: FeatureVariant[] };
  currentEnvironment?: { enabled: boolean; variants: FeatureVariant[] };
  /** The imported tags, or undefined when the payload has no `featureTags` (tags are then left alone). */
  tags?: Tag[];
  currentTags: Tag[];
  dependencies?: FeatureDependency[];
  currentDependencies: FeatureDependency[];
}

/** The feature's change, the metadata the import writes, and what the writer needs of its state before. */
export function planFeature(f: ImportFeature, existing: FeatureSummary | undefined, x: FeatureInputs): PlannedFeature {
  const metadata: PlannedMetadata = {
    name: f.name,
    type: f.type ?? existing?.type ?? 'release',
    description: f.description !== undefined ? f.description : existing?.description ?? null,
    impressionData: f.impressionData ?? existing?.impressionData ?? false,
    stale: f.stale ?? existing?.stale ?? false,
  };
  const fields: FieldDifference[] = [];
  if (existing) {
    for (const field of ['type', 'description', 'impressionData', 'stale'] as const) {
      if (existing[field] !== metadata[field]) fields.push({ field, before: existing[field], after: metadata[field] });
    }
  }
  const added = without(x.strategies, x.currentStrategies, strategyShape, strategyShape);
  const removed = without(x.currentStrategies, x.strategies, strategyShape, strategyShape);
  const before = x.currentEnvironment ?? { enabled: false, variants: [] };
  const hasActive = x.strategies.some((s) => !s.disabled);
  let enabledAfter = x.environment?.enabled ?? before.enabled;
  // The invariant direct edits keep: an environment that is on has an active strategy. Switched on by the import
  // without one, it gets the default strategy (as switching on directly does: added when written); left on by an
  // import that removes the last active one, it goes off (as removing that strategy directly does).
  if (enabledAfter && !hasActive && x.environment?.enabled !== true) enabledAfter = false;
  const variantsAfter = x.environment?.variants ?? before.variants;
  const tagsAfter = x.tags ?? x.currentTags;
  const depsAfter = x.dependencies ?? x.currentDependencies;
  const change: ImportChange = {
    feature: f.name,
    action: existing ? 'update' : 'create',
    fields,
    strategies: { added, removed },
    enabled: enabledAfter !== before.enabled ? { before: before.enabled, after: enabledAfter } : null,
    variants: sameJson(before.variants, variantsAfter) ? null : { before: before.variants, after: variantsAfter },
    tags: { added: without(tagsAfter, x.currentTags, tagKey, tagKey), removed: without(x.currentTags, tagsAfter, tagKey, tagKey) },
    dependencies: { added: without(depsAfter, x.currentDependencies, depShape, depShape), removed: without(x.currentDependencies, depsAfter, (d) => d.feature, (d) => d.feature) },
  };
  if (existing && !fields.length && !added.length && !removed.length && !change.enabled && !change.variants
    && !change.tags.added.length && !change.tags.removed.length && !change.dependencies.added.length && !change.dependencies.removed.length) {
    change.action = 'unchanged';
  }
  const kept = without(x.currentStrategies, removed, (s) => s.id, (s) => s.id);
  return { change, metadata, before: existing, kept, enabledBefore: before.enabled, variantsBefore: before.variants };
}
