export * from './group-commit';
export * from './in-flight';
export * from './lane-permits';
export * from './lane-queue';
