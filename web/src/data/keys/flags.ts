/** One flag's page: the flag and what hangs off it (its events, its usage), and the choices its editors offer. */
export const flagKeys = {
  all: ['flags'] as const,
  /** The flag, its events and its history (they share the prefix, so one invalidation after a change refreshes them all). */
  flag: (name: string) => ['flags', 'flag', name] as const,
  events: (name: string) => ['flags', 'flag', name, 'events'] as const,
  /** Its versions, and what it was at an instant and what changed since (under the flag: a change refreshes them). */
  versions: (name: string) => ['flags', 'flag', name, 'versions'] as const,
  at: (name: string, at: string) => ['flags', 'flag', name, 'at', at] as const,
  changesSince: (name: string, from: string) => ['flags', 'flag', name, 'changes-since', from] as const,
  /** Its exposure chart (under the flag: a change of it is a new marker), one entry per window and filter. */
  exposure: (name: string, window: object) => ['flags', 'flag', name, 'exposure', window] as const,
  /** What SDKs reported of it: outside the flag's prefix, since a change of the flag does not change it (it is read every minute). */
  usage: (name: string) => ['flags', 'usage', name] as const,
  /** Feature types and tag types, for the details and tag editors. */
  choices: () => ['flags', 'choices'] as const,
  /** Every flag of every project, for the Flags page and the command palette (read again when shown, changes elsewhere included). */
  everyFlag: () => ['flags', 'every-flag'] as const,
  /** A project's flag names, for the dependency picker. */
  projectFlagNames: (project: string) => ['flags', 'project-flag-names', project] as const,
};
