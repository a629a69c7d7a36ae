export * from './test-database';
export * from './admin-cli';
export * from './stack';
export * from './app-process';
export * from './eventually';
export * from './webhook-receiver';
export * from './statement-spy';
export * from './plain-body-checks';
