import { createTheme, type CSSVariablesResolver } from '@mantine/core';

// The system font stack (no web font to download: the UI works with no network), a focus ring on every control, and
// shades dark enough for text to meet WCAG AA contrast (4.5:1) on white: Mantine's default blue 6 and dimmed gray 6 do not.
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 6 },
  focusRing: 'auto',
  defaultRadius: 'sm',
});

export const cssVariables: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-anchor': t.colors.blue[8],
    // Text of light variants (the active navigation link, light badges) on their tinted background: shade 8 falls short of 4.5:1.
    '--mantine-color-blue-light-color': t.colors.blue[9],
  },
  dark: {},
});
