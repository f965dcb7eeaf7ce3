/** The event log: its pages for a filter, and the filters' choices. */
export const eventKeys = {
  all: ['events'] as const,
  list: (filter: { type: string | null; project: string | null; feature: string | null }) => ['events', 'list', filter] as const,
  filters: () => ['events', 'filters'] as const,
};
