export * from './log-context';
export * from './logger';
export * from './nest-logger';
export * from './tracing';
