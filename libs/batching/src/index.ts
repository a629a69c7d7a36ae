export * from './group-commit';
