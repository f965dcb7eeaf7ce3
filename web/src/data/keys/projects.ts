/** Projects: the list, a project's flags (its main page), its settings, its access and its import page's project. */
export const projectKeys = {
  all: ['projects'] as const,
  list: () => ['projects', 'list'] as const,
  /** Every project's flag list (a change of environments or definitions shows in all of them). */
  flagsAll: () => ['projects', 'flags'] as const,
  flags: (project: string) => ['projects', 'flags', project] as const,
  settings: (project: string) => ['projects', 'settings', project] as const,
  access: (project: string) => ['projects', 'access', project] as const,
  importTarget: (project: string) => ['projects', 'import-target', project] as const,
};
