import { sparklineLabel, sparklinePoints } from '../../logic/last-seen';

/**
 * A flag's last 24 hours of evaluations as a small line (issue 44). Plain SVG rather than the chart library: a list
 * mounts one per row as it scrolls, and the library stays on the flag page.
 */
export function Sparkline({ values, className }: { values: readonly number[]; className?: string }) {
  const [width, height] = [72, 20];
  const empty = values.every((v) => v === 0);
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={sparklineLabel(values)}
      data-values={values.join(',')} className={className} data-empty={empty || undefined}>
      <polyline points={sparklinePoints(values, width, height)} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" />
    </svg>
  );
}
