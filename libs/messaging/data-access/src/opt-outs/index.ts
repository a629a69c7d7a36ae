export * from './opt-out-store';
export * from './suppression-check';
