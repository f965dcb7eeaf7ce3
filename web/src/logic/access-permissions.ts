/**
 * The permission picker of a custom role: the permissions grouped as the service's listing groups them (root; project;
 * environment permissions per environment), what is chosen as a set of keys, and the role body it becomes.
 */

export interface ListedPermission {
  id: number;
  name: string;
  displayName: string;
  type: string;
  environment?: string | null;
}

export interface PermissionListingLike {
  root: ListedPermission[];
  project: ListedPermission[];
  environments: Array<{ name: string; permissions: ListedPermission[] }>;
}

/** `root-custom` makes a custom root role, `custom` a custom project role (the service's two kinds). */
export type CustomRoleType = 'root-custom' | 'custom';

export interface PickerItem {
  key: string;
  name: string;
  displayName: string;
}

export interface PickerGroup {
  id: string;
  title: string;
  items: PickerItem[];
}

/** A chosen permission: its name, and for an environment permission the environment ('' for every environment). */
export const permissionKey = (name: string, environment?: string | null) => `${name}|${environment ?? ''}`;

const item = (p: ListedPermission, environment?: string | null): PickerItem => ({ key: permissionKey(p.name, environment), name: p.name, displayName: p.displayName });

/**
 * The groups a role of this type chooses from. A root role takes root permissions; a project role project
 * permissions and environment permissions per environment. A project role may also hold an environment permission
 * in every environment (one stored without an environment, as the API allows); that group is shown only when the
 * role holds such a permission, so editing the role keeps it rather than dropping it unseen.
 */
export function pickerGroups(listing: PermissionListingLike, type: CustomRoleType, selection: ReadonlySet<string> = new Set()): PickerGroup[] {
  if (type === 'root-custom') return [{ id: 'root', title: 'Root permissions', items: listing.root.map((p) => item(p)) }];
  const groups: PickerGroup[] = [{ id: 'project', title: 'Project permissions', items: listing.project.map((p) => item(p)) }];
  const envPermissions = listing.environments[0]?.permissions ?? [];
  const everywhere = envPermissions.map((p) => item(p, null));
  if (everywhere.some((i) => selection.has(i.key))) groups.push({ id: 'env:*', title: 'Every environment', items: everywhere });
  for (const env of listing.environments) {
    groups.push({ id: `env:${env.name}`, title: `Environment: ${env.name}`, items: env.permissions.map((p) => item(p, env.name)) });
  }
  return groups;
}

/** What a role holds, as picker keys. A root role's permissions have no environment whatever was stored. */
export function selectionOf(permissions: readonly ListedPermission[], type: CustomRoleType): Set<string> {
  return new Set(permissions.map((p) => permissionKey(p.name, type === 'custom' && p.type === 'environment' ? p.environment : null)));
}

/** Only the chosen permissions the groups still offer (after the role's type changed, say). */
export function keepOffered(groups: readonly PickerGroup[], selection: ReadonlySet<string>): Set<string> {
  const offered = new Set(groups.flatMap((g) => g.items.map((i) => i.key)));
  return new Set([...selection].filter((k) => offered.has(k)));
}

/** The role body's permissions: by name, an environment only where one was chosen, in a stable order. */
export function toPermissionInput(selection: ReadonlySet<string>): Array<{ name: string; environment?: string }> {
  return [...selection]
    .map((key) => key.split('|') as [string, string])
    .sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y))
    .map(([name, environment]) => (environment ? { name, environment } : { name }));
}

/** Adds or removes one permission. */
export function toggleKey(selection: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(selection);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

/** How much of a group is chosen: for its "all" checkbox (checked, indeterminate or clear). */
export function groupState(group: PickerGroup, selection: ReadonlySet<string>): 'all' | 'some' | 'none' {
  const chosen = group.items.filter((i) => selection.has(i.key)).length;
  if (chosen === 0) return 'none';
  return chosen === group.items.length ? 'all' : 'some';
}

/** The group's "all" checkbox: chooses every permission of the group, or clears them when all were chosen. */
export function toggleGroup(selection: ReadonlySet<string>, group: PickerGroup): Set<string> {
  const next = new Set(selection);
  const all = groupState(group, selection) === 'all';
  for (const i of group.items) {
    if (all) next.delete(i.key);
    else next.add(i.key);
  }
  return next;
}

/** A role's permissions in one line for the roles table: display names, each environment permission with its environment. */
export function permissionSummary(permissions: readonly ListedPermission[], max = 4): string {
  if (permissions.length === 0) return 'No permissions';
  const names = permissions.map((p) => (p.type === 'environment' ? `${p.displayName} (${p.environment ?? 'every environment'})` : p.displayName));
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}
