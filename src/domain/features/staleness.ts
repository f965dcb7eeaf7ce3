const DAY_MS = 24 * 3600 * 1000;

/**
 * "Potentially stale": not marked stale, and at least its type's lifetime old at `now` (a type without a lifetime never
 * is). One rule for the health report, a flag's lifecycle and the flag index.
 */
export function isPotentiallyStale(stale: boolean, createdAtMs: number, lifetimeDays: number | null, now: number): boolean {
  return !stale && lifetimeDays !== null && now - createdAtMs >= lifetimeDays * DAY_MS;
}
