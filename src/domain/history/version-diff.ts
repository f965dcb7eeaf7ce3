import type { EnvironmentState, FeatureState, StrategyState } from './feature-state';

/** One difference between two states: where (a JSON Pointer into the state, strategies by id), and the two values. */
export interface DiffEntry {
  path: string;
  before: unknown;
  after: unknown;
}

/** RFC 6901: `~` and `/` in a name are escaped, so any environment name makes one path segment. */
const segment = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

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
    const path = `/environments/${segment(name)}`;
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
