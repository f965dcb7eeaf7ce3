/**
 * Types of the pure evaluation engine (design §6): what a read model hands to `compile` and the client context
 * `evaluate` takes. The spec's "Playground evaluation result" it returns is inferred from its shape
 * (playground.shapes.ts), of which the engine imports only the types. No ORM and no I/O in this folder.
 */
import type { Constraint } from '../features/constraint.shapes';
import type { FeatureVariant, StrategyVariant } from '../features/variant.shapes';
import type { PlaygroundVariant } from './playground.shapes';

/** One strategy of a feature in the evaluated environment, as stored. */
export interface PlaygroundStrategyInput {
  id: string;
  name: string;
  title?: string | null;
  disabled: boolean;
  sortOrder: number;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: StrategyVariant[];
  /** Ids of attached segments; ids missing from the snapshot's segments are dropped (reference §3.2). */
  segments: number[];
}

/** A parent dependency: `enabled` false means the parent must be off; `variants` only applies when enabled. */
export interface PlaygroundDependencyInput {
  feature: string;
  enabled: boolean;
  variants?: string[];
}

/** A feature in the evaluated environment. A feature not linked to the environment is `enabled: false` with no strategies. */
export interface PlaygroundFeatureInput {
  name: string;
  project: string;
  /** The feature-environment `enabled` flag. */
  enabled: boolean;
  strategies: PlaygroundStrategyInput[];
  /** The feature-environment variants (group id = feature name). */
  variants: FeatureVariant[];
  dependencies: PlaygroundDependencyInput[];
  /** Whether SDKs emit impression events for it (the frontend API reports it per flag). */
  impressionData?: boolean;
}

export interface PlaygroundSegmentInput {
  id: number;
  name: string;
  constraints: Constraint[];
}

/**
 * The spec's Client context. `appName` is required by the API schema; the engine itself does not need it.
 * A field's value is the own property `context[name]` when truthy, else `properties[name]` when truthy (reference §3.4);
 * inherited members (`toString`, `__proto__`) are never values.
 * `environment` defaults to `"default"`: the playground's selected environment is not injected (reference §3.1).
 */
export interface PlaygroundContext {
  appName?: string;
  environment?: string;
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  /** RFC 3339; the evaluation time for DATE_AFTER / DATE_BEFORE, defaulting to now. */
  currentTime?: string | Date;
  properties?: Record<string, string>;
  [other: string]: unknown;
}

/** Injectable sources of non-determinism, so tests are deterministic. */
export interface EvaluationOptions {
  /** Uniform in [0, 1); default Math.random. Used by random stickiness and gradualRolloutRandom. */
  random?: () => number;
  /** Milliseconds since the epoch when the context has no `currentTime`; default Date.now. */
  now?: () => number;
}

/** The fast path's answer for one feature: what an SDK would see. */
export interface FeatureDecision {
  name: string;
  isEnabled: boolean;
  variant: PlaygroundVariant;
}
