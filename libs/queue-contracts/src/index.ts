export * from './queue-names';
export * from './jobs';
export * from './job-options';
