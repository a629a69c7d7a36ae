export * from './opt-out-store';
export * from './suppression-check';
export * from './keyword-opt-outs';
