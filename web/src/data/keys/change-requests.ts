/** Change requests: a project's (list, drafts, one request, those pending on a flag) and their configuration. */
export const changeRequestKeys = {
  all: ['change-requests'] as const,
  project: (project: string) => ['change-requests', 'project', project] as const,
  list: (project: string) => ['change-requests', 'project', project, 'list'] as const,
  drafts: (project: string) => ['change-requests', 'project', project, 'drafts'] as const,
  request: (project: string, id: number) => ['change-requests', 'project', project, 'request', id] as const,
  pending: (project: string, feature: string) => ['change-requests', 'project', project, 'pending', feature] as const,
  /** Which environments of a project need change requests. */
  config: (project: string) => ['change-requests', 'config', project] as const,
  /** A flag as it is now and the context fields, to show a request's changes against. */
  currentFeatures: () => ['change-requests', 'current-feature'] as const,
  currentFeature: (name: string) => ['change-requests', 'current-feature', name] as const,
  contextFields: () => ['change-requests', 'context-fields'] as const,
};
