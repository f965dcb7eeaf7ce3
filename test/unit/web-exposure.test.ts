import { describe, expect, it } from '@jest/globals';
import { exposureWindow, periodsOf } from '../../src/domain/metrics/exposure-window';
import { chartOf, chartSummary, describeChange, markersOf, rangeOf, stackedMax, tableRows, tickLabel, type Exposure } from '../../web/src/logic/exposure';
import { seenLevel, sparklineLabel, sparklinePoints } from '../../web/src/logic/last-seen';

const H = 3_600_000;
const t = (hour: number) => new Date(Date.UTC(2026, 10, 29, hour)).toISOString();
const exposure: Exposure = {
  to: t(13),
  granularity: 'hour',
  periods: [t(10), t(11), t(12)],
  environments: ['development', 'production'],
  buckets: [
    { timestamp: t(10), environment: 'development', yes: 4, no: 1, variants: [{ name: 'blue', count: 3 }, { name: 'a.b', count: 1 }] },
    { timestamp: t(11), environment: 'development', yes: 0, no: 0, variants: [] },
    { timestamp: t(12), environment: 'development', yes: 2, no: 0, variants: [{ name: 'blue', count: 2 }] },
    { timestamp: t(10), environment: 'production', yes: 0, no: 0, variants: [] },
    { timestamp: t(11), environment: 'production', yes: 0, no: 9, variants: [] },
    { timestamp: t(12), environment: 'production', yes: 0, no: 0, variants: [] },
  ],
  changes: [
    { id: 1, type: 'feature-environment-enabled', createdAt: new Date(Date.parse(t(10)) + 15 * 60_000).toISOString(), createdBy: 'ann', environment: 'development' },
    { id: 2, type: 'feature-strategy-update', createdAt: new Date(Date.parse(t(11)) + 30 * 60_000).toISOString(), createdBy: 'bo', environment: 'production', data: { name: 'flexibleRollout', title: 'Half' } },
    { id: 3, type: 'feature-variants-updated', createdAt: t(12), createdBy: 'cy', environment: null },
    { id: 4, type: 'feature-environment-disabled', createdAt: t(9), createdBy: 'dee', environment: 'development' },
  ],
};

describe('the exposure chart\'s data (web/src/logic/exposure.ts)', () => {
  it('lays out on/off per period of one environment, or its variants under keys that any name can have, as uPlot\'s columns', () => {
    const s = (hour: number) => Date.parse(t(hour)) / 1000;
    const onoff = chartOf(exposure, 'development', 'onoff');
    expect(onoff).toMatchObject({ x: [s(10), s(11), s(12)], end: s(13), values: [[4, 0, 2], [1, 0, 0]] });
    expect(onoff.series.map((x) => x.key)).toEqual(['yes', 'no']);
    const variants = chartOf(exposure, 'development', 'variants');
    expect(variants.series.map((x) => [x.key, x.label])).toEqual([['v0', 'a.b'], ['v1', 'blue']]);
    expect(variants.values).toEqual([[1, 0, 0], [3, 0, 2]]);
    expect(chartOf(exposure, 'production', 'variants').series).toEqual([]);
  });

  it('tops the count axis at the tallest stack of the series shown, and names each series\' total', () => {
    expect(stackedMax([[4, 0, 2], [1, 9, 0]])).toBe(9);
    expect(stackedMax([[4, 0, 2], [3, 1, 0]])).toBe(7);
    expect(stackedMax([[4, 0, 2], [3, 1, 0]], (s) => s === 1)).toBe(3);
    expect(stackedMax([])).toBe(0);
    expect(chartSummary(chartOf(exposure, 'development', 'onoff'), 'development', 'hour')).toBe('development, evaluations per hour over 3 hours: 6 On (yes), 1 Off (no)');
  });

  it('labels a time axis tick with its day at local midnight, else its time', () => {
    const local = (h: number, m = 0) => new Date(2026, 10, 29, h, m).getTime() / 1000;
    expect(tickLabel(local(0))).toBe(new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' }).format(new Date(2026, 10, 29)));
    expect(tickLabel(local(6, 30))).toBe(new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(new Date(2026, 10, 29, 6, 30)));
  });

  it('puts each change of an environment (or of none) in its period, at its minute; others and those outside are left out', () => {
    const dev = markersOf(exposure, 'development');
    expect(dev.map((m) => [m.change.id, m.kind, m.period, m.fraction])).toEqual([[1, 'switch', t(10), 0.25], [3, 'variants', t(12), 0]]);
    expect(markersOf(exposure, 'production').map((m) => [m.change.id, m.period, m.fraction])).toEqual([[2, t(11), 0.5], [3, t(12), 0]]);
  });

  it('says what each change did', () => {
    expect(exposure.changes.map(describeChange)).toEqual([
      'Switched on in development', 'Strategy “Half” changed in production', 'Variants changed', 'Switched off in development',
    ]);
    expect(describeChange({ id: 5, type: 'feature-strategy-remove', createdAt: t(1), createdBy: 'x', environment: 'dev', preData: { name: 'default' } })).toBe('Strategy “default” removed in dev');
  });

  it('tables the periods with evaluations; an unknown range is 24 hours', () => {
    expect(tableRows(exposure).map((b) => [b.environment, b.timestamp])).toEqual([['development', t(10)], ['development', t(12)], ['production', t(11)]]);
    expect([rangeOf('30d').hoursBack, rangeOf('nonsense').hoursBack, rangeOf(null).hoursBack]).toEqual([720, 24, 24]);
  });
});

describe('the window of Feature.exposure (src/domain/metrics/exposure-window.ts)', () => {
  const now = Date.parse('2026-11-29T10:20:00Z');
  it('counts hoursBack back from the current hour, and widens from/to to whole hours', () => {
    expect(exposureWindow({ hoursBack: 3 }, now)).toMatchObject({ from: Date.parse('2026-11-29T08:00:00Z'), to: Date.parse('2026-11-29T11:00:00Z'), granularity: 'hour' });
    expect(exposureWindow({ from: '2026-11-28T22:30:00Z', to: '2026-11-29T01:10:00Z' }, now)).toMatchObject({ from: Date.parse('2026-11-28T22:00:00Z'), to: Date.parse('2026-11-29T02:00:00Z') });
  });

  it('groups the hours into days of a time zone, a cut day starting at the window', () => {
    const w = exposureWindow({ from: '2026-11-28T20:00:00Z', to: '2026-11-29T03:00:00Z', granularity: 'day', timeZone: 'Asia/Kolkata' }, now);
    // 20:00 UTC is 01:30 on the 29th in Kolkata; 18:30 UTC is its next midnight.
    const p = periodsOf(w);
    expect(p.starts.map((s) => new Date(s).toISOString())).toEqual(['2026-11-28T20:00:00.000Z']);
    const utc = periodsOf({ ...w, timeZone: 'UTC' });
    expect(utc.starts.map((s) => new Date(s).toISOString())).toEqual(['2026-11-28T20:00:00.000Z', '2026-11-29T00:00:00.000Z']);
    expect(utc.indexOf.get(Date.parse('2026-11-29T02:00:00Z'))).toBe(1);
    expect(utc.indexOf.size).toBe(7);
  });

  it('refuses what it cannot count, naming the argument', () => {
    const refusal = (args: Parameters<typeof exposureWindow>[0]) => {
      try {
        exposureWindow(args, now);
        return null;
      } catch (err) {
        return (err as { name: string; details: Array<{ path: string }> }).details[0].path;
      }
    };
    expect([
      refusal({ hoursBack: 0 }), refusal({ hoursBack: 745 }), refusal({ hoursBack: 2, from: '2026-11-29T00:00:00Z' }),
      refusal({ to: '2026-11-29T00:00:00Z' }), refusal({ from: '2026-11-29T05:00:00Z', to: '2026-11-29T04:00:00Z' }),
      refusal({ from: '2026-10-01T00:00:00Z' }), refusal({ timeZone: 'Nowhere/At_All' }), refusal({ hoursBack: 744 }),
    ]).toEqual(['hoursBack', 'hoursBack', 'from', 'from', 'to', 'from', 'timeZone', null]);
  });
});

describe('the flag list\'s last seen and sparkline (web/src/logic/last-seen.ts)', () => {
  const now = Date.parse('2026-11-29T10:00:00Z');
  it('colours by how long ago', () => {
    const ago = (ms: number) => new Date(now - ms).toISOString();
    expect([ago(10 * 60_000), ago(5 * H), ago(3 * 24 * H), ago(9 * 24 * H), null].map((s) => seenLevel(s, now))).toEqual(['hour', 'day', 'week', 'older', 'never']);
  });

  it('draws the largest value at the top and zero at the bottom, and names the sum', () => {
    expect(sparklinePoints([0, 5, 10], 20, 10)).toBe('0.0,9.0 10.0,5.0 20.0,1.0');
    expect(sparklinePoints([0, 0], 20, 10)).toBe('0.0,9.0 20.0,9.0');
    expect([sparklineLabel([1200, 34]), sparklineLabel([0, 0])]).toEqual(['1,234 evaluations in the last 24 hours', 'No evaluations in the last 24 hours']);
  });
});
