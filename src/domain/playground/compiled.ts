/**
 * The compiled form of a snapshot (what `compile` builds and evaluation only reads): the codes of operators, strategy
 * kinds and stickiness, and the shapes of compiled constraints, segments, variants, strategies, dependencies and
 * features. Output fragments only the detailed result needs are null until first use (see evaluate.ts), then frozen
 * and shared.
 */
import type { RE2JS } from 're2js';
import type SemVer from 'semver/classes/semver';
import type { Constraint } from '../features/constraint.shapes';
import type { FeatureVariant, StrategyVariant } from '../features/variant.shapes';
import type { AddressRule } from './ipv4';
import type { FeatureDecision } from './types';
import type { PlaygroundConstraintResult, PlaygroundVariant } from './playground.shapes';

// Constraint operators.
export const OP_IN = 1;
export const OP_NOT_IN = 2;
export const OP_STR_STARTS_WITH = 3;
export const OP_STR_ENDS_WITH = 4;
export const OP_STR_CONTAINS = 5;
export const OP_NUM_EQ = 6;
export const OP_NUM_GT = 7;
export const OP_NUM_GTE = 8;
export const OP_NUM_LT = 9;
export const OP_NUM_LTE = 10;
export const OP_DATE_AFTER = 11;
export const OP_DATE_BEFORE = 12;
export const OP_SEMVER_EQ = 13;
export const OP_SEMVER_GT = 14;
export const OP_SEMVER_LT = 15;
export const OP_SEMVER_GTE = 16;
export const OP_SEMVER_LTE = 17;
export const OP_REGEX = 18;
/** An operator outside the spec's 15 and Unleash 8's three: always false, whatever `inverted` says. */
export const OP_UNKNOWN = 0;

// Strategy kinds.
export const K_UNKNOWN = 0;
export const K_DEFAULT = 1;
export const K_USER_WITH_ID = 2;
export const K_FLEXIBLE_ROLLOUT = 3;
export const K_GRADUAL_USER_ID = 4;
export const K_GRADUAL_SESSION_ID = 5;
export const K_GRADUAL_RANDOM = 6;
export const K_REMOTE_ADDRESS = 7;

// Stickiness.
export const STICKY_DEFAULT = 0;
export const STICKY_RANDOM = 1;
export const STICKY_FIELD = 2;

export interface CompiledConstraint {
  op: number;
  /** Slot of the context field (see CompiledSnapshot.fieldNames). */
  slot: number;
  inverted: boolean;
  caseInsensitive: boolean;
  /** IN / NOT_IN: cleaned values (lower-cased when caseInsensitive). */
  set: ReadonlySet<string>;
  /** STR_*: cleaned values (lower-cased when caseInsensitive). */
  list: readonly string[];
  /** NUM_*: Number(value); DATE_*: the date in milliseconds (NaN when invalid, which makes every comparison false). */
  num: number;
  /** SEMVER_*: the parsed value, null when invalid (the constraint is then always false). */
  semver: SemVer | null;
  /**
   * REGEX: the pattern compiled when the snapshot is (see regexCache in operators.ts), null when RE2 refuses it
   * (stored before the save-time check, or never checked): the operator is then false, as in SDKs.
   */
  regex: RE2JS | null;
  /** The constraint as given. Its outputs (`{...constraint, result}`) are built, frozen, on first use (see operators.ts). */
  source: Constraint;
  outTrue: PlaygroundConstraintResult | null;
  outFalse: PlaygroundConstraintResult | null;
}

export interface CompiledSegment {
  id: number;
  name: string;
  constraints: CompiledConstraint[];
}

export interface CompiledVariants {
  /** As given; the frozen copy the result lists as `variants` is made on first use. */
  source: ReadonlyArray<FeatureVariant | StrategyVariant>;
  list: ReadonlyArray<FeatureVariant | StrategyVariant> | null;
  /** `groupId + ":"`. */
  prefix: string;
  totalWeight: number;
  weights: number[];
  /** `{name, enabled: true, payload?}` per variant, frozen. */
  results: PlaygroundVariant[];
  /** Per variant, the fast path's decision for the owning feature with that variant, frozen. */
  decisions: FeatureDecision[];
  /** Overrides flattened in variant order, then override order. */
  overrides: Array<{ slot: number; values: ReadonlySet<string>; index: number }>;
  stickiness: number;
  stickinessSlot: number;
  seed: number;
}

export interface CompiledStrategy {
  kind: number;
  disabled: boolean;
  constraints: CompiledConstraint[];
  segments: CompiledSegment[];
  /** flexibleRollout `rollout` or gradualRollout* `percentage`, as Number(). */
  percentage: number;
  /** `groupId + ":"`; for flexibleRollout without a groupId, null (the context's featureToggle is used). */
  groupPrefix: string | null;
  stickiness: number;
  stickinessSlot: number;
  userIds: ReadonlySet<string> | null;
  addressRules: AddressRule[] | null;
  variants: CompiledVariants | null;
  // Output fragments.
  id: string;
  name: string;
  title: string | null;
  /** As given; the frozen copy the result lists is made on first use. */
  parametersSource: Record<string, string>;
  parameters: Record<string, string> | null;
  project: string;
  featureName: string;
  /** The last environment's `links` (a snapshot is normally evaluated for one environment). */
  linksEnvironment: string | null;
  links: { edit: string } | null;
}

export interface CompiledDependency {
  /** Index of the parent in CompiledSnapshot.features, or -1 when the dependency can never be satisfied. */
  parent: number;
  /** The parent's feature-environment `enabled` flag. */
  parentEnabled: boolean;
  enabled: boolean;
  variants: ReadonlySet<string> | null;
}

export interface CompiledFeature {
  index: number;
  name: string;
  project: string;
  enabled: boolean;
  /** Sorted by sortOrder, disabled ones included. */
  strategies: CompiledStrategy[];
  /** The strategies that can enable the feature: not disabled and of a known kind. */
  active: CompiledStrategy[];
  variants: CompiledVariants | null;
  dependencies: CompiledDependency[];
  impressionData: boolean;
  /** Fast-path decisions that carry no variant, frozen. */
  off: FeatureDecision;
  onWithoutVariant: FeatureDecision;
}

export interface CompiledSnapshot {
  features: CompiledFeature[];
  byName: ReadonlyMap<string, CompiledFeature>;
  /** Context field names by slot. */
  fieldNames: string[];
  /** Whether any feature has dependencies (evaluation then runs in two passes). */
  hasDependencies: boolean;
}

/**
 * What compiling a part needs of the snapshot being compiled (compile.ts): context field names numbered into slots,
 * and each distinct REGEX pattern compiled once.
 */
export interface SnapshotCompiler {
  slot(name: string): number;
  regex(pattern: unknown, caseInsensitive: boolean): RE2JS | null;
}

export const DISABLED_VARIANT: PlaygroundVariant = Object.freeze({ name: 'disabled', enabled: false });
export const EMPTY: readonly never[] = Object.freeze([]);

export function frozen<T extends object>(value: T): T {
  return Object.freeze(value) as T;
}
