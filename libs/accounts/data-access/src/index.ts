export * from './errors';
export * from './accounts.service';
export * from './catalog.service';
