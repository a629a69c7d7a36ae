export * from './load-config';
export * from './common.env';
export * from './local-stack';
export * from './load-config-or-exit';
export * from './env-boolean';
export * from './tracing.env';
