// jsdom lacks what Mantine reads from a real browser (as Mantine's testing guide says).
import '@testing-library/jest-dom';

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
