export * from './part-references';
export * from './sms-acceptance';
export * from './dispatch-jobs';
export * from './message-cancellation';
export * from './message-view';
export * from './dispatch-store';
export * from './message-events';
export * from './message-refund';
