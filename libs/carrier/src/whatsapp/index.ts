export * from './cloud-api-client';
export * from './cloud-api-request';
export * from './status-webhook';
