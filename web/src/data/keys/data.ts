/** Data: SDK applications, the archive. */
export const dataKeys = {
  all: ['data'] as const,
  applications: () => ['data', 'applications'] as const,
  application: (appName: string) => ['data', 'application', appName] as const,
  unknownFlags: () => ['data', 'unknown-flags'] as const,
  archiveAll: () => ['data', 'archive'] as const,
  archive: (query: string) => ['data', 'archive', query] as const,
};
