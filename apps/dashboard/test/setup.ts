// jsdom lacks what Mantine reads from a real browser (as Mantine's testing guide says).
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// findBy and waitFor wait up to 5 s, not 1: on a loaded CI machine a page's first render over its
// fake API has taken longer than a second (a wait, never a bound on speed: it returns when found).
configure({ asyncUtilTimeout: 5_000 });

const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);
window.HTMLElement.prototype.scrollIntoView = () => undefined;
window.scrollTo = () => undefined;

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

const ignore = (): void => undefined;
window.ResizeObserver = class {
  observe = ignore;
  unobserve = ignore;
  disconnect = ignore;
};
