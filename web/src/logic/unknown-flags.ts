/** One unknown name with everything that reported it: the rows of the unknown-flags page. */
export interface UnknownName {
  name: string;
  appNames: string[];
  environments: string[];
  /** The latest report of any of them. */
  seenAt: string;
}

/** The service's rows (per name, application and environment) grouped by name, the most recently reported first. */
export function groupUnknownFlags(rows: ReadonlyArray<{ name: string; appName: string; environment: string; seenAt: string }>): UnknownName[] {
  const byName = new Map<string, { apps: Set<string>; envs: Set<string>; seenAt: string }>();
  for (const r of rows) {
    let entry = byName.get(r.name);
    if (!entry) byName.set(r.name, (entry = { apps: new Set(), envs: new Set(), seenAt: r.seenAt }));
    entry.apps.add(r.appName);
    entry.envs.add(r.environment);
    if (Date.parse(r.seenAt) > Date.parse(entry.seenAt)) entry.seenAt = r.seenAt;
  }
  return [...byName].map(([name, e]) => ({ name, appNames: [...e.apps].sort(), environments: [...e.envs].sort(), seenAt: e.seenAt }))
    .sort((a, b) => Date.parse(b.seenAt) - Date.parse(a.seenAt) || a.name.localeCompare(b.name));
}
