export * from './recent-spans';
export * from './spans';
export * from './start-tracing';
export * from './tracing-settings';
