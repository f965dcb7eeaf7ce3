/** Pure helpers of the access-control pages (users, groups, project access, tokens, signup links). */

export interface PersonLike {
  id: number;
  name?: string | null;
  username?: string | null;
  email?: string | null;
}

export interface RoleLike {
  id: number;
  name: string;
  type: string;
}

/** How a person is named on a page: their display name, else the name they sign in with. */
export function personLabel(p: PersonLike): string {
  return p.name?.trim() || p.username || p.email || `User ${p.id}`;
}

/** The sign-in names under the label, when they add something to it (a name alone says little about who it is). */
export function personDetail(p: PersonLike): string {
  const label = personLabel(p);
  return [p.username, p.email].filter((v): v is string => !!v && v !== label).join(' · ');
}

/** Users whose name, username or email holds the search text (case-insensitive); all of them for a blank search. */
export function filterPeople<T extends PersonLike>(people: readonly T[], search: string): T[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...people];
  return people.filter((p) => [p.name, p.username, p.email].some((v) => v?.toLowerCase().includes(q)));
}

/** One page of a list (pages count from 1), with the number of pages (at least 1) and the page actually shown. */
export function pageOf<T>(items: readonly T[], page: number, size: number): { items: T[]; pages: number; page: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { items: items.slice((current - 1) * size, current * size), pages, page: current };
}

/** A role's name from its id (a role deleted since the list was read shows its id rather than nothing). */
export function roleName(roles: readonly RoleLike[] | undefined, id: number | null | undefined): string {
  if (id === null || id === undefined) return 'None';
  return roles?.find((r) => r.id === id)?.name ?? `Role ${id}`;
}

/** Several roles' names, alphabetically (the order the service gives them in, by id, says nothing to a reader). */
export function roleNames(roles: readonly RoleLike[] | undefined, ids: readonly number[]): string {
  return ids.map((id) => roleName(roles, id)).sort((a, b) => a.localeCompare(b)).join(', ');
}

/** Root roles (predefined and custom) and project roles, each as the service types them. */
export const isRootRole = (r: RoleLike) => r.type === 'root' || r.type === 'root-custom';
export const isProjectRole = (r: RoleLike) => r.type === 'project' || r.type === 'custom';
/** Predefined roles cannot be changed or deleted; only custom ones get those controls. */
export const isCustomRole = (r: RoleLike) => r.type === 'custom' || r.type === 'root-custom';

/** The Select options of a list of roles, by id (Mantine's Select takes string values). */
export const roleOptions = (roles: readonly RoleLike[]) => roles.map((r) => ({ value: String(r.id), label: r.name }));

/**
 * SSO group names typed one per line or separated by commas: trimmed, blanks dropped, each once (in the order
 * typed). The service stores the list as given, so the tidying happens here.
 */
export function parseMappings(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[\n,]/)) {
    const name = part.trim();
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

/** The member ids after adding some and removing others (each id once, the order of joining kept). */
export function nextMembers(current: readonly number[], add: readonly number[] = [], remove: readonly number[] = []): number[] {
  const gone = new Set(remove);
  const out: number[] = [];
  for (const id of [...current, ...add]) if (!gone.has(id) && !out.includes(id)) out.push(id);
  return out;
}

export interface ExpiryChoice {
  value: string;
  label: string;
  days: number;
}

/** Expiry choices of a personal access token. */
export const TOKEN_EXPIRY: ExpiryChoice[] = [
  { value: '7', label: '7 days', days: 7 },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
];

/** Expiry choices of a signup link: the service caps them at one month ahead, so nothing longer is offered. */
export const SIGNUP_EXPIRY: ExpiryChoice[] = [
  { value: '1', label: '1 day', days: 1 },
  { value: '7', label: '7 days', days: 7 },
  { value: '30', label: '30 days', days: 30 },
];

/** The instant `days` after `now`, as the ISO string the service's DateTime takes. */
export function expiryIn(days: number, now: Date = new Date()): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString();
}

/** Whether an instant has passed (an expired token or link); an unreadable date counts as not passed. */
export function hasPassed(iso: string | null | undefined, now: Date = new Date()): boolean {
  if (!iso) return false;
  const t = Date.parse(iso);
  return !Number.isNaN(t) && t <= now.getTime();
}

/** A date-time for lists: date and minutes in the reader's locale; "never" for none. */
export function shortDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export interface AccessHolderUser extends PersonLike {
  roles: number[];
}

export interface AccessHolderGroup {
  id: number;
  name: string;
  roles: number[];
  users: unknown[];
}

/** One row of a project's access table: a user or a group, with the project roles it holds. */
export interface AccessRow {
  kind: 'user' | 'group';
  id: number;
  label: string;
  detail: string;
  roles: number[];
}

/** The holders of a project's roles as one list: groups first (they usually hold the most people), then users, by name. */
export function accessRows(users: readonly AccessHolderUser[], groups: readonly AccessHolderGroup[]): AccessRow[] {
  const byLabel = (a: AccessRow, b: AccessRow) => a.label.localeCompare(b.label) || a.id - b.id;
  const g = groups.map((x): AccessRow => ({ kind: 'group', id: x.id, label: x.name, detail: `${x.users.length} member${x.users.length === 1 ? '' : 's'}`, roles: [...x.roles] }));
  const u = users.map((x): AccessRow => ({ kind: 'user', id: x.id, label: personLabel(x), detail: personDetail(x), roles: [...x.roles] }));
  return [...g.sort(byLabel), ...u.sort(byLabel)];
}

/** Those not yet holding a role in the project, to offer when adding: the ones already there are changed in place. */
export function notYetHolding<T extends { id: number }>(all: readonly T[], holders: readonly { id: number }[]): T[] {
  const held = new Set(holders.map((h) => h.id));
  return all.filter((x) => !held.has(x.id));
}
