import { createTheme, type CSSVariablesResolver } from '@mantine/core';

// Shade 8 of the primary color and gray 7 for secondary text keep every text at WCAG AA contrast
// (4.5:1) on white; Mantine's defaults (blue 6, gray 6) are about 3.5:1 and 3.3:1.
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  // A visible focus ring on every focusable element, keyboard or not, thick enough to see.
  focusRing: 'auto',
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-placeholder': 'var(--mantine-color-gray-7)' },
  dark: {},
});
