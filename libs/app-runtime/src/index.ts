export * from './worker.env';
export * from './worker-app.module';
export * from './run-worker-app';
export * from './config.module';
export * from './graceful-shutdown';
export * from './shutdown.env';
