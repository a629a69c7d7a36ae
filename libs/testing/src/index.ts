export * from './test-database';
export * from './admin-cli';
export * from './stack';
