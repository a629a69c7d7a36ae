export * from './addressing';
export * from './backoff';
export * from './carrier-routes';
export * from './command-status';
export * from './delivery-receipt';
export * from './smpp-connection';
export * from './submit-sm';
export * from './token-bucket';
