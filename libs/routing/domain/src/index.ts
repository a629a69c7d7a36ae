export * from './route-entry';
export * from './candidates';
export * from './route-plan';
export * from './failover';
export * from './carrier-health';
export * from './carrier-health-across';
