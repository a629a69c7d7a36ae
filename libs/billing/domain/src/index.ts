export * from './money';
export * from './pricing';
export * from './charge-plan';
