// The instant of the playground's "As of" field: blank is now; an ISO 8601 date-time with its offset is taken as it
// is, one without (as people type it, "2030-01-02 13:45" or with seconds) as the reader's local time. Unit tested in
// test/unit/web-version-diff.test.ts.

export type AsOf = { ok: true; iso: string | null } | { ok: false; error: string };

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** The instant the text names, as ISO 8601 in UTC (null: blank, now), or why it names none. */
export function asOfInstant(text: string): AsOf {
  const value = text.trim();
  if (value === '') return { ok: true, iso: null };
  let date: Date | null = null;
  if (WITH_OFFSET.test(value)) {
    date = new Date(value);
  } else {
    const m = LOCAL.exec(value);
    if (m) {
      const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = m;
      date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms.padEnd(3, '0')));
      // new Date rolls 2030-02-31 over into March: a date that is not on the calendar is refused instead.
      if (date.getMonth() !== Number(mo) - 1 || date.getDate() !== Number(d)) date = null;
    }
  }
  if (!date || Number.isNaN(date.getTime())) {
    return { ok: false, error: 'Give a date and time such as 2030-01-02 13:45 (your local time) or 2030-01-02T12:45:00Z, or leave it blank for now.' };
  }
  return { ok: true, iso: date.toISOString() };
}
