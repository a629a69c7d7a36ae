export * from './campaign-acceptance';
export * from './campaign-batches';
export * from './campaign-views';
export * from './campaign-cancellation';
export * from './campaign-completion';
export * from './campaign-webhook-events';
export * from './campaign-console';
