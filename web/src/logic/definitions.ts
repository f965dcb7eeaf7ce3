/**
 * The definitions pages' rules, with no React: names checked as the service checks them (so the field says what is
 * wrong before a refusal), environment reordering as the few updates it takes, the lists of legal values and strategy
 * parameters as forms edit them, and where a segment is used, grouped for reading.
 */

const URL_FRIENDLY = /^[a-zA-Z0-9~_.-]+$/;

/**
 * What is wrong with a URL-friendly name (environments, context fields, strategy types: 1..100; tag types: 2..50);
 * null when the service would take it.
 */
export function nameProblem(name: string, min = 1, max = 100): string | null {
  if (name.length === 0) return 'Give it a name.';
  if (name.length < min) return `At least ${min} characters.`;
  if (name.length > max) return `At most ${max} characters.`;
  if (!URL_FRIENDLY.test(name)) return 'Only letters, digits and ~ _ . - (it is part of URLs).';
  if (name === '.' || name === '..') return 'Not "." or ".." (it could not be used in a URL).';
  return null;
}

/** A sort order as a number input holds it (a number, or the text being typed) as it is sent: 0 when it is no number. */
export const toSortOrder = (v: number | string): number => (typeof v === 'number' ? v : Number(v) || 0);

/** `1 flag`, `2 flags`. */
export const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Where a context field or segment is used, as its list says it: `2 flags in 1 project`. */
export const usedInText = (d: { usedInFeatures: number; usedInProjects: number }): string =>
  `${plural(d.usedInFeatures, 'flag')} in ${plural(d.usedInProjects, 'project')}`;

/**
 * Problems by position (`legalValueProblems`, `parameterProblems`) as a form's errors, on the row's field they are
 * about (`legalValues.1.value`), so they show under it.
 */
export function rowErrors(list: string, field: string, problems: ReadonlyArray<string | undefined>): Record<string, string> {
  return Object.fromEntries(problems.flatMap((p, i) => (p ? [[`${list}.${i}.${field}`, p]] : [])));
}

export interface Ordered {
  name: string;
  sortOrder: number;
}

/** The list as the service orders it: by sort order, ties by name. */
export function byOrder<T extends Ordered>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.sortOrder - b.sortOrder || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The sort order updates that move `name` one place up (-1) or down (+1) in the service's order; empty when it cannot
 * move. Two distinct sort orders are swapped (two updates); when ties make a swap meaningless, the list is renumbered
 * from its first sort order, and only the entries whose number changes are sent.
 */
export function moveUpdates(list: readonly Ordered[], name: string, direction: -1 | 1): Ordered[] {
  const ordered = byOrder(list);
  const i = ordered.findIndex((e) => e.name === name);
  const j = i + direction;
  if (i < 0 || j < 0 || j >= ordered.length) return [];
  const a = ordered[i];
  const b = ordered[j];
  if (a.sortOrder !== b.sortOrder) return [{ name: a.name, sortOrder: b.sortOrder }, { name: b.name, sortOrder: a.sortOrder }];
  const next = [...ordered];
  [next[i], next[j]] = [b, a];
  const start = ordered[0].sortOrder;
  return next.flatMap((e, k) => (e.sortOrder === start + k ? [] : [{ name: e.name, sortOrder: start + k }]));
}

/** A legal value as the context field form edits it (`key` only for React). */
export interface LegalValueDraft {
  key: number;
  value: string;
  description: string;
}

let nextKey = 1;
export const newLegalValue = (value = '', description = ''): LegalValueDraft => ({ key: nextKey++, value, description });

/**
 * Problems of a list's rows by position (undefined: fine), each row named by `keyOf` (trimmed): blank, too long, a
 * repeat of an earlier row's, or `more` of the row.
 */
function rowProblems<T>(rows: readonly T[], keyOf: (row: T) => string, say: { blank: string; repeated(key: string): string; more?(row: T): string | undefined }) {
  const seen = new Set<string>();
  return rows.map((row) => {
    const key = keyOf(row).trim();
    const problem = key === '' ? say.blank : key.length > 100 ? 'At most 100 characters.' : seen.has(key) ? say.repeated(key) : say.more?.(row);
    seen.add(key);
    return problem;
  });
}

/** Problems of the legal values, by position (undefined: fine): blank, too long, or a value that repeats an earlier one. */
export const legalValueProblems = (values: readonly LegalValueDraft[]): Array<string | undefined> => rowProblems(values, (v) => v.value, {
  blank: 'Enter a value, or remove this row.',
  repeated: (value) => `"${value}" is already in the list.`,
  more: (v) => (v.description.length > 1000 ? 'The description is at most 1000 characters.' : undefined),
});

/** The legal values as the mutation input: trimmed, with a description only when one was written. */
export const toLegalValuesInput = (values: readonly LegalValueDraft[]) =>
  values.map((v) => ({ value: v.value.trim(), ...(v.description.trim() ? { description: v.description.trim() } : {}) }));

export const PARAMETER_TYPES = ['string', 'percentage', 'list', 'number', 'boolean'] as const;
export type ParameterKind = (typeof PARAMETER_TYPES)[number];

/** A declared parameter of a custom strategy as its form edits it. */
export interface ParameterDraft {
  key: number;
  name: string;
  type: ParameterKind;
  description: string;
  required: boolean;
}

export const newParameter = (p: Partial<Omit<ParameterDraft, 'key'>> = {}): ParameterDraft =>
  ({ key: nextKey++, name: '', type: 'string', description: '', required: false, ...p });

/** Problems of the parameters' names, by position: blank, too long, or repeating an earlier one. */
export const parameterProblems = (params: readonly ParameterDraft[]): Array<string | undefined> => rowProblems(params, (p) => p.name, {
  blank: 'Give the parameter a name, or remove it.',
  repeated: (name) => `"${name}" is declared twice.`,
});

export const toParametersInput = (params: readonly ParameterDraft[]) =>
  params.map((p) => ({ name: p.name.trim(), type: p.type, description: p.description.trim(), required: p.required }));

/** A strategy that uses a segment, as Segment.strategies lists it. */
export interface SegmentUse {
  featureName: string;
  project: string;
  environment: string;
}

/** Where a segment is used: per project, each feature once with the environments its strategies are in. */
export function groupSegmentUses(uses: readonly SegmentUse[]): Array<{ project: string; features: Array<{ name: string; environments: string[] }> }> {
  const projects = new Map<string, Map<string, Set<string>>>();
  for (const u of uses) {
    const features = projects.get(u.project) ?? new Map<string, Set<string>>();
    projects.set(u.project, features);
    const envs = features.get(u.featureName) ?? new Set<string>();
    features.set(u.featureName, envs);
    envs.add(u.environment);
  }
  const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted(projects).map(([project, features]) => ({
    project,
    features: sorted(features).map(([name, envs]) => ({ name, environments: [...envs].sort() })),
  }));
}
