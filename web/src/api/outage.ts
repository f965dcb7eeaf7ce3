import { useSyncExternalStore } from 'react';
import { ApiError } from './errors';

/**
 * Whether the service's database is out of reach, as its answers say (503 ServiceUnavailableError on either door):
 * since when, or null. The query cache reports each refusal (main.tsx); the banner shows it and asks `/health/ready`
 * until the database is back, which alone ends it (an answer the service gives from its caches meanwhile does not).
 */
let since: number | null = null;
const listeners = new Set<() => void>();
const set = (next: number | null) => {
  if (next === since) return;
  since = next;
  for (const l of listeners) l();
};

/** Whether an error is the service saying its database cannot be reached (nothing was done; retry later). */
export const isOutage = (error: unknown): boolean => error instanceof ApiError && error.errorName === 'ServiceUnavailableError';

/** A request that failed: the service's outage refusal starts the outage (or continues it). */
export function noteFailure(error: unknown): void {
  if (isOutage(error)) set(since ?? Date.now());
}

/** `/health/ready` answered: the database is back. */
export function outageOver(): void {
  set(null);
}

/** Since when the database has been out of reach (ms since the epoch), or null. */
export const useOutageSince = () => useSyncExternalStore((l) => { listeners.add(l); return () => listeners.delete(l); }, () => since);

/** Whether the service can reach its database now (`GET /health/ready`, no credentials). */
export async function databaseReady(): Promise<boolean> {
  try {
    return (await fetch('/health/ready', { headers: { Accept: 'application/json' } })).ok;
  } catch {
    return false;
  }
}
