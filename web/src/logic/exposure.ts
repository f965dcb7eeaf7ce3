/**
 * A flag's exposure chart as the flag page draws it (issue 44): the ranges it offers, its columns per environment, the
 * flag's changes placed on the time axis, and the table of the same numbers. Plain computations over what
 * `Feature.exposure` answers, unit tested in test/unit/web-exposure.test.ts.
 */

export const RANGES = [
  { value: '1h', label: '1 h', hoursBack: 1 },
  { value: '24h', label: '24 h', hoursBack: 24 },
  { value: '48h', label: '48 h', hoursBack: 48 },
  { value: '7d', label: '7 days', hoursBack: 7 * 24 },
  { value: '30d', label: '30 days', hoursBack: 30 * 24 },
] as const;
export type Range = (typeof RANGES)[number];
export type Granularity = 'hour' | 'day';
/** What the bars stack: evaluations to on and off, or the variants handed out. */
export type ExposureView = 'onoff' | 'variants';

/** The range of the `range` address parameter; 24 hours when absent or unknown. */
export const rangeOf = (value: string | null): Range => RANGES.find((r) => r.value === value) ?? RANGES[1];

export interface ExposureBucket {
  timestamp: string;
  environment: string;
  yes: number;
  no: number;
  variants: ReadonlyArray<{ name: string; count: number }>;
}

export interface ExposureChange {
  id: number;
  type: string;
  createdAt: string;
  createdBy: string;
  environment?: string | null;
  data?: unknown;
  preData?: unknown;
}

export interface Exposure {
  to: string;
  granularity: Granularity;
  periods: readonly string[];
  environments: readonly string[];
  buckets: readonly ExposureBucket[];
  changes: readonly ExposureChange[];
}

export interface ChartSeries {
  /** The series' key (variant names may hold any character, so they get `v0`, `v1`, …). */
  key: string;
  label: string;
  color: string;
}

/**
 * One environment's chart in the columns uPlot draws: period starts in Unix seconds (`x`), where the last period ends
 * (`end`), and per series its own count per period (`values[s][i]`, not stacked: the chart stacks them when it draws).
 */
export interface ChartData {
  x: number[];
  end: number;
  series: ChartSeries[];
  values: number[][];
}

const VARIANT_COLORS = ['violet.6', 'cyan.6', 'orange.6', 'pink.6', 'lime.7', 'indigo.6', 'teal.6', 'grape.6', 'yellow.7', 'blue.4'];
const seconds = (iso: string) => Date.parse(iso) / 1000;

/** The columns of one environment's chart: a period each, stacking on/off or the variants. */
export function chartOf(exposure: Exposure, environment: string, view: ExposureView): ChartData {
  const buckets = exposure.buckets.filter((b) => b.environment === environment);
  const x = buckets.map((b) => seconds(b.timestamp));
  const end = seconds(exposure.to);
  if (view === 'onoff') {
    return {
      x, end, values: [buckets.map((b) => b.yes), buckets.map((b) => b.no)],
      series: [{ key: 'yes', label: 'On (yes)', color: 'teal.6' }, { key: 'no', label: 'Off (no)', color: 'gray.5' }],
    };
  }
  const names = [...new Set(buckets.flatMap((b) => b.variants.map((v) => v.name)))].sort();
  const index = new Map(names.map((n, i) => [n, i]));
  const values = names.map(() => buckets.map(() => 0));
  buckets.forEach((b, i) => { for (const v of b.variants) values[index.get(v.name)!][i] = v.count; });
  return { x, end, values, series: names.map((n, i) => ({ key: `v${i}`, label: n, color: VARIANT_COLORS[i % VARIANT_COLORS.length] })) };
}

/** The tallest stack of the series shown (those `shown` says yes to): the top of the chart's count axis. */
export function stackedMax(values: readonly number[][], shown: (s: number) => boolean = () => true): number {
  let max = 0;
  for (let i = 0; i < (values[0]?.length ?? 0); i++) {
    let sum = 0;
    values.forEach((v, s) => { if (shown(s)) sum += v[i]; });
    max = Math.max(max, sum);
  }
  return max;
}

/** What the chart's canvas says to a screen reader: each series' total (the tables below hold every period). */
export function chartSummary(chart: ChartData, environment: string, granularity: Granularity): string {
  const totals = chart.series.map((s, i) => `${countText(chart.values[i].reduce((a, b) => a + b, 0))} ${s.label}`);
  const n = chart.x.length;
  return `${environment}, evaluations per ${granularity} over ${countText(n)} ${granularity}${n === 1 ? '' : 's'}: ${totals.join(', ')}`;
}

export type ChangeKind = 'switch' | 'strategy' | 'variants';

export interface Marker {
  change: ExposureChange;
  kind: ChangeKind;
  /** The period it falls in (its `t`), and how far into it (0..1), to place it inside that bar. */
  period: string;
  fraction: number;
  /** What happened, in a sentence. */
  text: string;
}

const KINDS: Record<string, ChangeKind> = {
  'feature-environment-enabled': 'switch',
  'feature-environment-disabled': 'switch',
  'feature-strategy-add': 'strategy',
  'feature-strategy-update': 'strategy',
  'feature-strategy-remove': 'strategy',
  'strategy-order-changed': 'strategy',
  'feature-variants-updated': 'variants',
  'feature-environment-variants-updated': 'variants',
};

const strategyName = (d: unknown): string | null => {
  if (!d || typeof d !== 'object') return null;
  const s = d as { title?: unknown; name?: unknown };
  return typeof s.title === 'string' && s.title ? s.title : typeof s.name === 'string' ? s.name : null;
};

/** A change in a sentence: what happened, where (when it names an environment). */
export function describeChange(c: ExposureChange): string {
  const where = c.environment ? ` in ${c.environment}` : '';
  const strategy = strategyName(c.data) ?? strategyName(c.preData);
  const named = strategy ? ` “${strategy}”` : '';
  switch (c.type) {
    case 'feature-environment-enabled': return `Switched on${where}`;
    case 'feature-environment-disabled': return `Switched off${where}`;
    case 'feature-strategy-add': return `Strategy${named} added${where}`;
    case 'feature-strategy-update': return `Strategy${named} changed${where}`;
    case 'feature-strategy-remove': return `Strategy${named} removed${where}`;
    case 'strategy-order-changed': return `Strategies reordered${where}`;
    default: return `Variants changed${where}`;
  }
}

/** The changes drawn on one environment's chart (those in it or in none), each in the period it falls in. */
export function markersOf(exposure: Pick<Exposure, 'periods' | 'to' | 'changes'>, environment: string): Marker[] {
  const starts = exposure.periods.map((p) => Date.parse(p));
  const end = Date.parse(exposure.to);
  const out: Marker[] = [];
  for (const change of exposure.changes) {
    if (change.environment && change.environment !== environment) continue;
    const t = Date.parse(change.createdAt);
    let i = starts.length - 1;
    while (i >= 0 && starts[i] > t) i--;
    if (i < 0 || t >= end) continue;
    const next = i + 1 < starts.length ? starts[i + 1] : end;
    out.push({
      change, kind: KINDS[change.type] ?? 'variants', period: exposure.periods[i],
      fraction: Math.min(1, Math.max(0, (t - starts[i]) / (next - starts[i]))), text: describeChange(change),
    });
  }
  return out;
}

/** The table of the chart's numbers: one row per environment and period with evaluations, oldest first. */
export function tableRows(exposure: Pick<Exposure, 'buckets'>): ExposureBucket[] {
  return exposure.buckets.filter((b) => b.yes + b.no > 0 || b.variants.length > 0);
}

// Formatters made once: `toLocale*String` builds a new one at every call (about a millisecond each), and a month of
// hours labels 1,440 table rows and every axis tick.
const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const COUNT = new Intl.NumberFormat();
const MOMENT = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });

/** A change's time as its marker and row tell it (what `toLocaleString()` writes). */
export const momentText = (iso: string): string => MOMENT.format(new Date(iso));

/** A count as the chart and its table show it: grouped digits in the reader's locale. */
export const countText = (n: number): string => COUNT.format(n);

/** A tick of the chart's time axis (Unix seconds): the day at a local midnight, else the time. */
export function tickLabel(secs: number): string {
  const d = new Date(secs * 1000);
  return d.getHours() === 0 && d.getMinutes() === 0 ? DAY.format(d) : TIME.format(d);
}

/** A period's start as its axis and table show it: the time of an hour (with the day when the range spans days), or the day. */
export function periodLabel(iso: string, granularity: Granularity, spansDays: boolean): string {
  const d = new Date(iso);
  // The chart's tooltip asks for the label of no period at all before the pointer rests on one.
  if (Number.isNaN(d.getTime())) return '';
  if (granularity === 'day') return DAY.format(d);
  const time = TIME.format(d);
  return spansDays ? `${DAY.format(d)} ${time}` : time;
}

/** "Variant counts" as a cell shows them: `blue 15, green 10`, or "—". */
export const variantText = (variants: ExposureBucket['variants']): string =>
  (variants.length === 0 ? '—' : variants.map((v) => `${v.name} ${countText(v.count)}`).join(', '));
