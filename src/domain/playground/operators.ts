/**
 * Constraints (reference §3.4): compiling one (its operator numbered, its values cleaned into a Set or a list,
 * lower-cased for caseInsensitive, numbers, dates and semvers parsed once, REGEX patterns compiled once), evaluating
 * it against a resolved context, and its entry in the detailed result (`{...constraint, result}`, built once per
 * result value and shared).
 */
import type { RE2JS } from 're2js';
import type SemVer from 'semver/classes/semver';
import { compileConstraintRegex } from '../features/constraint-regex';
import type { Constraint } from '../features/constraint.shapes';
import * as compiled from './compiled';
import type { CompiledConstraint, CompiledSegment, SnapshotCompiler } from './compiled';
import type { ResolvedContext } from './resolved-context';
import type { PlaygroundConstraintResult } from './playground.shapes';
import * as read from './values';

// Imported bindings copied into module constants once: some transpilers (esbuild, used by tsx) turn every access to
// an imported binding into a getter call, which is measurable in the evaluation loops.
const {
  EMPTY, OP_DATE_AFTER, OP_DATE_BEFORE, OP_IN, OP_NOT_IN, OP_NUM_EQ, OP_NUM_GT, OP_NUM_GTE, OP_NUM_LT, OP_NUM_LTE, OP_REGEX,
  OP_SEMVER_EQ, OP_SEMVER_GT, OP_SEMVER_GTE, OP_SEMVER_LT, OP_SEMVER_LTE, OP_STR_CONTAINS, OP_STR_ENDS_WITH,
  OP_STR_STARTS_WITH, OP_UNKNOWN,
} = compiled;
const { parseSemver } = read;

/** A Map, so that stored data naming an operator such as `constructor` is unknown, not a member of Object.prototype. */
const OPERATOR_CODES: ReadonlyMap<string, number> = new Map([
  ['IN', OP_IN], ['NOT_IN', OP_NOT_IN], ['STR_STARTS_WITH', OP_STR_STARTS_WITH], ['STR_ENDS_WITH', OP_STR_ENDS_WITH],
  ['STR_CONTAINS', OP_STR_CONTAINS], ['NUM_EQ', OP_NUM_EQ], ['NUM_GT', OP_NUM_GT], ['NUM_GTE', OP_NUM_GTE], ['NUM_LT', OP_NUM_LT],
  ['NUM_LTE', OP_NUM_LTE], ['DATE_AFTER', OP_DATE_AFTER], ['DATE_BEFORE', OP_DATE_BEFORE], ['SEMVER_EQ', OP_SEMVER_EQ],
  ['SEMVER_GT', OP_SEMVER_GT], ['SEMVER_LT', OP_SEMVER_LT], ['SEMVER_GTE', OP_SEMVER_GTE], ['SEMVER_LTE', OP_SEMVER_LTE],
  ['REGEX', OP_REGEX],
]);

const EMPTY_SET: ReadonlySet<string> = new Set();

// ---- compiling ----------------------------------------------------------------------------------------------

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

/** The pattern compiled (null when RE2 refuses it), from the cache of earlier snapshots when it is there. */
export function cachedRegex(key: string, pattern: string, caseInsensitive: boolean): RE2JS | null {
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

export function compileConstraint(c: Constraint, compiler: SnapshotCompiler): CompiledConstraint {
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
  else if (op === OP_REGEX) regex = compiler.regex(c.value, caseInsensitive);
  const isList = op === OP_IN || op === OP_NOT_IN;
  return {
    op,
    slot: compiler.slot(c.contextName),
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

export function compileConstraints(list: readonly Constraint[] | null | undefined, compiler: SnapshotCompiler): CompiledConstraint[] {
  return (list ?? EMPTY).map((c) => compileConstraint(c, compiler));
}

// ---- evaluating ---------------------------------------------------------------------------------------------

function operatorResult(c: CompiledConstraint, ctx: ResolvedContext): boolean {
  switch (c.op) {
    case OP_IN:
    case OP_NOT_IN: {
      const v = c.caseInsensitive ? ctx.lower(c.slot) : ctx.values[c.slot];
      const found = v !== undefined && c.set.has(v);
      return c.op === OP_IN ? found : !found;
    }
    case OP_STR_STARTS_WITH:
    case OP_STR_ENDS_WITH:
    case OP_STR_CONTAINS: {
      const v = c.caseInsensitive ? ctx.lower(c.slot) : ctx.values[c.slot];
      if (v === undefined) return false;
      const list = c.list;
      for (let i = 0; i < list.length; i++) {
        if (c.op === OP_STR_STARTS_WITH ? v.startsWith(list[i]) : c.op === OP_STR_ENDS_WITH ? v.endsWith(list[i]) : v.includes(list[i])) return true;
      }
      return false;
    }
    case OP_NUM_EQ:
    case OP_NUM_GT:
    case OP_NUM_GTE:
    case OP_NUM_LT:
    case OP_NUM_LTE: {
      const v = Number(ctx.values[c.slot]);
      if (Number.isNaN(v) || Number.isNaN(c.num)) return false;
      switch (c.op) {
        case OP_NUM_EQ: return v === c.num;
        case OP_NUM_GT: return v > c.num;
        case OP_NUM_GTE: return v >= c.num;
        case OP_NUM_LT: return v < c.num;
        default: return v <= c.num;
      }
    }
    // The date operators compare the evaluation time, whatever the constraint's contextName (reference §3.4).
    case OP_DATE_AFTER: return ctx.now > c.num;
    case OP_DATE_BEFORE: return ctx.now < c.num;
    case OP_SEMVER_EQ:
    case OP_SEMVER_GT:
    case OP_SEMVER_LT:
    case OP_SEMVER_GTE:
    case OP_SEMVER_LTE: {
      if (c.semver === null) return false;
      const v = ctx.semver(c.slot);
      if (v === null) return false;
      const order = v.compare(c.semver);
      switch (c.op) {
        case OP_SEMVER_EQ: return order === 0;
        case OP_SEMVER_GT: return order > 0;
        case OP_SEMVER_LT: return order < 0;
        case OP_SEMVER_GTE: return order >= 0;
        default: return order <= 0;
      }
    }
    // An unanchored search, as SDKs' `matcher(value).find()`; a missing value or a pattern RE2 refused is false.
    case OP_REGEX: {
      const v = ctx.values[c.slot];
      return c.regex !== null && v !== undefined && c.regex.test(v);
    }
    default:
      return false;
  }
}

/** One constraint: the operator, negated when inverted; an unknown operator is false either way. */
export function constraintPasses(c: CompiledConstraint, ctx: ResolvedContext): boolean {
  if (c.op === OP_UNKNOWN) return false;
  const result = operatorResult(c, ctx);
  return c.inverted ? !result : result;
}

export function allPass(constraints: CompiledConstraint[], ctx: ResolvedContext): boolean {
  for (let i = 0; i < constraints.length; i++) if (!constraintPasses(constraints[i], ctx)) return false;
  return true;
}

export function segmentsPass(segments: CompiledSegment[], ctx: ResolvedContext): boolean {
  for (let i = 0; i < segments.length; i++) if (!allPass(segments[i].constraints, ctx)) return false;
  return true;
}

// ---- the detailed result ------------------------------------------------------------------------------------

/** Fills `out` with each constraint's result (all are evaluated, so all are listed); true when all pass. */
export function listConstraints(list: CompiledConstraint[], ctx: ResolvedContext, out: PlaygroundConstraintResult[]): boolean {
  let ok = true;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    const pass = constraintPasses(c, ctx);
    out[i] = pass ? (c.outTrue ?? constraintOutput(c, true)) : (c.outFalse ?? constraintOutput(c, false));
    if (!pass) ok = false;
  }
  return ok;
}

/** `{...constraint, result}` with `values`, `inverted` and `caseInsensitive` defaulted, built once per result value. */
function constraintOutput(c: CompiledConstraint, result: boolean): PlaygroundConstraintResult {
  const src = c.source;
  const out: PlaygroundConstraintResult = Object.freeze({
    ...src,
    values: Object.freeze([...(src.values ?? [])]) as string[],
    caseInsensitive: src.caseInsensitive ?? false,
    inverted: src.inverted ?? false,
    result,
  });
  if (result) c.outTrue = out;
  else c.outFalse = out;
  return out;
}
