import type { FeatureStrategy } from '../features/feature.shapes';
import type { FeatureVariant } from '../features/variant.shapes';
import type { TableRow } from '../rows';
import { sameJson } from '../validation';
import type { ChangeRequestChangeRow } from './change-request.entity';

/**
 * The rules of stored changes, without I/O: what each change relies on (its target, recorded as a snapshot and
 * compared later to find conflicts), the order a request's changes are applied in, and the background changes that
 * order implies. change-request.read-model.ts reads what these need.
 */

/** A change as stored: its action's payload as validated when it was proposed, and its target as it was then. */
export type StoredChange = Pick<TableRow<ChangeRequestChangeRow>, 'id' | 'feature' | 'action' | 'payload' | 'snapshot'>;

/** A change with the environment of its request (a list of requests may span environments). */
export interface ChangeInEnvironment {
  environment: string;
  change: StoredChange;
}

/** The targets of some changes, read in one statement per kind. */
export interface Targets {
  features: Map<string, { project: string; archived: boolean }>;
  strategies: Map<string, FeatureStrategy & { environment: string }>;
  variants: Map<string, FeatureVariant[]>;
  segments: Map<number, { name: string; description: string | null; project: string | null; constraints: unknown }>;
}

/** What to read for `Targets`: the features, strategies, (feature, environment) pairs and segments the changes name. */
export interface TargetKeys {
  features: string[];
  strategyIds: string[];
  variantPairs: Array<{ feature: string; environment: string }>;
  segmentIds: number[];
}

export const variantKey = (feature: string, environment: string) => `${feature}\u0000${environment}`;
export const strategyId = (c: StoredChange) => String(c.payload.id ?? '');
export const segmentId = (c: StoredChange) => Number(c.payload.id);
const isStrategyChange = (c: StoredChange) => c.action === 'updateStrategy' || c.action === 'deleteStrategy';
const isSegmentChange = (c: StoredChange) => c.action === 'updateSegment' || c.action === 'deleteSegment';

/** A strategy as a change relies on it (its order is left out: reordering does not make an update stale). */
const strategyShape = (s: FeatureStrategy) => ({
  name: s.name, title: s.title, disabled: s.disabled, parameters: s.parameters, constraints: s.constraints, variants: s.variants, segments: s.segments,
});

export function targetKeys(items: readonly ChangeInEnvironment[]): TargetKeys {
  const features = new Set<string>();
  const strategyIds = new Set<string>();
  const variantPairs = new Map<string, [string, string]>();
  const segmentIds = new Set<number>();
  for (const { environment, change: c } of items) {
    if (c.feature !== null) features.add(c.feature);
    if (c.action === 'addDependency' && typeof c.payload.feature === 'string') features.add(c.payload.feature);
    if (isStrategyChange(c)) strategyIds.add(strategyId(c));
    if (c.action === 'reorderStrategy') for (const o of c.payload as unknown as Array<{ id: string }>) strategyIds.add(o.id);
    if (c.action === 'patchVariant' && c.feature !== null) variantPairs.set(variantKey(c.feature, environment), [c.feature, environment]);
    if (isSegmentChange(c)) segmentIds.add(segmentId(c));
  }
  return {
    features: [...features],
    strategyIds: [...strategyIds],
    variantPairs: [...variantPairs.values()].map(([feature, environment]) => ({ feature, environment })),
    segmentIds: [...segmentIds],
  };
}

/** What a change's target looks like in `t`: recorded with the change, compared later to find conflicts. */
export function targetShape(t: Targets, environment: string, c: StoredChange): unknown {
  if (isStrategyChange(c)) {
    const s = t.strategies.get(strategyId(c));
    return s ? strategyShape(s) : null;
  }
  if (c.action === 'patchVariant' && c.feature !== null) return { variants: t.variants.get(variantKey(c.feature, environment)) ?? [] };
  if (isSegmentChange(c)) return t.segments.get(segmentId(c)) ?? null;
  return null;
}

export interface ConflictReport {
  /** By feature name: the feature itself is gone, archived or in another project. */
  features: Map<string, string>;
  /** By change id: what the change relies on was deleted or changed since it was made. */
  changes: Map<number, string>;
}

/**
 * Conflicts of open requests' changes (all of one project), given their targets as they are now: the feature,
 * strategy, variants or segment a change relies on vanished or changed since the change was made (or last edited).
 */
export function conflictsIn(t: Targets, project: string, items: readonly ChangeInEnvironment[]): ConflictReport {
  const out: ConflictReport = { features: new Map(), changes: new Map() };
  const featureProblem = (name: string): string | undefined => {
    const f = t.features.get(name);
    if (!f) return `The feature ${name} no longer exists.`;
    if (f.archived) return `The feature ${name} was archived after this change was made.`;
    if (f.project !== project) return `The feature ${name} was moved to project ${f.project}.`;
    return undefined;
  };
  for (const { environment, change: c } of items) {
    if (c.feature !== null) {
      const problem = featureProblem(c.feature);
      if (problem) {
        out.features.set(c.feature, problem);
        continue;
      }
    }
    let problem: string | undefined;
    if (isStrategyChange(c)) {
      const s = t.strategies.get(strategyId(c));
      if (!s || s.featureName !== c.feature || s.environment !== environment) problem = `The strategy ${strategyId(c)} was deleted after this change was made.`;
      else if (c.snapshot !== null && !sameJson(c.snapshot, strategyShape(s))) problem = `The strategy ${strategyId(c)} was changed after this change was made.`;
    } else if (c.action === 'reorderStrategy') {
      const gone = (c.payload as unknown as Array<{ id: string }>).find((o) => {
        const s = t.strategies.get(o.id);
        return !s || s.featureName !== c.feature || s.environment !== environment;
      });
      if (gone) problem = `The strategy ${gone.id} was deleted after this change was made.`;
    } else if (c.action === 'patchVariant') {
      if (c.snapshot !== null && !sameJson(c.snapshot, targetShape(t, environment, c))) problem = `The variants of ${c.feature} in ${environment} were changed after this change was made.`;
    } else if (c.action === 'addDependency') {
      const parent = String(c.payload.feature);
      if (featureProblem(parent)) problem = `The parent feature ${parent} no longer exists, was archived or was moved to another project.`;
    } else if (isSegmentChange(c)) {
      const now = t.segments.get(segmentId(c));
      if (!now) problem = `The segment ${segmentId(c)} was deleted after this change was made.`;
      else if (c.snapshot !== null && !sameJson(c.snapshot, now)) problem = `The segment ${segmentId(c)} was changed after this change was made.`;
    }
    if (problem) out.changes.set(c.id, problem);
  }
  return out;
}

/**
 * The order changes are applied in: every change but switching on or off and archiving in the order they were made;
 * then switching on or off (so a strategy added by the same request counts, and no default strategy is added next to
 * it); archiving last (a feature archived first could not take the request's other changes), all archived features
 * together (a parent may go with the children that depend on it).
 */
const PHASE: ReadonlyMap<string, number> = new Map([['updateEnabled', 1], ['archiveFeature', 2]]);
export function applyOrder<T extends StoredChange>(changes: readonly T[]): T[] {
  return [...changes].sort((a, b) => (PHASE.get(a.action) ?? 0) - (PHASE.get(b.action) ?? 0) || a.id - b.id);
}

/** A request as the background changes look at it. */
export interface RequestChanges {
  id: number;
  environment: string;
  changes: readonly StoredChange[];
}

/** A feature's state in an environment now: switched on or not, and its strategies. */
export interface EnvironmentState {
  feature: string;
  environment: string;
  enabled: boolean | null;
  strategies: Array<{ id: string; disabled: boolean }>;
}

/** The background change found for a feature of a request (its payload is built by the read model). */
export interface BackgroundChange {
  /** `<request id>\0<feature>`. */
  key: string;
  feature: string;
  environment: string;
  action: 'addStrategy' | 'updateEnabled';
}

const backgroundRelevant = (c: StoredChange) => c.feature !== null && (c.action === 'updateEnabled' || isStrategyChange(c) || c.action === 'addStrategy');

/** The (feature, environment) pairs whose state the background changes depend on. */
export function backgroundTargets(requests: readonly RequestChanges[]): Array<{ feature: string; environment: string }> {
  const pairs = new Map<string, { feature: string; environment: string }>();
  for (const r of requests) {
    for (const c of r.changes) if (backgroundRelevant(c)) pairs.set(variantKey(c.feature as string, r.environment), { feature: c.feature as string, environment: r.environment });
  }
  return [...pairs.values()];
}

/**
 * The background change applying a request would make for each of its features:
 * - switching a feature on in an environment with no active strategy adds the project environment's default strategy
 *   (or a 100 % gradual rollout), unless the change asks to re-activate the disabled ones: `addStrategy`;
 * - removing or disabling the last active strategy of an enabled environment switches it off: `updateEnabled false`.
 * Simulated over the environment's current strategies (`states`) in the order the request would be applied
 * (`applyOrder`).
 */
export function backgroundChanges(requests: readonly RequestChanges[], states: readonly EnvironmentState[]): BackgroundChange[] {
  const out: BackgroundChange[] = [];
  const current = new Map(states.map((r) => [variantKey(r.feature, r.environment), r]));
  for (const r of requests) {
    const byFeature = new Map<string, StoredChange[]>();
    for (const c of applyOrder(r.changes)) {
      if (!backgroundRelevant(c)) continue;
      byFeature.set(c.feature as string, [...(byFeature.get(c.feature as string) ?? []), c]);
    }
    for (const [feature, changes] of byFeature) {
      const now = current.get(variantKey(feature, r.environment));
      let enabled = now?.enabled ?? false;
      const strategies = new Map((now?.strategies ?? []).map((s) => [s.id, s.disabled]));
      const active = () => [...strategies.values()].some((disabled) => !disabled);
      let switchedOff = false;
      let addsDefault = false;
      let switchedExplicitly = false;
      for (const c of changes) {
        const p = c.payload;
        if (c.action === 'addStrategy') strategies.set(`new:${c.id}`, p.disabled === true);
        else if (c.action === 'updateStrategy') {
          if (p.disabled !== undefined) strategies.set(strategyId(c), p.disabled === true);
        } else if (c.action === 'deleteStrategy') strategies.delete(strategyId(c));
        else if (c.action === 'updateEnabled') {
          switchedExplicitly = true;
          if (p.enabled === true && !active()) {
            if (p.shouldActivateDisabledStrategies === true && strategies.size > 0) for (const id of strategies.keys()) strategies.set(id, false);
            else {
              addsDefault = true;
              strategies.set('default', false);
            }
          }
          enabled = p.enabled === true;
          continue;
        }
        // Only updating and removing strategies switch an environment off (as the direct edits do).
        if (c.action !== 'addStrategy' && enabled && !active()) {
          enabled = false;
          switchedOff = true;
        }
      }
      const key = `${r.id}\u0000${feature}`;
      if (addsDefault) out.push({ key, feature, environment: r.environment, action: 'addStrategy' });
      else if (switchedOff && !switchedExplicitly) out.push({ key, feature, environment: r.environment, action: 'updateEnabled' });
    }
  }
  return out;
}
