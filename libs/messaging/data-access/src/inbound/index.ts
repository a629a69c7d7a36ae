export * from './inbound-store';
export * from './inbound-views';
