export * from './group-commit';
export * from './in-flight';
