/** One flag's page: the flag and what hangs off it (its events, its usage), and the choices its editors offer. */
export const flagKeys = {
  all: ['flags'] as const,
  /** The flag and everything under it (its events and usage share the prefix, so one invalidation refreshes all). */
  flag: (name: string) => ['flags', 'flag', name] as const,
  events: (name: string) => ['flags', 'flag', name, 'events'] as const,
  usage: (name: string) => ['flags', 'flag', name, 'usage'] as const,
  /** Feature types and tag types, for the details and tag editors. */
  choices: () => ['flags', 'choices'] as const,
  /** A project's flag names, for the dependency picker. */
  projectFlagNames: (project: string) => ['flags', 'project-flag-names', project] as const,
};
