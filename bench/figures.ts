/** The p-th percentile of an ascending list (nearest rank). */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * A row printer for the browser benches' tables (`| measure | runs | p50 | max | goal |`), its label column `width`
 * characters wide.
 */
export const figureLine = (width: number) => (label: string, xs: number[], goal: string) => {
  const p50 = percentile([...xs].sort((a, b) => a - b), 50);
  console.log(`| ${label.padEnd(width)} | ${String(xs.length).padStart(4)} | ${p50.toFixed(1).padStart(8)} ms | ${Math.max(...xs).toFixed(1).padStart(8)} ms | ${goal.padEnd(10)} |`);
};
