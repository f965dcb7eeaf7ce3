import 'uplot/dist/uPlot.min.css';
import { Box, Group, parseThemeColor, Stack, Text, Tooltip, useComputedColorScheme, useMantineTheme, type MantineTheme } from '@mantine/core';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import uPlot from 'uplot';
import classes from './ExposureChart.module.css';
import {
  chartOf, chartSummary, countText, markersOf, momentText, periodLabel, stackedMax, tickLabel,
  type ChangeKind, type ChartData, type Exposure, type ExposureView, type Granularity, type Marker,
} from '../../logic/exposure';

/**
 * The exposure chart itself (issue 44), loaded only when a flag page shows it (a chunk of its own: uPlot stays out of
 * every other page). One stacked bar chart per environment, drawn on a canvas by uPlot (a month of hours in SVG took
 * seconds of the main thread), the flag's changes laid over its time axis as focusable markers whose tooltip tells the
 * change. Tests read what was drawn from the uPlot instance on the chart's root (`[data-chart]`) and the markers'
 * `data-*` attributes rather than pixels.
 */
export interface ExposureChartProps {
  exposure: Exposure;
  view: ExposureView;
}

const HEIGHT = 220;
const KIND_LABELS: Record<ChangeKind, string> = { switch: 'Switch', strategy: 'Strategy', variants: 'Variants' };
const KIND_COLORS: Record<ChangeKind, string> = { switch: 'blue.8', strategy: 'orange.8', variants: 'grape.8' };
// Whole counts only on the count axis (uPlot's default steps include fractions).
const COUNT_STEPS = Array.from({ length: 10 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();

/** The chart's root element, with the instance that draws it: a browser test reads `uplot.data` to see what is drawn. */
type ChartRoot = HTMLDivElement & { uplot?: uPlot };

export default function ExposureChart({ exposure, view }: ExposureChartProps) {
  return (
    <Stack gap="md">
      {exposure.environments.map((env) => <EnvironmentChart key={env} exposure={exposure} environment={env} view={view} />)}
      <Group gap="md" aria-hidden="true">
        {(Object.keys(KIND_COLORS) as ChangeKind[]).map((k) => (
          <Text key={k} size="xs" c="dimmed"><Text span c={KIND_COLORS[k]} fw={700}>◆</Text> {KIND_LABELS[k]} change</Text>
        ))}
      </Group>
    </Stack>
  );
}

function EnvironmentChart({ exposure, environment, view }: { exposure: Exposure; environment: string; view: ExposureView }) {
  const chart = useMemo(() => chartOf(exposure, environment, view), [exposure, environment, view]);
  const markers = useMemo(() => markersOf(exposure, environment), [exposure, environment]);
  return (
    <Box component="figure" m={0} data-environment={environment} data-view={view}>
      <Text component="figcaption" size="sm" fw={600} mb={4}>{environment}</Text>
      {chart.series.length === 0
        ? <Text size="sm" c="dimmed">No variants were handed out in {environment} in this window.</Text>
        : <Plot chart={chart} markers={markers} granularity={exposure.granularity} spansDays={exposure.periods.length > 24}
          summary={chartSummary(chart, environment, exposure.granularity)} />}
    </Box>
  );
}

interface PlotProps {
  chart: ChartData;
  markers: Marker[];
  granularity: Granularity;
  spansDays: boolean;
  summary: string;
}

/** One uPlot instance, made when the chart's data (or the colour scheme) changes, sized to its container's width. */
function Plot({ chart, markers, granularity, spansDays, summary }: PlotProps) {
  const root = useRef<ChartRoot>(null);
  const theme = useMantineTheme();
  const scheme = useComputedColorScheme('light');
  // The instance after its latest draw (a new object each time, so the markers follow a resize).
  const [drawn, setDrawn] = useState<{ u: uPlot } | null>(null);

  useLayoutEffect(() => {
    const el = root.current!;
    const opts = optionsOf(chart, el, theme, granularity, spansDays, (u) => {
      el.dataset.drawn = 'true';
      setDrawn({ u });
    });
    const u = new uPlot(opts, [chart.x, ...chart.values], el);
    el.uplot = u;
    // The canvas is an image named by its totals (the tables under the chart hold every number); the legend follows
    // the pointer only, so it is left out for screen readers.
    u.ctx.canvas.setAttribute('role', 'img');
    u.ctx.canvas.setAttribute('aria-label', summary);
    u.root.querySelector('.u-legend')?.setAttribute('aria-hidden', 'true');
    const resize = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientWidth !== u.width) u.setSize({ width: el.clientWidth, height: HEIGHT });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      delete el.uplot;
      delete el.dataset.drawn;
      setDrawn(null);
    };
  }, [chart, granularity, spansDays, summary, theme, scheme]);

  return (
    <div ref={root} className={classes.chart} data-chart="">
      {drawn && createPortal(markers.map((m) => (
        <ChangeMarker key={m.change.id} marker={m} left={drawn.u.valToPos(Date.parse(m.change.createdAt) / 1000, 'x')} />
      )), drawn.u.over)}
    </div>
  );
}

/** A Mantine colour (`teal.6`) or CSS variable as the canvas needs it: its value, since a canvas cannot read `var(…)`. */
function colorOf(el: Element, theme: MantineTheme, color: string): string {
  const variable = color.startsWith('--') ? color : parseThemeColor({ color, theme }).variable;
  return (variable && getComputedStyle(el).getPropertyValue(variable).trim()) || parseThemeColor({ color, theme }).value;
}

function optionsOf(chart: ChartData, el: Element, theme: MantineTheme, granularity: Granularity, spansDays: boolean, onDraw: (u: uPlot) => void): uPlot.Options {
  const text = colorOf(el, theme, '--mantine-color-dimmed');
  const line = colorOf(el, theme, '--mantine-color-default-border');
  const font = `12px ${theme.fontFamily ?? 'system-ui, sans-serif'}`;
  const shown = (u: uPlot) => (s: number) => u.series[s + 1]?.show !== false;
  return {
    width: Math.max(el.clientWidth, 100),
    height: HEIGHT,
    series: [
      { label: granularity === 'day' ? 'Day' : 'Hour', value: (_u, v) => (v == null ? '—' : periodLabel(new Date(v * 1000).toISOString(), granularity, spansDays)) },
      ...chart.series.map((s) => {
        const color = colorOf(el, theme, s.color);
        // Each series' own count in the legend (what the pointer rests on), not the height of its stack.
        return { label: s.label, fill: color, stroke: color, width: 0, paths: stackedBars(chart.end), points: { show: false }, value: (_u: uPlot, v: number | null) => (v == null ? '—' : countText(v)) };
      }),
    ],
    scales: {
      // Bars span their period, so the axis runs from the first period's start to the last one's end.
      x: { time: true, range: () => [chart.x[0], chart.end] },
      y: { range: (u) => [0, uPlot.rangeNum(0, stackedMax(chart.values, shown(u)) || 1, 0.1, true)[1]] },
    },
    axes: [
      { stroke: text, font, space: 80, grid: { show: false }, ticks: { stroke: line, size: 4 }, values: (_u, splits) => splits.map(tickLabel) },
      {
        stroke: text, font, grid: { stroke: line, width: 1 }, ticks: { show: false }, incrs: COUNT_STEPS,
        values: (_u, splits) => splits.map(countText), size: (_u, values) => 16 + 7 * Math.max(2, ...(values ?? []).map((v) => v.length)),
      },
    ],
    cursor: {
      y: false,
      points: { show: false },
      drag: { x: false, y: false, setScale: false },
      // uPlot follows only moves over its overlay itself; over a change's marker (a child) the legend must follow too.
      bind: { mousemove: (_u, _el, follow) => (e) => follow(e) },
      // The period under the pointer is the one that began before it (uPlot would pick the nearest start).
      dataIdx: (u, _s, i, x) => (i > 0 && u.data[0][i] > x ? i - 1 : i),
    },
    legend: { live: true },
    hooks: { draw: [onDraw] },
  };
}

/**
 * Draws a series' bars stacked on the series before it: uPlot hands over each series' own counts (what its legend and
 * the tests read), so the stacking is done here. Edges round to whole canvas pixels so that stacked parts meet.
 */
function stackedBars(end: number): uPlot.Series.PathBuilder {
  return (u, si, i0, i1) => {
    const fill = new Path2D();
    const xs = u.data[0];
    const px = (v: number, scale: string) => Math.round(u.valToPos(v, scale, true));
    for (let i = i0; i <= i1; i++) {
      const own = u.data[si][i] ?? 0;
      if (!own) continue;
      let base = 0;
      for (let s = 1; s < si; s++) if (u.series[s].show !== false) base += u.data[s][i] ?? 0;
      const left = px(xs[i], 'x');
      const right = px(i + 1 < xs.length ? xs[i + 1] : end, 'x');
      const [bottom, top] = [px(base, 'y'), px(base + own, 'y')];
      // A pixel between bars wide enough to spare it; a month of hours leaves a pixel or two per bar, drawn edge to edge.
      const gap = right - left >= 4 * uPlot.pxRatio ? Math.round(uPlot.pxRatio) : 0;
      fill.rect(left, top, right - left - gap, bottom - top);
    }
    return { fill, stroke: null, clip: null, flags: 0 };
  };
}

/** A change on the time axis: a dashed line through the plot at its minute, with a diamond above it. */
function ChangeMarker({ marker, left }: { marker: Marker; left: number }) {
  const when = momentText(marker.change.createdAt);
  const name = `${marker.text}, ${when}, by ${marker.change.createdBy}`;
  return (
    <Tooltip withArrow multiline w={260} events={{ hover: true, focus: true, touch: true }}
      label={<><Text size="sm" fw={600}>{marker.text}</Text><Text size="xs">{when} · {marker.change.createdBy}</Text></>}>
      <div tabIndex={0} role="img" aria-label={name} data-change-id={marker.change.id} data-change-type={marker.change.type}
        data-change-kind={marker.kind} data-period={marker.period} data-time={marker.change.createdAt} className={classes.marker} style={{ left }} />
    </Tooltip>
  );
}
