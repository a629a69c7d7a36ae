export * from './message-log-filter';
export * from './message-log';
export * from './message-history';
export * from './message-detail';
export * from './message-log.service';
export * from './message-list';
export * from './message-spend';
