/** A dot of the colour an admin gave an application (any CSS colour; nothing without one). */
export function AppDot({ color }: { color?: string | null }) {
  if (!color) return null;
  return <span aria-hidden style={{ display: 'inline-block', width: 12, height: 12, borderRadius: '50%', background: color, border: '1px solid var(--mantine-color-gray-5)' }} />;
}
