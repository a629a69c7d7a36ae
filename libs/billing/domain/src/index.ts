export * from './money';
export * from './pricing';
