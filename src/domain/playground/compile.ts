/**
 * `compile(features, segments)`: turns one snapshot (the features of one environment and all segments) into a form
 * that evaluation only reads: strategies sorted, segment ids resolved (unknown ids dropped), constraint values
 * cleaned into Sets or lists (lower-cased copies for caseInsensitive), numbers, dates and semvers parsed once, REGEX
 * patterns compiled once (RE2, one per distinct pattern, reused by later snapshots), `userIds` and `IPs` split,
 * variant weights summed, override values in Sets, dependencies resolved to indexes, and the variant objects the fast
 * path returns built once and frozen. Output fragments only the detailed result needs (constraints with their result,
 * parameters, variant lists, links) are built and frozen on first use, then shared; the snapshot keeps references to
 * its input, which must not be changed afterwards. Context field names are numbered into slots, so a context is resolved once per evaluation call
 * and a constraint reads its value by index.
 */
import type { RE2JS } from 're2js';
import SemVer from 'semver/classes/semver';
import { compileConstraintRegex } from '../features/constraint-regex';
import type { Constraint } from '../features/constraints';
import type { FeatureVariant, StrategyVariant } from '../features/variants';
import { VARIANT_SEED } from './hashing';
import { compileAddressRule, type AddressRule } from './ipv4';
import type {
  FeatureDecision, PlaygroundConstraintResult, PlaygroundFeatureInput, PlaygroundSegmentInput, PlaygroundStrategyInput,
  PlaygroundVariant,
} from './types';

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

/** A Map, so that stored data naming an operator such as `constructor` is unknown, not a member of Object.prototype. */
const OPERATOR_CODES: ReadonlyMap<string, number> = new Map([
  ['IN', OP_IN], ['NOT_IN', OP_NOT_IN], ['STR_STARTS_WITH', OP_STR_STARTS_WITH], ['STR_ENDS_WITH', OP_STR_ENDS_WITH],
  ['STR_CONTAINS', OP_STR_CONTAINS], ['NUM_EQ', OP_NUM_EQ], ['NUM_GT', OP_NUM_GT], ['NUM_GTE', OP_NUM_GTE], ['NUM_LT', OP_NUM_LT],
  ['NUM_LTE', OP_NUM_LTE], ['DATE_AFTER', OP_DATE_AFTER], ['DATE_BEFORE', OP_DATE_BEFORE], ['SEMVER_EQ', OP_SEMVER_EQ],
  ['SEMVER_GT', OP_SEMVER_GT], ['SEMVER_LT', OP_SEMVER_LT], ['SEMVER_GTE', OP_SEMVER_GTE], ['SEMVER_LTE', OP_SEMVER_LTE],
  ['REGEX', OP_REGEX],
]);

// Strategy kinds.
export const K_UNKNOWN = 0;
export const K_DEFAULT = 1;
export const K_USER_WITH_ID = 2;
export const K_FLEXIBLE_ROLLOUT = 3;
export const K_GRADUAL_USER_ID = 4;
export const K_GRADUAL_SESSION_ID = 5;
export const K_GRADUAL_RANDOM = 6;
export const K_REMOTE_ADDRESS = 7;

/** applicationHostname is deliberately absent: the server cannot know the host, so it is `incomplete` (reference §3.2). */
const STRATEGY_KINDS: ReadonlyMap<string, number> = new Map([
  ['default', K_DEFAULT], ['userWithId', K_USER_WITH_ID], ['flexibleRollout', K_FLEXIBLE_ROLLOUT],
  ['gradualRolloutUserId', K_GRADUAL_USER_ID], ['gradualRolloutSessionId', K_GRADUAL_SESSION_ID],
  ['gradualRolloutRandom', K_GRADUAL_RANDOM], ['remoteAddress', K_REMOTE_ADDRESS],
]);

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
   * REGEX: the pattern compiled when the snapshot is (see regexCache), null when RE2 refuses it (stored before the
   * save-time check, or never checked): the operator is then false, as in SDKs.
   */
  regex: RE2JS | null;
  /** The constraint as given. Its outputs (`{...constraint, result}`) are built, frozen, on first use (see evaluate.ts). */
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

export const DISABLED_VARIANT: PlaygroundVariant = Object.freeze({ name: 'disabled', enabled: false });
const EMPTY: readonly never[] = Object.freeze([]);
const EMPTY_SET: ReadonlySet<string> = new Set();

function frozen<T extends object>(value: T): T {
  return Object.freeze(value) as T;
}

/** Values with empty entries removed, then each trimmed (the order Unleash applies). */
function cleanValues(values: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const v of values ?? EMPTY) if (typeof v === 'string' && v !== '') out.push(v.trim());
  return out;
}

/**
 * REGEX patterns compiled by earlier snapshots, by flag and pattern, least recently used first. A change recompiles
 * the snapshot, and compiling a pattern costs far more than one match (tens of microseconds against about one), so
 * the patterns no change touched are reused. Matching is synchronous and what an RE2JS keeps between matches (its
 * lazy DFA's states, within RE2's memory budget) never changes a result, so snapshots can share one. Bounded, so the
 * patterns kept beyond those in use stay few whatever is stored over time.
 */
const REGEX_CACHE_LIMIT = 1000;
const regexCache = new Map<string, RE2JS | null>();

function cachedRegex(key: string, pattern: string, caseInsensitive: boolean): RE2JS | null {
  let re = regexCache.get(key);
  if (re !== undefined) {
    regexCache.delete(key); // re-inserted below: most recently used last
  } else {
    try {
      re = compileConstraintRegex(pattern, caseInsensitive);
    } catch {
      re = null;
    }
    if (regexCache.size >= REGEX_CACHE_LIMIT) regexCache.delete(regexCache.keys().next().value as string);
  }
  regexCache.set(key, re);
  return re;
}

class Compiler {
  readonly slots = new Map<string, number>();
  readonly fieldNames: string[] = [];
  /** This snapshot's REGEX patterns, by flag and pattern: each distinct one is looked up (or compiled) once. */
  private readonly regexes = new Map<string, RE2JS | null>();

  slot(name: string): number {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.fieldNames.length;
      this.fieldNames.push(name);
      this.slots.set(name, slot);
    }
    return slot;
  }

  regex(pattern: unknown, caseInsensitive: boolean): RE2JS | null {
    if (typeof pattern !== 'string') return null;
    const key = `${caseInsensitive ? 'i' : '-'}${pattern}`;
    let re = this.regexes.get(key);
    if (re === undefined) {
      re = cachedRegex(key, pattern, caseInsensitive);
      this.regexes.set(key, re);
    }
    return re;
  }

  constraint(c: Constraint): CompiledConstraint {
    const op = OPERATOR_CODES.get(c.operator as string) ?? OP_UNKNOWN;
    const caseInsensitive = c.caseInsensitive === true;
    let values: string[] = EMPTY as never[];
    if (op >= OP_IN && op <= OP_STR_CONTAINS) {
      values = cleanValues(c.values);
      if (caseInsensitive) values = values.map((v) => v.toLowerCase());
    }
    let num = NaN;
    let semver: SemVer | null = null;
    let regex: RE2JS | null = null;
    if (op >= OP_NUM_EQ && op <= OP_NUM_LTE) num = Number(c.value);
    else if (op === OP_DATE_AFTER || op === OP_DATE_BEFORE) num = c.value === undefined ? NaN : new Date(c.value).getTime();
    else if (op >= OP_SEMVER_EQ && op <= OP_SEMVER_LTE) semver = parseSemver(c.value);
    else if (op === OP_REGEX) regex = this.regex(c.value, caseInsensitive);
    const isList = op === OP_IN || op === OP_NOT_IN;
    return {
      op,
      slot: this.slot(c.contextName),
      inverted: c.inverted === true,
      caseInsensitive,
      set: isList ? new Set(values) : EMPTY_SET,
      list: op >= OP_STR_STARTS_WITH && op <= OP_STR_CONTAINS ? values : EMPTY,
      num,
      semver,
      regex,
      source: c,
      outTrue: null,
      outFalse: null,
    };
  }

  constraints(list: readonly Constraint[] | null | undefined): CompiledConstraint[] {
    return (list ?? EMPTY).map((c) => this.constraint(c));
  }

  stickiness(name: string): [number, number] {
    if (name === 'default') return [STICKY_DEFAULT, -1];
    if (name === 'random') return [STICKY_RANDOM, -1];
    return [STICKY_FIELD, this.slot(name)];
  }

  /**
   * Variants with group id `groupId`. A variant list without stickiness on its first variant (only possible in
   * data not written by this service) falls back to `fallbackStickiness`, as the client specification expects.
   */
  variants(list: ReadonlyArray<FeatureVariant | StrategyVariant> | null | undefined, groupId: string, featureName: string,
    fallbackStickiness: string): CompiledVariants | null {
    if (!list || list.length === 0) return null;
    const weights = list.map((v) => (typeof v.weight === 'number' ? v.weight : Number(v.weight) || 0));
    const results = list.map((v) => frozen<PlaygroundVariant>(v.payload
      ? { name: v.name, enabled: true, payload: frozen({ ...v.payload }) }
      : { name: v.name, enabled: true }));
    const overrides: CompiledVariants['overrides'] = [];
    list.forEach((v, index) => {
      for (const o of (v as FeatureVariant).overrides ?? EMPTY) {
        overrides.push({ slot: this.slot(o.contextName), values: new Set(o.values ?? EMPTY), index });
      }
    });
    const stickinessName = list[0].stickiness || fallbackStickiness || 'default';
    // Variant stickiness has no "random" keyword: any name but "default" is a context field.
    const [stickiness, stickinessSlot] = stickinessName === 'default' ? [STICKY_DEFAULT, -1] : [STICKY_FIELD, this.slot(stickinessName)];
    return {
      source: list,
      list: null,
      prefix: `${groupId}:`,
      totalWeight: weights.reduce((a, b) => a + b, 0),
      weights,
      results,
      decisions: results.map((variant) => frozen({ name: featureName, isEnabled: true, variant })),
      overrides,
      stickiness,
      stickinessSlot,
      seed: VARIANT_SEED,
    };
  }

  strategy(s: PlaygroundStrategyInput, feature: PlaygroundFeatureInput, segments: ReadonlyMap<number, CompiledSegment>): CompiledStrategy {
    const kind = STRATEGY_KINDS.get(s.name) ?? K_UNKNOWN;
    const parameters = s.parameters ?? {};
    // Parameter names are the user's: only the object's own properties are parameters.
    const param = (name: string): string | undefined => (Object.hasOwn(parameters, name) ? parameters[name] : undefined);
    let percentage = NaN;
    let groupPrefix: string | null = null;
    let stickiness = STICKY_DEFAULT;
    let stickinessSlot = -1;
    let userIds: Set<string> | null = null;
    let addressRules: AddressRule[] | null = null;
    if (kind === K_FLEXIBLE_ROLLOUT) {
      percentage = Number(param('rollout'));
      groupPrefix = param('groupId') ? `${param('groupId')}:` : null;
      [stickiness, stickinessSlot] = this.stickiness(param('stickiness') || 'default');
    } else if (kind === K_GRADUAL_USER_ID || kind === K_GRADUAL_SESSION_ID || kind === K_GRADUAL_RANDOM) {
      percentage = Number(param('percentage'));
      groupPrefix = `${param('groupId') || ''}:`;
    } else if (kind === K_USER_WITH_ID) {
      userIds = new Set(param('userIds') ? String(param('userIds')).split(/\s*,\s*/) : EMPTY);
    } else if (kind === K_REMOTE_ADDRESS && param('IPs')) {
      addressRules = String(param('IPs')).split(/\s*,\s*/).map(compileAddressRule);
    }
    const resolvedSegments: CompiledSegment[] = [];
    for (const id of s.segments ?? EMPTY) {
      const segment = segments.get(id);
      if (segment) resolvedSegments.push(segment);
    }
    return {
      kind,
      disabled: s.disabled === true,
      constraints: this.constraints(s.constraints),
      segments: resolvedSegments,
      percentage,
      groupPrefix,
      stickiness,
      stickinessSlot,
      userIds,
      addressRules,
      // Strategy variants are bucketed with the groupId parameter as given (absent → "undefined", as Unleash's template string).
      variants: this.variants(s.variants, `${param('groupId')}`, feature.name, param('stickiness') as string),
      id: s.id,
      name: s.name,
      title: s.title ? s.title : null,
      parametersSource: parameters,
      parameters: null,
      project: feature.project,
      featureName: feature.name,
      linksEnvironment: null,
      links: null,
    };
  }
}

/**
 * A SemVer, or null when the text is not a strict semantic version. node-semver alone would accept a leading "v" and
 * surrounding spaces; the client specification (14-constraint-semver-operators: "invalid semver resolves to false")
 * and Unleash's save-time check (`semver.clean(value) === value`) both treat those as invalid, so they are refused here.
 */
export function parseSemver(text: unknown): SemVer | null {
  if (typeof text !== 'string' || text === '' || text.charCodeAt(0) === 118 /* v */ || text.trim() !== text) return null;
  try {
    return new SemVer(text);
  } catch {
    return null;
  }
}

/** Compiles one snapshot: the features of one environment (in the order results are wanted) and all segments. */
export function compile(features: readonly PlaygroundFeatureInput[], segments: readonly PlaygroundSegmentInput[]): CompiledSnapshot {
  const compiler = new Compiler();
  const compiledSegments = new Map<number, CompiledSegment>();
  for (const s of segments) compiledSegments.set(s.id, { id: s.id, name: s.name, constraints: compiler.constraints(s.constraints) });

  const compiled: CompiledFeature[] = features.map((f, index) => {
    const sorted = [...(f.strategies ?? EMPTY)].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
    const strategies = sorted.map((s) => compiler.strategy(s, f, compiledSegments));
    const variants = compiler.variants(f.variants, f.name, f.name, 'default');
    return {
      index,
      name: f.name,
      project: f.project,
      enabled: f.enabled === true,
      strategies,
      active: strategies.filter((s) => !s.disabled && s.kind !== K_UNKNOWN),
      variants,
      dependencies: [],
      impressionData: f.impressionData === true,
      off: frozen({ name: f.name, isEnabled: false, variant: DISABLED_VARIANT }),
      onWithoutVariant: frozen({ name: f.name, isEnabled: true, variant: DISABLED_VARIANT }),
    };
  });

  const byName = new Map<string, CompiledFeature>();
  for (const f of compiled) if (!byName.has(f.name)) byName.set(f.name, f);
  let hasDependencies = false;
  features.forEach((f, i) => {
    const deps = f.dependencies ?? EMPTY;
    if (deps.length > 0) hasDependencies = true;
    compiled[i].dependencies = deps.map((d) => {
      const parent = byName.get(d.feature);
      // A parent outside the snapshot, or one that itself has dependencies, never satisfies (reference §3.6).
      const usable = parent !== undefined && (features[parent.index].dependencies ?? EMPTY).length === 0;
      return {
        parent: usable ? parent.index : -1,
        parentEnabled: usable ? parent.enabled : false,
        enabled: d.enabled !== false,
        variants: d.enabled !== false && d.variants && d.variants.length > 0 ? new Set(d.variants) : null,
      };
    });
  });

  return { features: compiled, byName, fieldNames: compiler.fieldNames, hasDependencies };
}
