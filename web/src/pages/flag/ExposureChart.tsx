import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Box, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useMemo } from 'react';
import { Rectangle, usePlotArea, useXAxisScale, type BarShapeProps } from 'recharts';
import classes from './ExposureChart.module.css';
import { chartOf, countText, momentText, markersOf, periodLabel, type ChangeKind, type Exposure, type ExposureView, type Marker } from '../../logic/exposure';

/**
 * The exposure chart itself (issue 44), loaded only when a flag page shows it (a chunk of its own: @mantine/charts and
 * recharts stay out of every other page). One stacked bar chart per environment, the flag's changes drawn on its time
 * axis as markers whose tooltip tells the change. Each bar and marker carries its data in `data-*` attributes, so a
 * test reads what was drawn rather than pixels.
 */
export interface ExposureChartProps {
  exposure: Exposure;
  view: ExposureView;
}

const MARKER_COLORS: Record<ChangeKind, string> = {
  switch: 'var(--mantine-color-blue-8)',
  strategy: 'var(--mantine-color-orange-8)',
  variants: 'var(--mantine-color-grape-8)',
};
const KIND_LABELS: Record<ChangeKind, string> = { switch: 'Switch', strategy: 'Strategy', variants: 'Variants' };

export default function ExposureChart({ exposure, view }: ExposureChartProps) {
  return (
    <Stack gap="md">
      {exposure.environments.map((env) => <EnvironmentChart key={env} exposure={exposure} environment={env} view={view} />)}
      <Group gap="md" aria-hidden="true">
        {(Object.keys(MARKER_COLORS) as ChangeKind[]).map((k) => (
          <Text key={k} size="xs" c="dimmed"><Text span c={MARKER_COLORS[k]} fw={700}>◆</Text> {KIND_LABELS[k]} change</Text>
        ))}
      </Group>
    </Stack>
  );
}

function EnvironmentChart({ exposure, environment, view }: { exposure: Exposure; environment: string; view: ExposureView }) {
  const { rows, series } = useMemo(() => chartOf(exposure, environment, view), [exposure, environment, view]);
  const markers = useMemo(() => markersOf(exposure, environment), [exposure, environment]);
  const spansDays = exposure.periods.length > 24;
  const label = (t: unknown) => periodLabel(String(t), exposure.granularity, spansDays);
  // A bar per series and period, as recharts draws it, wrapped to say which period, series and count it is.
  const shape = (key: string) => (props: BarShapeProps) => {
    const row = props.payload as Record<string, number | string>;
    return (
      <g data-period={String(row.t)} data-series={key} data-value={String(row[key] ?? 0)}>
        <Rectangle {...props} />
      </g>
    );
  };
  return (
    <Box component="figure" m={0} data-environment={environment} data-view={view}>
      <Text component="figcaption" size="sm" fw={600} mb={4}>{environment}</Text>
      {series.length === 0
        ? <Text size="sm" c="dimmed">No variants were handed out in {environment} in this window.</Text>
        : (
          <BarChart h={220} data={rows} dataKey="t" type="stacked" withLegend legendProps={{ verticalAlign: 'bottom', height: 40 }}
            series={series.map((s) => ({ name: s.key, label: s.label, color: s.color }))}
            xAxisProps={{ tickFormatter: label }} tooltipProps={{ labelFormatter: label }}
            valueFormatter={countText} barProps={(s) => ({ shape: shape(s.name) })}>
            <ChangeMarkers markers={markers} />
          </BarChart>
        )}
    </Box>
  );
}

/** The changes on the time axis: a line through the plot inside the bar of their period, at their minute in it. */
function ChangeMarkers({ markers }: { markers: Marker[] }) {
  const x = useXAxisScale();
  const plot = usePlotArea();
  if (!x || !plot) return null;
  return (
    <g className="exposure-markers">
      {markers.map((m) => {
        const [start, end] = [x(m.period, { position: 'start' }), x(m.period, { position: 'end' })];
        if (start === undefined || end === undefined) return null;
        return <ChangeMarker key={m.change.id} marker={m} x={start + (end - start) * m.fraction} top={plot.y} bottom={plot.y + plot.height} />;
      })}
    </g>
  );
}

function ChangeMarker({ marker, x, top, bottom }: { marker: Marker; x: number; top: number; bottom: number }) {
  const color = MARKER_COLORS[marker.kind];
  const when = momentText(marker.change.createdAt);
  const name = `${marker.text}, ${when}, by ${marker.change.createdBy}`;
  return (
    <Tooltip withArrow multiline w={260} events={{ hover: true, focus: true, touch: true }}
      label={<><Text size="sm" fw={600}>{marker.text}</Text><Text size="xs">{when} · {marker.change.createdBy}</Text></>}>
      <g tabIndex={0} role="img" aria-label={name} data-change-id={marker.change.id} data-change-type={marker.change.type}
        data-change-kind={marker.kind} data-period={marker.period} data-time={marker.change.createdAt} className={classes.marker}>
        <line x1={x} x2={x} y1={top} y2={bottom} stroke={color} strokeWidth={2} strokeDasharray="4 3" />
        <path d={`M ${x} ${top - 7} L ${x + 6} ${top} L ${x} ${top + 7} L ${x - 6} ${top} Z`} fill={color} />
        {/* A wider, invisible target than the 2-pixel line, for the pointer. */}
        <rect x={x - 6} y={top - 7} width={12} height={bottom - top + 7} fill="transparent" />
      </g>
    </Tooltip>
  );
}
