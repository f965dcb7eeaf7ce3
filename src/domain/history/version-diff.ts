import type { EnvironmentState, FeatureState, StrategyState } from './feature-state';

/** One difference between two states: where (a JSON Pointer into the state, strategies by id), and the two values. */
export interface DiffEntry {
  path: string;
  before: unknown;
  after: unknown;
}

/** RFC 6901: `~` and `/` in a name are escaped, so any environment name makes one path segment. */
export const pointerSegment = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

const FEATURE_FIELDS = ['project', 'type', 'description', 'stale', 'impressionData', 'createdAt', 'archivedAt', 'tags', 'dependencies'] as const;
const ENVIRONMENT_FIELDS = ['configured', 'enabled', 'variants'] as const;
const STRATEGY_FIELDS = ['name', 'title', 'disabled', 'sortOrder', 'parameters', 'constraints', 'variants', 'segments'] as const;

/**
 * Values compared as their JSON: states come from jsonb, whose objects have one key order, so equal values have equal
 * text. A list that differs is reported whole (constraints, variants, tags): its parts have no identity to name.
 */
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed from `before` to `after` (null: the feature did not exist), field by field: the feature's own fields,
 * then per environment (by name) its switch and variants, then per strategy (by id) each field; an environment or
 * strategy that appeared or went is one entry holding it whole. Entries come in a fixed order, so equal changes give
 * equal diffs.
 */
export function diffStates(before: FeatureState | null, after: FeatureState | null): DiffEntry[] {
  if (before === null || after === null) return before === after ? [] : [{ path: '', before, after }];
  const out: DiffEntry[] = [];
  for (const field of FEATURE_FIELDS) {
    if (!same(before[field], after[field])) out.push({ path: `/${field}`, before: before[field], after: after[field] });
  }
  const envs = new Map<string, [EnvironmentState | undefined, EnvironmentState | undefined]>();
  for (const e of before.environments) envs.set(e.name, [e, undefined]);
  for (const e of after.environments) envs.set(e.name, [envs.get(e.name)?.[0], e]);
  for (const [name, [b, a]] of [...envs].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const path = `/environments/${pointerSegment(name)}`;
    if (!b || !a) {
      out.push({ path, before: b ?? null, after: a ?? null });
      continue;
    }
    for (const field of ENVIRONMENT_FIELDS) if (!same(b[field], a[field])) out.push({ path: `${path}/${field}`, before: b[field], after: a[field] });
    out.push(...diffStrategies(`${path}/strategies`, b.strategies, a.strategies));
  }
  return out;
}

function diffStrategies(path: string, before: StrategyState[], after: StrategyState[]): DiffEntry[] {
  const out: DiffEntry[] = [];
  const afterById = new Map(after.map((s) => [s.id, s]));
  const beforeIds = new Set(before.map((s) => s.id));
  for (const b of before) {
    const a = afterById.get(b.id);
    if (!a) {
      out.push({ path: `${path}/${b.id}`, before: b, after: null });
      continue;
    }
    for (const field of STRATEGY_FIELDS) if (!same(b[field], a[field])) out.push({ path: `${path}/${b.id}/${field}`, before: b[field], after: a[field] });
  }
  for (const a of after) if (!beforeIds.has(a.id)) out.push({ path: `${path}/${a.id}`, before: null, after: a });
  return out;
}

/** The parts of a diff path: `/environments/<env>/strategies/<id>/<field>` and shorter, unescaped. */
function parts(path: string): string[] {
  return path === '' ? [] : path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a diff path of a state (null where the state has nothing there). */
export function valueAt(state: FeatureState | null, path: string): unknown {
  const [head, env, list, id, field] = parts(path);
  if (head === undefined) return state;
  if (state === null) return null;
  if (head !== 'environments') return (state as unknown as Record<string, unknown>)[head] ?? null;
  const e = state.environments.find((x) => x.name === env);
  if (!e || list === undefined) return e ?? null;
  if (list !== 'strategies') return (e as unknown as Record<string, unknown>)[list] ?? null;
  const s = e.strategies.find((x) => x.id === id);
  if (!s || field === undefined) return s ?? null;
  return (s as unknown as Record<string, unknown>)[field] ?? null;
}

/**
 * A copy of `state` with `value` at a diff path (null removes an environment or strategy; a strategy put back takes
 * its place by sort order). The root path is not settable: a flag's existence is not a field.
 */
export function withValueAt(state: FeatureState, path: string, value: unknown): FeatureState {
  const [head, env, list, id, field] = parts(path);
  if (head === undefined) throw new Error('withValueAt: the root is not a field');
  const out: FeatureState = structuredClone(state);
  if (head !== 'environments') {
    (out as unknown as Record<string, unknown>)[head] = value;
    return out;
  }
  const index = out.environments.findIndex((x) => x.name === env);
  if (list === undefined) {
    if (index >= 0) out.environments.splice(index, 1);
    if (value !== null) out.environments.push(value as EnvironmentState);
    out.environments.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return out;
  }
  if (index < 0) out.environments.push({ name: env, configured: true, enabled: false, variants: [], strategies: [] });
  const e = out.environments[index < 0 ? out.environments.length - 1 : index];
  if (list !== 'strategies') {
    (e as unknown as Record<string, unknown>)[list] = value;
    return out;
  }
  const at = e.strategies.findIndex((x) => x.id === id);
  if (field !== undefined) {
    if (at >= 0) (e.strategies[at] as unknown as Record<string, unknown>)[field] = value;
    return out;
  }
  if (at >= 0) e.strategies.splice(at, 1);
  if (value !== null) {
    e.strategies.push(value as StrategyState);
    e.strategies.sort((a, b) => a.sortOrder - b.sortOrder);
  }
  return out;
}
