/**
 * The Unleash client specification test vectors (npm @unleash/client-specification), read for tests that load their
 * `state` into flagdeck and judge what SDKs (or the engine) answer. Files 19 and 20 hold their state as a list of
 * delta events (what an SDK parses from the delta API); `specificationFiles` folds those into the same
 * `{features, segments}` shape the other files hold, as an SDK applying them would end up with.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Constraint } from '../../src/domain/features/constraint.shapes';
import type { FeatureVariant, StrategyVariant } from '../../src/domain/features/variant.shapes';
import type { PlaygroundContext, PlaygroundFeatureInput, PlaygroundSegmentInput } from '../../src/domain/playground/types';

export const SPEC_DIR = join(dirname(require.resolve('@unleash/client-specification/package.json')), 'specifications');
export const SPEC_VERSION: string = JSON.parse(readFileSync(join(SPEC_DIR, '..', 'package.json'), 'utf8')).version;

export interface SpecConstraint { contextName: string; operator: string; values?: string[]; value?: string; inverted?: boolean; caseInsensitive?: boolean }
export interface SpecVariant {
  name: string; weight: number; weightType?: string; stickiness?: string; payload?: { type: string; value: string };
  overrides?: Array<{ contextName: string; values: string[] }>;
}
export interface SpecStrategy { name: string; parameters?: Record<string, string>; constraints?: SpecConstraint[] | null; segments?: number[] | null; variants?: SpecVariant[] }
export interface SpecDependency { feature: string; enabled?: boolean; variants?: string[] }
export interface SpecFeature { name: string; enabled: boolean; strategies?: SpecStrategy[]; variants?: SpecVariant[]; dependencies?: SpecDependency[] }
export interface SpecSegment { id: number; name?: string; constraints?: SpecConstraint[] }
export interface SpecState { features: SpecFeature[]; segments: SpecSegment[] }
export interface SpecCase { description: string; context: PlaygroundContext; toggleName: string; expectedResult: unknown }
export interface SpecFile {
  fileName: string;
  /** Whether `state` was folded from a list of delta events (files 19 and 20). */
  fromEvents: boolean;
  state: SpecState;
  tests: SpecCase[];
  variantTests: SpecCase[];
}

type DeltaEvent =
  | { type: 'hydration'; features: SpecFeature[]; segments?: SpecSegment[] }
  | { type: 'feature-updated'; feature: SpecFeature }
  | { type: 'feature-removed'; featureName: string }
  | { type: 'segment-updated'; segment: SpecSegment }
  | { type: 'segment-removed'; segmentId: number };

/** The state a client holds after applying `events` in order (what unleash-client's repository does with them). */
export function foldDeltaEvents(events: DeltaEvent[]): SpecState {
  let features = new Map<string, SpecFeature>();
  let segments = new Map<number, SpecSegment>();
  for (const e of events) {
    switch (e.type) {
      case 'hydration':
        features = new Map(e.features.map((f) => [f.name, f]));
        segments = new Map((e.segments ?? []).map((s) => [s.id, s]));
        break;
      case 'feature-updated': features.set(e.feature.name, e.feature); break;
      case 'feature-removed': features.delete(e.featureName); break;
      case 'segment-updated': segments.set(e.segment.id, e.segment); break;
      case 'segment-removed': segments.delete(e.segmentId); break;
      default: throw new Error(`unknown delta event ${JSON.stringify(e)}`);
    }
  }
  return { features: [...features.values()], segments: [...segments.values()] };
}

/** Every file the package's index lists, in its order. */
export function specificationFiles(): SpecFile[] {
  const index: string[] = JSON.parse(readFileSync(join(SPEC_DIR, 'index.json'), 'utf8'));
  return index.map((fileName) => {
    const raw = JSON.parse(readFileSync(join(SPEC_DIR, fileName), 'utf8'));
    const fromEvents = Array.isArray(raw.state?.events);
    const state: SpecState = fromEvents ? foldDeltaEvents(raw.state.events) : { features: raw.state?.features ?? [], segments: raw.state?.segments ?? [] };
    return { fileName, fromEvents, state, tests: raw.tests ?? [], variantTests: raw.variantTests ?? [] };
  });
}

export function engineConstraint(c: SpecConstraint): Constraint {
  const out = { contextName: c.contextName, operator: c.operator, values: c.values ?? [], caseInsensitive: c.caseInsensitive ?? false, inverted: c.inverted ?? false } as Constraint;
  if (c.value !== undefined) out.value = c.value;
  return out;
}

function strategyVariant(v: SpecVariant): StrategyVariant {
  const out: StrategyVariant = { name: v.name, weight: v.weight, weightType: v.weightType === 'fix' ? 'fix' : 'variable', stickiness: v.stickiness ?? '' };
  if (v.payload) out.payload = v.payload as StrategyVariant['payload'];
  return out;
}

/** A specification state as the engine's input (one environment; strategies in list order). */
export function engineInput(state: SpecState): { features: PlaygroundFeatureInput[]; segments: PlaygroundSegmentInput[] } {
  const features = state.features.map((f): PlaygroundFeatureInput => ({
    name: f.name,
    project: 'default',
    enabled: f.enabled,
    strategies: (f.strategies ?? []).map((s, i) => ({
      id: `${f.name}#${i}`, name: s.name, title: null, disabled: false, sortOrder: i, parameters: s.parameters ?? {},
      constraints: (s.constraints ?? []).map(engineConstraint), variants: (s.variants ?? []).map(strategyVariant), segments: s.segments ?? [],
    })),
    variants: (f.variants ?? []).map((v): FeatureVariant => ({ ...strategyVariant(v), overrides: v.overrides ?? [] })),
    dependencies: (f.dependencies ?? []).map((d) => ({ feature: d.feature, enabled: d.enabled !== false, ...(d.variants ? { variants: d.variants } : {}) })),
  }));
  const segments = state.segments.map((s) => ({ id: s.id, name: s.name ?? `segment-${s.id}`, constraints: (s.constraints ?? []).map(engineConstraint) }));
  return { features, segments };
}
