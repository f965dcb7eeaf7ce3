/**
 * The import page's reading of what a user pastes or uploads, the export's file name, and the what-would-change diff
 * as readable lines: plain computations, unit tested in test/unit/web-import-export.test.ts.
 */
import { constraintSentence, parameterSummary, strategyHeading, weightPercent, type ConstraintLike } from './flag-summary';

export type ParsedImport =
  | { ok: true; data: Record<string, unknown>; features: string[] }
  | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An export as the user gives it: the `data` an export produces, or a whole import payload (`{ project, environment,
 * data }`, as the REST import takes it), whose `data` is used. What is wrong is said in a sentence; whether the payload
 * is importable is the service's call (validateImport).
 */
export function parseImportText(text: string): ParsedImport {
  if (!text.trim()) return { ok: false, error: 'Paste an export or choose a file.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `This is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!isObject(value)) return { ok: false, error: 'An export is a JSON object with a "features" list.' };
  const data = !('features' in value) && isObject(value.data) ? value.data : value;
  if (!Array.isArray(data.features)) return { ok: false, error: 'An export has a "features" list: this JSON has none.' };
  const features = data.features.flatMap((f) => (isObject(f) && typeof f.name === 'string' ? [f.name] : []));
  return { ok: true, data, features };
}

/** What an export is of: some flags of a project, or the whole project. */
export type ExportScope = { project: string; features?: string[] };

/** A file name that says what the export holds: `flagdeck-<project>[-3-flags]-<environment>-<date>.json`. */
export function exportFileName(scope: ExportScope, environment: string, when: Date): string {
  const safe = (s: string) => s.replace(/[^a-zA-Z0-9._-]+/g, '_');
  const part = scope.features ? `-${scope.features.length === 1 ? safe(scope.features[0]) : `${scope.features.length}-flags`}` : '';
  return `flagdeck-${safe(scope.project)}${part}-${safe(environment)}-${when.toISOString().slice(0, 10)}.json`;
}

/** The GraphQL input of an export: the flags chosen, or every active flag of the project. */
export function exportInput(scope: ExportScope, environment: string): { environment: string; features?: string[]; project?: string } {
  return scope.features ? { environment, features: scope.features } : { environment, project: scope.project };
}

// ---- the diff ------------------------------------------------------------------------------------------------

interface StrategyLike {
  name: string;
  title?: string | null;
  disabled?: boolean | null;
  parameters: unknown;
  constraints: ConstraintLike[];
  variants?: Array<{ name: string }>;
  segments?: number[];
}
interface VariantLike { name: string; weight: number }
interface TagLike { type: string; value: string }
interface DependencyLike { feature: string; enabled: boolean; variants: string[] }

/** What validateImport and importFeatures say of one flag (the fields the page reads). */
export interface ImportChangeLike {
  feature: string;
  action: string;
  fields: Array<{ field: string; before?: unknown; after?: unknown }>;
  enabled?: { before: boolean; after: boolean } | null;
  strategies: { added: StrategyLike[]; removed: StrategyLike[] };
  variants?: { before: VariantLike[]; after: VariantLike[] } | null;
  tags: { added: TagLike[]; removed: TagLike[] };
  dependencies: { added: DependencyLike[]; removed: DependencyLike[] };
}

/** One line of a flag's diff: added (+), removed (−) or changed (~). */
export interface DiffLine {
  kind: 'add' | 'remove' | 'change';
  text: string;
}

const shown = (v: unknown): string => (v === undefined || v === null || v === '' ? '(none)' : typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

/** A strategy in one line: heading, what its parameters do, its constraints, segments and variants. */
export function strategyLine(s: StrategyLike): string {
  const parts = [`${strategyHeading(s)}: ${parameterSummary(s.name, s.parameters)}`];
  if (s.constraints.length) parts.push(`when ${s.constraints.map(constraintSentence).join(' and ')}`);
  if (s.segments?.length) parts.push(`segments ${s.segments.join(', ')}`);
  if (s.variants?.length) parts.push(`variants ${s.variants.map((v) => v.name).join(', ')}`);
  if (s.disabled) parts.push('(disabled)');
  return parts.join('; ');
}

const variantList = (list: VariantLike[]) => (list.length ? list.map((v) => `${v.name} ${weightPercent(v.weight)}`).join(', ') : 'none');
const dependencyText = (d: DependencyLike) =>
  `${d.feature} ${d.enabled ? 'enabled' : 'disabled'}${d.variants.length ? ` (variants ${d.variants.join(', ')})` : ''}`;

/** What importing would do to one flag, line by line, in the order a reader checks it. */
export function diffLines(change: ImportChangeLike, environment: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const f of change.fields) lines.push({ kind: 'change', text: `${f.field}: ${shown(f.before)} → ${shown(f.after)}` });
  if (change.enabled) lines.push({ kind: 'change', text: `${change.enabled.after ? 'Switched on' : 'Switched off'} in ${environment}` });
  for (const s of change.strategies.removed) lines.push({ kind: 'remove', text: `Strategy ${strategyLine(s)}` });
  for (const s of change.strategies.added) lines.push({ kind: 'add', text: `Strategy ${strategyLine(s)}` });
  if (change.variants) lines.push({ kind: 'change', text: `Variants in ${environment}: ${variantList(change.variants.before)} → ${variantList(change.variants.after)}` });
  for (const t of change.tags.removed) lines.push({ kind: 'remove', text: `Tag ${t.type}:${t.value}` });
  for (const t of change.tags.added) lines.push({ kind: 'add', text: `Tag ${t.type}:${t.value}` });
  for (const d of change.dependencies.removed) lines.push({ kind: 'remove', text: `Depends on ${dependencyText(d)}` });
  for (const d of change.dependencies.added) lines.push({ kind: 'add', text: `Depends on ${dependencyText(d)}` });
  return lines;
}

/** "2 new, 1 updated, 3 unchanged": the validation at a glance. */
export function actionCounts(changes: ReadonlyArray<{ action: string }>): string {
  const count = (a: string) => changes.filter((c) => c.action === a).length;
  const parts = [[count('create'), 'new'], [count('update'), 'updated'], [count('unchanged'), 'unchanged']] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, word]) => `${n} ${word}`);
  return said.length ? said.join(', ') : 'no flags';
}
