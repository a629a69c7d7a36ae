import {
  createTheme,
  darken,
  defaultVariantColorsResolver,
  Modal,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';

const TINTED_TEXT_VARIANTS = ['light', 'outline', 'subtle'];

/** The dark shade of a color that text on its tint is written in (at least 4.5:1). */
const textShade = (color: string): string => darken(color, 0.3);

/**
 * Text on the tinted variants (a light badge, an outlined button, an alert's title) in a dark
 * shade of its color: Mantine's (shade 6 to 9 on a tint) fall below WCAG AA's 4.5:1.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (!TINTED_TEXT_VARIANTS.includes(input.variant)) return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.color === 'gray' || parsed.color === 'dark') return colors;
  return { ...colors, color: textShade(input.theme.colors[parsed.color][9]) };
};

// Shade 8 of the primary color and gray 7 for secondary text keep every text at WCAG AA contrast
// (4.5:1) on white; Mantine's defaults (blue 6, gray 6) are about 3.5:1 and 3.3:1.
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  // The focus ring shows for keyboard use (:focus-visible).
  focusRing: 'auto',
  // No sliding and fading for readers who asked their system for less motion.
  respectReducedMotion: true,
  variantColorResolver,
  components: {
    // A dialog's close button has no text: it needs a name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // Its description is gray 6 by default (about 3.3:1 on white): gray 7, as dimmed text.
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close the notification' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    },
    // A dialog's header is no second banner of the page (the app's header is).
    ModalHeader: { defaultProps: { component: 'div' } },
  },
});

// The same for what reads the light variant's text color from CSS (the active NavLink).
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    ...Object.fromEntries(
      Object.entries(resolved.colors)
        .filter(([name]) => name !== 'gray' && name !== 'dark')
        .map(([name, shades]) => [`--mantine-color-${name}-light-color`, textShade(shades[9])]),
    ),
  },
  dark: {},
});
