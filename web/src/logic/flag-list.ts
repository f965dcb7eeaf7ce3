/**
 * The project flag list's filtering, sorting and time display: pure functions over the loaded list (no React, no
 * packages), so typing a search over 1000 flags costs a loop and jest tests them directly.
 */

export interface FlagTag {
  type: string;
  value: string;
}

export interface FlagEnvironmentState {
  name: string;
  enabled: boolean;
  lastSeenAt?: string | null;
}

export interface FlagListItem {
  name: string;
  type: string;
  stale: boolean;
  createdAt: string;
  tags: FlagTag[];
  environments: FlagEnvironmentState[];
  /** Its lifecycle stage as GraphQL names it (`preLive`), when the list loaded it. */
  lifecycle?: { stage: string };
}

export type FlagState = 'all' | 'enabled' | 'stale';
export type SortKey = 'name' | 'createdAt' | 'lastSeen' | 'type';
export type SortDirection = 'asc' | 'desc';

export interface FlagFilter {
  /** Text the name contains, case-insensitive. */
  search: string;
  /** Feature type id; null for every type. */
  type: string | null;
  /** A tag as tagKey() writes it; null for any. */
  tag: string | null;
  state: FlagState;
  /** A lifecycle stage (`preLive`); null or absent for any. */
  lifecycle?: string | null;
}

export const tagKey = (tag: FlagTag): string => `${tag.type}:${tag.value}`;

/** When an SDK last reported the flag in any environment; null when never. ISO strings compare as times. */
export function lastSeen(flag: Pick<FlagListItem, 'environments'>): string | null {
  let latest: string | null = null;
  for (const env of flag.environments) if (env.lastSeenAt && (latest === null || env.lastSeenAt > latest)) latest = env.lastSeenAt;
  return latest;
}

export function filterFlags<F extends FlagListItem>(flags: readonly F[], filter: FlagFilter): F[] {
  const search = filter.search.trim().toLowerCase();
  return flags.filter((f) =>
    (search === '' || f.name.toLowerCase().includes(search))
    && (filter.type === null || f.type === filter.type)
    && (filter.tag === null || f.tags.some((t) => tagKey(t) === filter.tag))
    && (filter.state === 'all'
      || (filter.state === 'stale' ? f.stale : f.environments.some((e) => e.enabled)))
    && (!filter.lifecycle || f.lifecycle?.stage === filter.lifecycle));
}

const byName = (a: FlagListItem, b: FlagListItem) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A sorted copy; ties (and flags never seen, which go last either way) ordered by name. */
export function sortFlags<F extends FlagListItem>(flags: readonly F[], key: SortKey, direction: SortDirection): F[] {
  const sign = direction === 'asc' ? 1 : -1;
  const seen = key === 'lastSeen' ? new Map(flags.map((f) => [f.name, lastSeen(f)])) : null;
  return [...flags].sort((a, b) => {
    if (seen) {
      const [x, y] = [seen.get(a.name) ?? null, seen.get(b.name) ?? null];
      if (x === null || y === null) return x === y ? byName(a, b) : x === null ? 1 : -1;
      if (x !== y) return (x < y ? -1 : 1) * sign;
      return byName(a, b);
    }
    const x = key === 'name' ? a.name : key === 'type' ? a.type : a.createdAt;
    const y = key === 'name' ? b.name : key === 'type' ? b.type : b.createdAt;
    if (x !== y) return (x < y ? -1 : 1) * sign;
    return byName(a, b);
  });
}

/** Every tag on the flags, once, by type then value. */
export function tagsOf(flags: readonly FlagListItem[]): FlagTag[] {
  const all = new Map<string, FlagTag>();
  for (const f of flags) for (const t of f.tags) all.set(tagKey(t), t);
  return [...all.values()].sort((a, b) => (a.type === b.type ? (a.value < b.value ? -1 : 1) : a.type < b.type ? -1 : 1));
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000], ['month', 30 * 86_400_000], ['week', 7 * 86_400_000], ['day', 86_400_000],
  ['hour', 3_600_000], ['minute', 60_000],
];

/** "3 minutes ago", "yesterday", "just now"; "never" for no time. */
export function relativeTime(iso: string | null | undefined, now: number = Date.now(), locale = 'en'): string {
  if (!iso) return 'never';
  const diff = new Date(iso).getTime() - now;
  if (!Number.isFinite(diff)) return 'never';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) if (Math.abs(diff) >= ms) return format.format(Math.round(diff / ms), unit);
  return 'just now';
}

/** The project id rule of the service (URL friendly, 1..100 characters): a message, or null when it passes. */
export function projectIdProblem(id: string): string | null {
  if (id.length === 0) return 'Give the project an id.';
  if (id.length > 100) return 'At most 100 characters.';
  if (!/^[a-zA-Z0-9~_.-]+$/.test(id)) return 'Only letters, digits and ~ _ . - (it is part of URLs).';
  return null;
}

/** A project id made from a name as it is typed: lower case, spaces and other characters as dashes. */
export function idFromName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9~_.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100);
}

/** The flag name rule the form checks before sending (the project's naming pattern is the service's to check). */
export function flagNameProblem(name: string): string | null {
  if (name.trim() === '') return 'Give the flag a name.';
  return /^[a-zA-Z0-9~_.-]+$/.test(name.trim()) ? null : 'Only letters, digits and ~ _ . - (it is part of URLs).';
}

/** The list's search, filters and sort as the address keeps them (query parameters; a missing one is the default). */
export type FlagListParams = Record<'q' | 'type' | 'tag' | 'state' | 'sort' | 'dir', string | null>;

const SORT_KEYS: readonly SortKey[] = ['name', 'createdAt', 'lastSeen', 'type'];
const STATES: readonly FlagState[] = ['all', 'enabled', 'stale'];

/** The filters and sort an address names; an unknown value (an old or mistyped link) is the default: all flags, by name, ascending. */
export function flagListState(params: FlagListParams): Omit<FlagFilter, 'search'> & { sort: { key: SortKey; direction: SortDirection } } {
  const state = STATES.find((s) => s === params.state) ?? 'all';
  const key = SORT_KEYS.find((k) => k === params.sort) ?? 'name';
  return { type: params.type, tag: params.tag, state, sort: { key, direction: params.dir === 'desc' ? 'desc' : 'asc' } };
}

/** The address's sort after a click on a column: that column ascending, or descending when it already was ascending; defaults left out. */
export function sortParams(current: { key: SortKey; direction: SortDirection }, key: SortKey): Pick<FlagListParams, 'sort' | 'dir'> {
  const direction = current.key === key && current.direction === 'asc' ? 'desc' : 'asc';
  return { sort: key === 'name' ? null : key, dir: direction === 'asc' ? null : direction };
}
