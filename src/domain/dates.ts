/**
 * The one way the domain writes a time: ISO 8601 in UTC, as `Date.toISOString()` does. Entities carry `Date`s; raw
 * selects carry PostgreSQL's text (`'2026-01-02 03:04:05.678+00'`, see src/domain/rows.ts), jsonb and JSON carry ISO
 * strings; all read the same.
 */
export const iso = (d: Date | string | number): string => new Date(d).toISOString();

/** `iso`, or null for a time that is not set. */
export const isoOrNull = (d: Date | string | number | null | undefined): string | null => (d === null || d === undefined ? null : iso(d));
