export * from './campaign-acceptance';
export * from './campaign-batches';
