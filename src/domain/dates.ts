/**
 * The one way the domain writes a time: ISO 8601 in UTC, as `Date.toISOString()` does. Rows from node-postgres carry
 * `Date`s, rows from jsonb or JSON carry strings; both read the same.
 */
export const iso = (d: Date | string | number): string => new Date(d).toISOString();

/** `iso`, or null for a time that is not set. */
export const isoOrNull = (d: Date | string | number | null | undefined): string | null => (d === null || d === undefined ? null : iso(d));
