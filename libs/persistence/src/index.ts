export * from './entities';
export * from './migrations';
export * from './data-source';
export * from './repositories';
export * from './database.module';
export * from './advisory-locks';
export * from './prepared-query';
export * from './time-ordered-id';
