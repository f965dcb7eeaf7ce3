import { createTheme, Loader, Modal, Notification, type CSSVariablesResolver } from '@mantine/core';
import { darkenHex, readableShade } from './logic/contrast';

// The system font stack (no web font to download: the UI works with no network), a focus ring on every control, and
// shades dark enough for text to meet WCAG AA contrast (4.5:1) on white: Mantine's default blue 6 and dimmed gray 6 do not.
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 6 },
  focusRing: 'auto',
  defaultRadius: 'sm',
  components: {
    // Mantine's close button is an icon alone: give every dialog's a name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A spinner is a status: its aria-label (what is loading) is prohibited on an element without a role.
    Loader: Loader.extend({ defaultProps: { role: 'status' } }),
    // The same for notifications, whose text is also Mantine's gray 6 (below AA) unless given the dimmed shade.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    }),
  },
});

// Mantine draws light/outline text and filled backgrounds of every colour with its shade 8, which is below AA for red,
// orange, yellow, green, teal, cyan and lime (and for the active NavLink's tint): each colour gets a shade that passes.
const readableColors = (colors: Record<string, readonly string[]>) =>
  Object.fromEntries(Object.entries(colors).flatMap(([name, shades]) => {
    // Text on a light tint needs a little more than on white; white text on a filled background needs 4.5.
    const shade = readableShade(shades, 5.3);
    const filled = readableShade(shades, 4.6);
    return [
      [`--mantine-color-${name}-filled`, filled],
      [`--mantine-color-${name}-filled-hover`, darkenHex(filled, 0.12)],
      [`--mantine-color-${name}-light-color`, shade],
      [`--mantine-color-${name}-outline`, shade],
      [`--mantine-color-${name}-text`, shade],
    ];
  }));

export const cssVariables: CSSVariablesResolver = (t) => ({
  variables: {},
  // Placeholders: lighter than typed text, yet 4.8:1 on white (Mantine's gray 5 is 2.6:1, and the date pickers draw
  // theirs as text, which axe measures). A field's error (its message, the field's text) in the readable red, not
  // Mantine's red 6 (3.3:1): the service's refusals now show under the fields they name.
  light: {
    ...readableColors(t.colors), '--mantine-color-dimmed': t.colors.gray[7], '--mantine-color-anchor': t.colors.blue[8], '--mantine-color-placeholder': '#6c737a',
    '--mantine-color-error': 'var(--mantine-color-red-text)',
  },
  dark: {},
});
