export * from './migrations';
export * from './data-source';
export * from './database.module';
export * from './advisory-locks';
export * from './prepared-query';
export * from './sql';
export * from './time-ordered-id';
export * from './opened-transaction';
