/**
 * A multi-selection of rows by name (the flag list's export, the archive's bulk revive and delete): new sets each time,
 * so React sees the change. Unit tested in test/unit/web-selection-usage.test.ts.
 */

export function toggled(selected: ReadonlySet<string>, name: string, on: boolean): Set<string> {
  const next = new Set(selected);
  if (on) next.add(name);
  else next.delete(name);
  return next;
}

/** Whether the shown rows are all, some or none selected (the "Select all shown" box's checked and indeterminate). */
export function shownState(shown: readonly string[], selected: ReadonlySet<string>): 'all' | 'some' | 'none' {
  const n = shown.filter((name) => selected.has(name)).length;
  return n === 0 ? 'none' : n === shown.length ? 'all' : 'some';
}

/** "Select all shown" ticked adds every shown row; unticked takes them off, leaving rows a filter hides as they were. */
export function withShown(selected: ReadonlySet<string>, shown: readonly string[], on: boolean): Set<string> {
  const next = new Set(selected);
  for (const name of shown) if (on) next.add(name);
  else next.delete(name);
  return next;
}

/** The selection still on the list (rows revived, deleted or filtered away by the service drop out). */
export function stillListed(selected: ReadonlySet<string>, listed: readonly string[]): Set<string> {
  const names = new Set(listed);
  return new Set([...selected].filter((n) => names.has(n)));
}

/**
 * Selected rows grouped by project, in the order they are listed: the service's bulk mutations (reviveFeatures,
 * deleteFeatures) take one project at a time.
 */
export function byProject<R extends { name: string; project: string }>(rows: readonly R[], selected: ReadonlySet<string>): Array<{ project: string; features: string[] }> {
  const groups = new Map<string, string[]>();
  for (const r of rows) {
    if (!selected.has(r.name)) continue;
    const list = groups.get(r.project);
    if (list) list.push(r.name);
    else groups.set(r.project, [r.name]);
  }
  return [...groups].map(([project, features]) => ({ project, features }));
}
