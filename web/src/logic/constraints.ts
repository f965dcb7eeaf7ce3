/**
 * The constraint editor's rules, with no React: which value an operator takes, validation before sending (the same
 * rules the service applies, so a user sees the problem on the field instead of a refusal), and the conversion between
 * the editor's state and the `ConstraintInput` of the GraphQL contract.
 */
import { ApiError } from '../api/errors';
import type { ConstraintOperator } from '../gql/graphql';

/**
 * What a person reads for each operator (the editor's operator list, constraint sentences on the flag page, the
 * segment list), in the order the editor offers them. The operators are the GraphQL contract's `ConstraintOperator`
 * (codegen, from the service's own list): one missing here or one the contract does not have fails the type check.
 */
export const OPERATOR_LABELS = {
  IN: 'is one of', NOT_IN: 'is not one of', STR_CONTAINS: 'contains', STR_STARTS_WITH: 'starts with', STR_ENDS_WITH: 'ends with',
  REGEX: 'matches the pattern',
  NUM_EQ: '=', NUM_GT: '>', NUM_GTE: '≥', NUM_LT: '<', NUM_LTE: '≤',
  DATE_AFTER: 'is after', DATE_BEFORE: 'is before',
  SEMVER_EQ: 'is version', SEMVER_GT: 'is a version after', SEMVER_GTE: 'is at least version', SEMVER_LT: 'is a version before',
  SEMVER_LTE: 'is at most version',
} as const satisfies Record<ConstraintOperator, string>;

/** The operators of the contract, in the order the editor offers them. */
export const OPERATORS = Object.keys(OPERATOR_LABELS) as ConstraintOperator[];
export type Operator = ConstraintOperator;

/** The kind of value an operator compares with: several strings, or one number, date, semantic version or pattern. */
export type ValueKind = 'list' | 'number' | 'date' | 'semver' | 'regex';

export function isOperator(op: string): op is Operator {
  return Object.hasOwn(OPERATOR_LABELS, op);
}

/** An operator as a person reads it ("is one of"); an operator the contract does not have, as it is. */
export function operatorLabel(operator: string): string {
  return isOperator(operator) ? OPERATOR_LABELS[operator] : operator;
}

export function valueKind(op: string): ValueKind {
  if (op.startsWith('NUM_')) return 'number';
  if (op.startsWith('DATE_')) return 'date';
  if (op.startsWith('SEMVER_')) return 'semver';
  if (op === 'REGEX') return 'regex';
  return 'list';
}

/** The string operators and REGEX offer "case insensitive" (IN/NOT_IN compare exactly in the editor's model). */
export const takesCaseInsensitive = (op: string): boolean => op.startsWith('STR_') || op === 'REGEX';

/**
 * One constraint as the editor holds it: both value slots are kept so switching operators back and forth loses nothing.
 * The operator is what was chosen or read, checked by `validateConstraint` before anything is sent.
 */
export interface ConstraintDraft {
  /** A key for React lists; never sent. */
  key: number;
  contextName: string;
  operator: string;
  values: string[];
  /** The single value: a number, semver or pattern as typed, or a date as an ISO 8601 string. */
  value: string;
  caseInsensitive: boolean;
  inverted: boolean;
}

/** A constraint as read back (`Constraint`), or as a form holds one to edit. */
export interface ConstraintInputShape {
  contextName: string;
  operator: string;
  values?: string[] | null;
  value?: string | null;
  caseInsensitive?: boolean | null;
  inverted?: boolean | null;
}

let nextKey = 1;

export function emptyConstraint(contextName = ''): ConstraintDraft {
  return { key: nextKey++, contextName, operator: 'IN', values: [], value: '', caseInsensitive: false, inverted: false };
}

/** A stored constraint (as the API returns it) into the editor. */
export function fromConstraint(c: ConstraintInputShape): ConstraintDraft {
  return {
    key: nextKey++,
    contextName: c.contextName,
    operator: c.operator,
    values: [...(c.values ?? [])],
    value: c.value ?? '',
    caseInsensitive: c.caseInsensitive ?? false,
    inverted: c.inverted ?? false,
  };
}

/**
 * The editor's constraint as the mutation input: only the value slot its operator uses, trimmed (a pattern is sent as
 * typed: a space in it is part of what it matches).
 */
export function toConstraintInput(d: ConstraintDraft): Required<Pick<ConstraintInputShape, 'contextName' | 'caseInsensitive' | 'inverted'>> & { operator: ConstraintOperator; values?: string[]; value?: string } {
  const base = {
    contextName: d.contextName,
    // The forms send only constraints `validateConstraint` passed, which requires an operator of the contract.
    operator: d.operator as ConstraintOperator,
    // IN/NOT_IN show no switch but keep what a stored constraint had (the evaluation honours it); numbers, dates and
    // versions have no case.
    caseInsensitive: valueKind(d.operator) === 'list' || valueKind(d.operator) === 'regex' ? d.caseInsensitive : false,
    inverted: d.inverted,
  };
  if (valueKind(d.operator) === 'list') return { ...base, values: d.values.map((v) => v.trim()).filter((v) => v !== '') };
  return { ...base, value: singleValue(d) };
}

/** What is wrong with one constraint, by field (absent: fine). */
export interface ConstraintErrors {
  contextName?: string;
  operator?: string;
  values?: string;
  value?: string;
}

const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** Whether text is a number the service accepts (`Number(v)` finite, not blank). */
export function isNumberText(v: string): boolean {
  return NUMBER_TEXT.test(v) && Number.isFinite(Number(v));
}

// Semantic Versioning 2.0.0: MAJOR.MINOR.PATCH, no leading zeros, an optional pre-release. The service takes only the
// canonical form (no "v" prefix, no build metadata), as the SDKs do.
const IDENT = '(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)';
const SEMVER = new RegExp(`^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-${IDENT}(?:\\.${IDENT})*)?$`);

export function isSemver(v: string): boolean {
  return v.length <= 256 && SEMVER.test(v);
}

/** A single value as it is sent: trimmed, except a pattern. */
const singleValue = (d: ConstraintDraft): string => (valueKind(d.operator) === 'regex' ? d.value : d.value.trim());

/** The longest single value the service stores (a pattern included). */
export const MAX_VALUE_LENGTH = 100;

/**
 * The part of re2js's RE2JS class the editor needs to check a pattern. The editor loads re2js only when a REGEX
 * constraint is shown (it is large and most pages never need it), so the check takes it as an argument.
 */
export interface Re2Compiler {
  compile(pattern: string, flags?: number): unknown;
  readonly CASE_INSENSITIVE: number;
}

/**
 * Why RE2 refuses a pattern, compiled exactly as the service and the SDKs compile it (RE2 syntax as written, the
 * case-insensitive flag), or undefined when it compiles. The service checks again on save.
 */
export function regexProblem(pattern: string, caseInsensitive: boolean, re2: Re2Compiler): string | undefined {
  try {
    re2.compile(pattern, caseInsensitive ? re2.CASE_INSENSITIVE : 0);
    return undefined;
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
    return `Not a regular expression RE2 accepts: ${reason}.`;
  }
}

/** Whether text is a date-time the service accepts (ISO 8601 as the editor sends it). */
export function isDateText(v: string): boolean {
  return v.trim() !== '' && !Number.isNaN(Date.parse(v));
}

/**
 * The problems of one constraint, as messages for its fields. `legalValues` are the context field's legal values
 * (empty: any value); `knownFields` the names of the context fields there are. A pattern's RE2 syntax is not checked
 * here (that needs re2js, see `regexProblem`): the editor row checks it as it is typed, and the service's refusal
 * names the field.
 */
export function validateConstraint(d: ConstraintDraft, legalValues: readonly string[] = [], knownFields?: ReadonlySet<string>): ConstraintErrors {
  const errors: ConstraintErrors = {};
  if (!d.contextName) errors.contextName = 'Choose a context field.';
  else if (knownFields && !knownFields.has(d.contextName)) errors.contextName = `There is no context field named ${d.contextName}.`;
  if (!isOperator(d.operator)) errors.operator = 'Choose an operator.';
  const kind = valueKind(d.operator);
  const value = singleValue(d);
  if (kind === 'list') {
    const values = d.values.map((v) => v.trim()).filter((v) => v !== '');
    if (values.length === 0) errors.values = 'Add at least one value.';
    else if (values.length > 1000) errors.values = 'At most 1000 values.';
    else if (values.some((v) => v.length > 100)) errors.values = 'Each value is at most 100 characters.';
    else if (legalValues.length > 0) {
      const outside = values.filter((v) => !legalValues.includes(v));
      if (outside.length > 0) errors.values = `Not a legal value of ${d.contextName}: ${outside.join(', ')}.`;
    }
  } else if (kind === 'number') {
    if (value === '') errors.value = 'Enter a number.';
    else if (!isNumberText(value)) errors.value = `"${value}" is not a number.`;
  } else if (kind === 'date') {
    if (value === '') errors.value = 'Choose a date and time.';
    else if (!isDateText(value)) errors.value = `"${value}" is not a date.`;
  } else if (kind === 'regex') {
    if (value === '') errors.value = 'Enter a regular expression, for example ^beta-.';
    else if (value.length > MAX_VALUE_LENGTH) errors.value = `A pattern is at most ${MAX_VALUE_LENGTH} characters.`;
  } else if (value === '') {
    errors.value = 'Enter a version, for example 1.2.3.';
  } else if (!isSemver(value)) {
    errors.value = `"${value}" is not a semantic version (x.y.z, optionally with a pre-release such as 1.2.3-beta.1).`;
  }
  if (kind !== 'list' && legalValues.length > 0 && value !== '' && !errors.value && !legalValues.includes(value)) {
    errors.value = `Not a legal value of ${d.contextName}: ${value}.`;
  }
  return errors;
}

export const hasErrors = (e: ConstraintErrors | undefined): boolean => !!e && Object.values(e).some(Boolean);

/** Validates every constraint; `legal` maps a context field to its legal values. */
export function validateConstraints(list: readonly ConstraintDraft[], legal: ReadonlyMap<string, readonly string[]>): ConstraintErrors[] {
  const known = new Set(legal.keys());
  return list.map((d) => validateConstraint(d, legal.get(d.contextName) ?? [], legal.size > 0 ? known : undefined));
}

/**
 * A refusal's detail path (`constraints/0/value`, or dotted) as a constraint field, when it names one under `prefix`:
 * so the service's message lands on the field that caused it.
 */
export function constraintErrorAt(path: string, prefix = 'constraints'): { index: number; field: keyof ConstraintErrors } | null {
  const parts = path.split(/[./]/);
  const start = prefix.split(/[./]/);
  if (!start.every((p, i) => parts[i] === p)) return null;
  const [index, field] = parts.slice(start.length);
  if (index === undefined || !/^\d+$/.test(index)) return null;
  const known: Array<keyof ConstraintErrors> = ['contextName', 'operator', 'values', 'value'];
  // A detail about the constraint as a whole (or another part of it) goes on its value, where it is most likely wrong.
  const f = (known as string[]).includes(field ?? '') ? (field as keyof ConstraintErrors) : 'value';
  return { index: Number(index), field: f };
}

/** The refusal's details that name a constraint's field (under `prefix`), placed on that field, by position. */
export function constraintErrorsOf(error: unknown, prefix = 'constraints'): ConstraintErrors[] {
  const out: ConstraintErrors[] = [];
  if (!(error instanceof ApiError)) return out;
  for (const d of error.details) {
    const at = d.path ? constraintErrorAt(d.path, prefix) : null;
    if (at) out[at.index] = { ...out[at.index], [at.field]: d.message };
  }
  return out;
}

/** Legal values by context field name (an empty list: any value), as constraint validation wants them. */
export function legalValuesByField(fields: ReadonlyArray<{ name: string; legalValues: ReadonlyArray<{ value: string }> }> | undefined): Map<string, string[]> {
  return new Map((fields ?? []).map((f) => [f.name, f.legalValues.map((v) => v.value)]));
}

/**
 * The date picker's value ("YYYY-MM-DD HH:mm:ss" in local time, as @mantine/dates gives it) as ISO 8601 in UTC, which
 * is what is sent; empty for nothing or nonsense.
 */
export function pickerToIso(picker: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(picker ?? '');
  if (!m) return '';
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** An ISO 8601 value as the date picker's local "YYYY-MM-DD HH:mm:ss"; null when it is not a date. */
export function isoToPicker(iso: string): string | null {
  if (!isDateText(iso)) return null;
  const t = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())} ${p(t.getHours())}:${p(t.getMinutes())}:${p(t.getSeconds())}`;
}
