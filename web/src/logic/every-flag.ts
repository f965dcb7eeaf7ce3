/** The Flags page's filters (`/flags`), each a query parameter of the address; null: no filter. */
export interface EveryFlagFilters {
  q: string | null;
  project: string | null;
  type: string | null;
  /** `type:value`. */
  tag: string | null;
  /** `on` (on in some environment) or `off`. */
  state: string | null;
  /** A lifecycle stage as GraphQL names it (`preLive`). */
  lifecycle: string | null;
  /** `stale`, `potentially` (potentially stale) or `fresh` (neither). */
  stale: string | null;
}

export interface FilterableFlag {
  name: string;
  project: string;
  type: string;
  description?: string | null;
  stale: boolean;
  potentiallyStale: boolean;
  enabled: boolean;
  tags: ReadonlyArray<{ type: string; value: string }>;
  /** Its lifecycle stage as GraphQL names it (`preLive`). */
  stage: string;
}

export const LIFECYCLE_LABELS: Record<string, string> = {
  initial: 'Initial', preLive: 'Pre-live', live: 'Live', completed: 'Completed', archived: 'Archived',
};

/** Lower-cased words of a search: a flag matches when each is in its name, project or description. */
const words = (q: string | null) => (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);

/** The flags that pass every filter given, in their order. */
export function filterFlags<F extends FilterableFlag>(flags: readonly F[], f: EveryFlagFilters): F[] {
  const search = words(f.q);
  return flags.filter((flag) => {
    if (f.project && flag.project !== f.project) return false;
    if (f.type && flag.type !== f.type) return false;
    if (f.tag && !flag.tags.some((t) => `${t.type}:${t.value}` === f.tag)) return false;
    if (f.state === 'on' && !flag.enabled) return false;
    if (f.state === 'off' && flag.enabled) return false;
    if (f.lifecycle && flag.stage !== f.lifecycle) return false;
    if (f.stale === 'stale' && !flag.stale) return false;
    if (f.stale === 'potentially' && !(flag.potentiallyStale && !flag.stale)) return false;
    if (f.stale === 'fresh' && (flag.stale || flag.potentiallyStale)) return false;
    if (search.length > 0) {
      const text = `${flag.name} ${flag.project} ${flag.description ?? ''}`.toLowerCase();
      if (!search.every((w) => text.includes(w))) return false;
    }
    return true;
  });
}

/** The choices of the project, type and tag filters: what the flags have, sorted. */
export function filterChoices(flags: readonly FilterableFlag[]): { projects: string[]; types: string[]; tags: string[] } {
  const projects = new Set<string>();
  const types = new Set<string>();
  const tags = new Set<string>();
  for (const f of flags) {
    projects.add(f.project);
    types.add(f.type);
    for (const t of f.tags) tags.add(`${t.type}:${t.value}`);
  }
  const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
  return { projects: sorted(projects), types: sorted(types), tags: sorted(tags) };
}

/** A stage's length, roughly: "5 minutes", "3 hours", "12 days" (the largest whole unit, at least one minute shown as "< 1 minute"). */
export function stageDuration(ms: number): string {
  const units: Array<[number, string]> = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute']];
  for (const [size, name] of units) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'}`;
  }
  return '< 1 minute';
}
