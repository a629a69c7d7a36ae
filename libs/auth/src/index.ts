export * from './api-credentials';
export * from './presented-credentials';
export * from './access-token';
export * from './passwords';
export * from './opaque-tokens';
