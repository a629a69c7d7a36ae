export * from './metric-definitions';
export * from './platform-metrics';
export * from './http-metrics';
export * from './job-meter';
export * from './queue-depths';
export * from './metrics.controller';
export * from './metrics.module';
export * from './ledger-metrics';
