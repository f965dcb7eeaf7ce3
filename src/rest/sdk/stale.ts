import type { ServerResponse } from 'node:http';

/** The answer header that says an SDK answer comes from the last state this instance knew, and since when it may be stale. */
export const STALE_HEADER = 'Flagdeck-Stale-Since';

/** Marks an answer as given from the last state (its header), when it is. */
export function markStale(res: ServerResponse, staleSince: Date | undefined): void {
  if (staleSince) res.setHeader(STALE_HEADER, staleSince.toISOString());
}
