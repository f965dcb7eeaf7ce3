/**
 * How recently SDKs reported a flag, as the project's flag list colours it (issue 44). Pure, unit tested in
 * test/unit/web-exposure.test.ts.
 */
export type SeenLevel = 'hour' | 'day' | 'week' | 'older' | 'never';

const HOUR = 3_600_000;

export function seenLevel(iso: string | null | undefined, now: number = Date.now()): SeenLevel {
  if (!iso) return 'never';
  const age = now - Date.parse(iso);
  if (!Number.isFinite(age)) return 'never';
  if (age <= HOUR) return 'hour';
  if (age <= 24 * HOUR) return 'day';
  if (age <= 7 * 24 * HOUR) return 'week';
  return 'older';
}

/** What each colour means, for its tooltip. */
export const SEEN_LABELS: Record<SeenLevel, string> = {
  hour: 'reported in the last hour',
  day: 'reported in the last 24 hours',
  week: 'reported in the last 7 days',
  older: 'not reported for more than 7 days',
  never: 'never reported',
};

/** The sparkline's name: what its line sums to. */
export function sparklineLabel(totals: readonly number[]): string {
  const sum = totals.reduce((a, b) => a + b, 0);
  return sum === 0 ? 'No evaluations in the last 24 hours' : `${sum.toLocaleString('en')} evaluations in the last 24 hours`;
}

/** The points of a sparkline of `values` in a box of `width` × `height` (the largest value at the top, 0 at the bottom). */
export function sparklinePoints(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return '';
  const max = Math.max(...values);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values.map((v, i) => `${(i * step).toFixed(1)},${(height - 1 - (max > 0 ? (v / max) * (height - 2) : 0)).toFixed(1)}`).join(' ');
}
