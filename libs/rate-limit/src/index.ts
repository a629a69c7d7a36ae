export * from './sliding-window-limiter';
