import { normalizeConstraint } from '../features/constraints';
import { canonicalVariant } from '../features/variants';
import type { EnvironmentState, FeatureState, StrategyState } from './feature-state';

/**
 * The changes that bring a flag from its current state to a target state (issue 43's revert), as the normal write
 * path takes them: each step is one call of a service (or one change of a change request), in an order the services'
 * own rules do not undo. Within an environment: strategies are added and updated first, then the flag is switched
 * on (with an active strategy in place, so no default strategy is added), then strategies are removed, then it is
 * switched off (removing the last active strategy switches it off by itself), then its variants are set.
 */
export type RevertStep =
  | { action: 'createFeature'; project: string; payload: { name: string; type: string; description: string | null; impressionData: boolean } }
  | { action: 'reviveFeature' }
  | { action: 'moveFeature'; from: string; to: string }
  | { action: 'updateFeature'; payload: { type: string; description: string | null; impressionData: boolean; stale: boolean } }
  | { action: 'addTag'; payload: { type: string; value: string } }
  | { action: 'removeTag'; payload: { type: string; value: string } }
  | { action: 'addDependency'; payload: { feature: string; enabled: boolean; variants: string[] } }
  | { action: 'deleteDependency'; payload: { feature: string } }
  | { action: 'addStrategy'; environment: string; payload: StrategyPayload }
  | { action: 'updateStrategy'; environment: string; payload: StrategyPayload & { id: string } }
  | { action: 'deleteStrategy'; environment: string; payload: { id: string } }
  | { action: 'updateEnabled'; environment: string; payload: { enabled: boolean } }
  | { action: 'patchVariant'; environment: string; payload: { variants: unknown[] } }
  | { action: 'archiveFeature' };

/** A strategy as the admin API takes it (its stored values, constraints and variants in their API form). */
export interface StrategyPayload {
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  parameters: Record<string, string>;
  constraints: unknown[];
  variants: unknown[];
  segments: number[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const tagKey = (t: { type: string; value: string }) => JSON.stringify([t.type, t.value]);

export const strategyPayload = (s: StrategyState): StrategyPayload => ({
  name: s.name, title: s.title, disabled: s.disabled, sortOrder: s.sortOrder, parameters: s.parameters ?? {},
  constraints: (s.constraints ?? []).map(normalizeConstraint), variants: (s.variants ?? []).map(canonicalVariant), segments: s.segments,
});

/**
 * The steps from `current` (null: the flag does not exist) to `target`. With `environments`, only those environments'
 * configuration is brought back (the flag is still made to exist and be active where the target is).
 */
export function planRevert(current: FeatureState | null, target: FeatureState, environments?: ReadonlySet<string>): RevertStep[] {
  const steps: RevertStep[] = [];
  const whole = environments === undefined;
  let now: FeatureState;
  if (current === null) {
    steps.push({ action: 'createFeature', project: target.project, payload: { name: target.name, type: target.type, description: target.description, impressionData: target.impressionData } });
    now = { ...target, description: target.description, stale: false, archivedAt: null, tags: [], dependencies: [], environments: [] };
  } else {
    now = current;
    if (current.archivedAt !== null && target.archivedAt === null) steps.push({ action: 'reviveFeature' });
    if (current.project !== target.project) steps.push({ action: 'moveFeature', from: current.project, to: target.project });
  }
  if (whole) {
    const metadata = { type: target.type, description: target.description, impressionData: target.impressionData, stale: target.stale };
    if (!same({ type: now.type, description: now.description, impressionData: now.impressionData, stale: now.stale }, metadata)) {
      steps.push({ action: 'updateFeature', payload: metadata });
    }
    const had = new Set(now.tags.map(tagKey));
    const wanted = new Set(target.tags.map(tagKey));
    for (const t of now.tags) if (!wanted.has(tagKey(t))) steps.push({ action: 'removeTag', payload: t });
    for (const t of target.tags) if (!had.has(tagKey(t))) steps.push({ action: 'addTag', payload: t });
    const parents = new Map(target.dependencies.map((d) => [d.feature, d]));
    const keep = new Set<string>();
    for (const d of now.dependencies) {
      const want = parents.get(d.feature);
      if (want && same(d, want)) keep.add(d.feature);
      else steps.push({ action: 'deleteDependency', payload: { feature: d.feature } });
    }
    for (const d of target.dependencies) {
      if (!keep.has(d.feature)) steps.push({ action: 'addDependency', payload: { feature: d.feature, enabled: d.enabled, variants: d.variants ?? [] } });
    }
  }
  const names = new Set([...now.environments, ...target.environments].map((e) => e.name));
  for (const name of [...names].sort()) {
    if (environments && !environments.has(name)) continue;
    steps.push(...environmentSteps(name, now.environments.find((e) => e.name === name), target.environments.find((e) => e.name === name)));
  }
  if (whole && target.archivedAt !== null && now.archivedAt === null) steps.push({ action: 'archiveFeature' });
  return steps;
}

const OFF: EnvironmentState = { name: '', configured: false, enabled: false, variants: [], strategies: [] };

function environmentSteps(environment: string, current: EnvironmentState | undefined, target: EnvironmentState | undefined): RevertStep[] {
  const now = current ?? OFF;
  const want = target ?? OFF;
  const steps: RevertStep[] = [];
  // Strategies pair by id; a target strategy deleted since pairs with an equal one made since (an earlier revert
  // brought it back under a new id), so reverting twice changes nothing the second time.
  const byId = new Map(now.strategies.map((s) => [s.id, s]));
  const wantedIds = new Set(want.strategies.map((s) => s.id));
  const spare = now.strategies.filter((s) => !wantedIds.has(s.id));
  const kept = new Set<string>();
  for (const s of want.strategies) {
    const payload = strategyPayload(s);
    const existing = byId.get(s.id);
    if (existing) {
      kept.add(existing.id);
      if (!same(strategyPayload(existing), payload)) steps.push({ action: 'updateStrategy', environment, payload: { id: s.id, ...payload } });
      continue;
    }
    const twin = spare.find((c) => !kept.has(c.id) && same(strategyPayload(c), payload));
    if (twin) kept.add(twin.id);
    else steps.push({ action: 'addStrategy', environment, payload });
  }
  if (want.enabled && !now.enabled) steps.push({ action: 'updateEnabled', environment, payload: { enabled: true } });
  const deleted = now.strategies.filter((s) => !kept.has(s.id));
  for (const s of deleted) steps.push({ action: 'deleteStrategy', environment, payload: { id: s.id } });
  // Deleting the last active strategy switches the flag off by itself (the service does, with its event).
  const offByItself = deleted.length > 0 && want.strategies.every((s) => s.disabled);
  if (!want.enabled && now.enabled && !offByItself) steps.push({ action: 'updateEnabled', environment, payload: { enabled: false } });
  if (!same(now.variants ?? [], want.variants ?? [])) steps.push({ action: 'patchVariant', environment, payload: { variants: (want.variants ?? []).map(canonicalVariant) } });
  return steps;
}
