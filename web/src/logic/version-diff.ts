// A flag's version diffs made readable for the History tab: JSON Pointers into the flag's state as words
// ("production › strategy flexibleRollout › constraints"), values as short text or pretty JSON, whole strategies,
// environments and flags summarised, and what a revert will do. Plain computations, unit tested in
// test/unit/web-version-diff.test.ts.
import { parameterSummary } from './flag-summary';

/** One difference between two states of a flag, as the service's `VersionDiffEntry` gives it. */
export interface DiffEntryLike {
  path: string;
  before?: unknown;
  after?: unknown;
}

/** What a diff path points at: the flag itself, one of its fields, an environment, a strategy, or a field of either. */
export type DiffTarget =
  | { kind: 'flag' }
  | { kind: 'field'; field: string }
  | { kind: 'environment'; environment: string }
  | { kind: 'environmentField'; environment: string; field: string }
  | { kind: 'strategy'; environment: string; strategyId: string }
  | { kind: 'strategyField'; environment: string; strategyId: string; field: string };

/** RFC 6901: a pointer's segments, `~1` and `~0` unescaped (an environment may be called `a/b`). */
export function pointerParts(path: string): string[] {
  return path === '' ? [] : path.replace(/^\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Where a diff path points (an unknown shape is read as a field of the flag, named by the whole path). */
export function diffTarget(path: string): DiffTarget {
  const [head, environment, list, strategyId, field] = pointerParts(path);
  if (head === undefined) return { kind: 'flag' };
  if (head !== 'environments' || environment === undefined) return { kind: 'field', field: pointerParts(path).join('/') };
  if (list === undefined) return { kind: 'environment', environment };
  if (list !== 'strategies' || strategyId === undefined) return { kind: 'environmentField', environment, field: list };
  if (field === undefined) return { kind: 'strategy', environment, strategyId };
  return { kind: 'strategyField', environment, strategyId, field };
}

/** Field names as words; a name not listed is shown as it is. */
const FIELD_WORDS: Record<string, string> = {
  impressionData: 'impression data',
  archivedAt: 'archived',
  createdAt: 'created',
  sortOrder: 'sort order',
  segments: 'segments',
};

export const fieldWords = (field: string) => FIELD_WORDS[field] ?? field;

/** How a strategy is named in a path: its type name (`flexibleRollout`) and its title when it has one. */
export type StrategyNames = ReadonlyMap<string, string>;

const asRecord = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** A strategy's name for a path: `flexibleRollout`, or `flexibleRollout “Beta users”` with a title. */
export function strategyName(strategy: { name?: unknown; title?: unknown }): string {
  const name = typeof strategy.name === 'string' ? strategy.name : 'strategy';
  const title = typeof strategy.title === 'string' ? strategy.title.trim() : '';
  return title ? `${name} “${title}”` : name;
}

/**
 * The names of the strategies that diffs mention, by id: from strategies added or removed whole (their values hold
 * them), from whole environments and flags, and from `known` (the flag as it is now), which a diff of a field alone
 * needs. Later sources do not replace earlier ones: pass the newest first.
 */
export function strategyNames(entries: Iterable<DiffEntryLike>, known: Iterable<{ id: string; name: string; title?: string | null }> = []): Map<string, string> {
  const names = new Map<string, string>();
  const note = (s: unknown) => {
    const r = asRecord(s);
    if (r && typeof r.id === 'string' && !names.has(r.id)) names.set(r.id, strategyName(r));
  };
  const noteEnvironment = (e: unknown) => {
    const strategies = asRecord(e)?.strategies;
    if (Array.isArray(strategies)) strategies.forEach(note);
  };
  for (const s of known) note(s);
  for (const entry of entries) {
    const target = diffTarget(entry.path);
    for (const value of [entry.after, entry.before]) {
      if (target.kind === 'strategy') note(value);
      else if (target.kind === 'environment') noteEnvironment(value);
      else if (target.kind === 'flag') (asRecord(value)?.environments as unknown[] | undefined)?.forEach?.(noteEnvironment);
    }
  }
  return names;
}

/** A strategy's name for a path, or the start of its id when nothing names it. */
const strategyLabelOf = (id: string, names?: StrategyNames) => `strategy ${names?.get(id) ?? id.slice(0, 8)}`;

/**
 * A diff path as words: `''` → "the flag", `/description` → "description", `/environments/production/enabled` →
 * "production › enabled", `/environments/production/strategies/<id>/constraints` → "production › strategy
 * flexibleRollout › constraints" (the strategy named from `names`).
 */
export function diffPathLabel(path: string, names?: StrategyNames): string {
  const t = diffTarget(path);
  switch (t.kind) {
    case 'flag': return 'the flag';
    case 'field': return fieldWords(t.field);
    case 'environment': return t.environment;
    case 'environmentField': return `${t.environment} › ${fieldWords(t.field)}`;
    case 'strategy': return `${t.environment} › ${strategyLabelOf(t.strategyId, names)}`;
    case 'strategyField': return `${t.environment} › ${strategyLabelOf(t.strategyId, names)} › ${fieldWords(t.field)}`;
  }
}

/** Whether an entry added something, removed it, or changed it (null on one side: absent). */
export function changeKind(entry: DiffEntryLike): 'added' | 'removed' | 'changed' {
  const before = entry.before ?? null;
  const after = entry.after ?? null;
  if (before === null && after !== null) return 'added';
  if (after === null && before !== null) return 'removed';
  return 'changed';
}

/** The word for an entry's change: the flag itself is "created" or "deleted", anything else "added", "removed" or "changed". */
export function changeWord(entry: DiffEntryLike): string {
  const kind = changeKind(entry);
  if (entry.path !== '') return kind;
  return kind === 'added' ? 'created' : kind === 'removed' ? 'deleted' : kind;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const listLength = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** A whole strategy in one line: "flexibleRollout: 50% of default, group id my-flag · 1 constraint · disabled". */
export function strategySummary(strategy: unknown): string {
  const s = asRecord(strategy);
  if (!s) return '(none)';
  const name = typeof s.name === 'string' ? s.name : 'strategy';
  const parts = [`${strategyName(s)}: ${parameterSummary(name, s.parameters)}`];
  if (listLength(s.constraints)) parts.push(plural(listLength(s.constraints), 'constraint'));
  if (listLength(s.segments)) parts.push(plural(listLength(s.segments), 'segment'));
  if (listLength(s.variants)) parts.push(plural(listLength(s.variants), 'variant'));
  if (s.disabled === true) parts.push('disabled');
  return parts.join(' · ');
}

/** A whole environment of a flag in one line: "on · 1 strategy · 2 variants". */
export function environmentSummary(environment: unknown): string {
  const e = asRecord(environment);
  if (!e) return '(none)';
  return [e.enabled === true ? 'on' : 'off', plural(listLength(e.strategies), 'strategy', 'strategies'), plural(listLength(e.variants), 'variant')].join(' · ');
}

/** A whole flag in one line: "release · project default · “Its description” · on in production". */
export function flagSummary(flag: unknown): string {
  const f = asRecord(flag);
  if (!f) return '(none)';
  const on = (Array.isArray(f.environments) ? f.environments : []).map(asRecord).filter((e) => e?.enabled === true).map((e) => String(e!.name));
  return [
    typeof f.type === 'string' ? f.type : null,
    typeof f.project === 'string' ? `project ${f.project}` : null,
    typeof f.description === 'string' && f.description ? `“${f.description}”` : 'no description',
    on.length ? `on in ${on.join(', ')}` : 'off everywhere',
    f.archivedAt ? 'archived' : null,
  ].filter(Boolean).join(' · ');
}

/** A value as it is shown: `block` text (pretty JSON) goes in a block of its own, the rest inline. */
export interface ShownValue {
  text: string;
  block: boolean;
}

const BOOLEAN_WORDS: Record<string, [string, string]> = {
  enabled: ['on', 'off'],
  configured: ['configured', 'not configured'],
  disabled: ['disabled', 'enabled'],
  stale: ['stale', 'not stale'],
  impressionData: ['on', 'off'],
};

/** The field a value belongs to, for words that depend on it. */
function lastField(t: DiffTarget): string | null {
  return t.kind === 'field' || t.kind === 'environmentField' || t.kind === 'strategyField' ? t.field : null;
}

/**
 * One side of a diff entry as text: absent is "(none)", text in quotes, switches as "on"/"off", tags as `type:value`,
 * whole strategies, environments and the flag summarised, any other object or list as pretty JSON.
 */
export function shownValue(path: string, value: unknown): ShownValue {
  const t = diffTarget(path);
  const inline = (text: string): ShownValue => ({ text, block: false });
  if (value === null || value === undefined) {
    if (t.kind === 'flag') return inline('(did not exist)');
    if (t.kind === 'field' && t.field === 'archivedAt') return inline('(not archived)');
    return inline('(none)');
  }
  if (t.kind === 'flag') return inline(flagSummary(value));
  if (t.kind === 'environment') return inline(environmentSummary(value));
  if (t.kind === 'strategy') return inline(strategySummary(value));
  const field = lastField(t);
  if (typeof value === 'boolean') {
    const words = field ? BOOLEAN_WORDS[field] : undefined;
    return inline(words ? words[value ? 0 : 1] : String(value));
  }
  if (typeof value === 'string') {
    if ((field === 'archivedAt' || field === 'createdAt') && !Number.isNaN(Date.parse(value))) return inline(new Date(value).toISOString());
    return inline(value === '' ? '(empty)' : `“${value}”`);
  }
  if (typeof value === 'number') return inline(String(value));
  if (field === 'tags' && Array.isArray(value)) {
    return inline(value.length ? value.map((tag) => `${String(asRecord(tag)?.type)}:${String(asRecord(tag)?.value)}`).join(', ') : '(none)');
  }
  if (Array.isArray(value) && value.length === 0) return inline('(none)');
  return { text: JSON.stringify(value, null, 2), block: true };
}

/**
 * What bringing a flag back to a version will change, from the service's diff between that version (`before`) and now
 * (`after`): the same entries turned round (now → then), so something added since reads "removed", something removed
 * since reads "added", and the rest "changed" back.
 */
export function turnedBack<T extends DiffEntryLike>(diff: readonly T[]): Array<T & { before: unknown; after: unknown }> {
  return diff.map((entry) => ({ ...entry, before: entry.after ?? null, after: entry.before ?? null }));
}

/** The environments a list of diff entries touches, in order of appearance. */
export function environmentsOf(diff: readonly DiffEntryLike[]): string[] {
  const out: string[] = [];
  for (const entry of diff) {
    const t = diffTarget(entry.path);
    if ('environment' in t && !out.includes(t.environment)) out.push(t.environment);
  }
  return out;
}

/** The actions a revert reports (the change request actions' names) as words. */
const ACTION_WORDS: Record<string, string> = {
  createFeature: 'Create the flag',
  reviveFeature: 'Revive the flag',
  moveFeature: 'Move the flag to its project',
  updateFeature: 'Update the details',
  addTag: 'Add a tag',
  removeTag: 'Remove a tag',
  addDependency: 'Add a dependency',
  deleteDependency: 'Remove a dependency',
  addStrategy: 'Add a strategy',
  updateStrategy: 'Update a strategy',
  deleteStrategy: 'Delete a strategy',
  updateEnabled: 'Switch',
  patchVariant: 'Set the variants',
  archiveFeature: 'Archive the flag',
};

/** A change a revert made, as a sentence: "Delete a strategy in development", "Switch off in production". */
export function revertActionText(change: { action: string; environment?: string | null; payload?: unknown }): string {
  let words = ACTION_WORDS[change.action] ?? change.action;
  if (change.action === 'updateEnabled') {
    const enabled = asRecord(change.payload)?.enabled;
    words = enabled === true ? 'Switch on' : enabled === false ? 'Switch off' : words;
  }
  return change.environment ? `${words} in ${change.environment}` : words;
}
