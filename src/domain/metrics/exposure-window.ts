import { z } from 'zod';
import { isDate } from '../dates';
import { ValidationError } from '../errors';
import { parse } from '../validation';
import { HOUR_MS } from './client-metrics.read-model';
import { MAX_NAME } from './metrics-input';

/**
 * The time window of a flag's exposure chart (issue 44): which hourly counts of client_metrics_hourly it sums, into
 * which periods (hours, or days of a time zone), for which application and environment. Pure: no database, so the
 * bucketing is unit tested directly.
 */

/** The longest window: 31 days of hours, so "the last 30 days" fits whatever minute it is asked at. */
export const MAX_EXPOSURE_HOURS = 31 * 24;
export const DEFAULT_EXPOSURE_HOURS = 24;
export const GRANULARITIES = ['hour', 'day'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const validTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** The arguments as both doors take them; `parse` turns a refusal into a ValidationError naming the argument. */
export const exposureArgsSchema = z.object({
  hoursBack: z.number().int().min(1).max(MAX_EXPOSURE_HOURS).nullish(),
  from: z.string().refine(isDate, { message: 'must be an RFC 3339 date-time' }).nullish(),
  to: z.string().refine(isDate, { message: 'must be an RFC 3339 date-time' }).nullish(),
  granularity: z.enum(GRANULARITIES).nullish(),
  appName: z.string().min(1).max(MAX_NAME).nullish(),
  environment: z.string().min(1).max(MAX_NAME).nullish(),
  timeZone: z.string().max(100).refine(validTimeZone, { message: 'must be an IANA time zone, such as Europe/Oslo or UTC' }).nullish(),
}).superRefine((a, ctx) => {
  if (a.hoursBack != null && (a.from != null || a.to != null)) {
    ctx.addIssue({ code: 'custom', path: [a.from != null ? 'from' : 'to'], message: 'Give either `hoursBack` or `from` (and `to`), not both.' });
  }
  if (a.to != null && a.from == null) ctx.addIssue({ code: 'custom', path: ['from'], message: '`to` needs a `from`.' });
});
export type ExposureArgs = z.input<typeof exposureArgsSchema>;

export interface ExposureWindow {
  /** Start of the first hour counted (epoch ms, on the hour). */
  from: number;
  /** End of the last hour counted (exclusive, on the hour). */
  to: number;
  granularity: Granularity;
  timeZone: string;
  appName: string | null;
  environment: string | null;
}

const floorHour = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;
const ceilHour = (t: number) => Math.ceil(t / HOUR_MS) * HOUR_MS;

/**
 * The window the arguments name at `now`: `hoursBack` hours ending with the current one (default 24), or the hours
 * from `from` up to `to` (default now), widened to whole hours. At most MAX_EXPOSURE_HOURS hours.
 */
export function exposureWindow(args: ExposureArgs, now = Date.now()): ExposureWindow {
  const a = parse(exposureArgsSchema, args);
  const current = floorHour(now);
  let from: number;
  let to: number;
  if (a.from != null) {
    from = floorHour(Date.parse(a.from));
    to = a.to != null ? ceilHour(Date.parse(a.to)) : current + HOUR_MS;
    if (to <= from) throw ValidationError.single('to', 'The `to` argument must be later than `from`.');
    const hours = (to - from) / HOUR_MS;
    if (hours > MAX_EXPOSURE_HOURS) throw ValidationError.single('from', `The window from \`from\` to \`to\` spans ${hours} hours; at most ${MAX_EXPOSURE_HOURS} (31 days) may be asked at once.`);
  } else {
    const hours = a.hoursBack ?? DEFAULT_EXPOSURE_HOURS;
    to = current + HOUR_MS;
    from = to - hours * HOUR_MS;
  }
  return { from, to, granularity: a.granularity ?? 'hour', timeZone: a.timeZone ?? 'UTC', appName: a.appName ?? null, environment: a.environment ?? null };
}

/** Hours in the window (epoch ms of each start), oldest first. */
export function hoursOf(w: Pick<ExposureWindow, 'from' | 'to'>): number[] {
  const out: number[] = [];
  for (let h = w.from; h < w.to; h += HOUR_MS) out.push(h);
  return out;
}

/** How many periods the window holds (for its cost): its hours, or the days they fall on (at most one more than hours / 24). */
export function periodCount(w: Pick<ExposureWindow, 'from' | 'to' | 'granularity'>): number {
  const hours = (w.to - w.from) / HOUR_MS;
  return w.granularity === 'hour' ? hours : Math.ceil(hours / 24) + 1;
}

export interface Periods {
  /** Start of each period (epoch ms): for days, the first hour of the window on that day. Oldest first. */
  starts: number[];
  /** The period an hour of the window falls in (its index in `starts`). */
  indexOf: Map<number, number>;
}

/**
 * The window's periods: each hour, or each calendar day of `timeZone` (an hour belongs to the day its start falls on;
 * a day cut by the window's start begins at the window's first hour).
 */
export function periodsOf(w: ExposureWindow): Periods {
  const hours = hoursOf(w);
  const indexOf = new Map<number, number>();
  if (w.granularity === 'hour') {
    hours.forEach((h, i) => indexOf.set(h, i));
    return { starts: hours, indexOf };
  }
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: w.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const starts: number[] = [];
  let last = '';
  for (const h of hours) {
    const key = day.format(h);
    if (key !== last) {
      starts.push(h);
      last = key;
    }
    indexOf.set(h, starts.length - 1);
  }
  return { starts, indexOf };
}

/** A stable key of a window, for the per-request loaders (one batch per distinct window). */
export const windowKey = (w: ExposureWindow): string => JSON.stringify([w.from, w.to, w.granularity, w.timeZone, w.appName, w.environment]);
