/**
 * The one way the domain writes a time: ISO 8601 in UTC, as `Date.toISOString()` does. Entities carry `Date`s; raw
 * selects carry PostgreSQL's text (`'2026-01-02 03:04:05.678+00'`, see src/domain/rows.ts), jsonb and JSON carry ISO
 * strings; all read the same.
 */
export const iso = (d: Date | string | number): string => new Date(d).toISOString();

/** `iso`, or null for a time that is not set. */
export const isoOrNull = (d: Date | string | number | null | undefined): string | null => (d === null || d === undefined ? null : iso(d));

/** RFC 3339 date-time (the time zone optional, as Unleash's schema accepts), and a time JavaScript can read. */
const DATE_TIME = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d(?::?\d\d)?)?$/;
export const isDate = (v: string) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v));
