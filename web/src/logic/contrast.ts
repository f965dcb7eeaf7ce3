// WCAG contrast arithmetic for the theme: which shade of a colour can carry text (or carry white text) at AA.

const channels = (hex: string): [number, number, number] => {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? h.split('').map((c) => c + c).join('') : h.slice(0, 6);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
};

const luminance = (hex: string): number => {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** The WCAG contrast ratio of two `#rrggbb` colours (1..21). */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** The colour mixed with black by `amount` (0..1). */
export function darkenHex(hex: string, amount: number): string {
  return `#${channels(hex).map((v) => Math.round(v * (1 - amount)).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The first of a colour's shades 8 and 9 whose contrast with white reaches `min`, or shade 9 darkened just enough:
 * used for text on white or a light tint of the colour, and as the background of white text.
 */
export function readableShade(shades: readonly string[], min = 5): string {
  for (const s of [shades[8], shades[9]]) if (s && contrastRatio(s, '#ffffff') >= min) return s;
  const base = shades[9] ?? shades[shades.length - 1] ?? '#000000';
  for (let amount = 0.05; amount < 1; amount += 0.05) {
    const dark = darkenHex(base, amount);
    if (contrastRatio(dark, '#ffffff') >= min) return dark;
  }
  return '#000000';
}
