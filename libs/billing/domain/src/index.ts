export * from './money';
export * from './pricing';
export * from './charge-plan';
export * from './top-up';
export * from './price-csv';
