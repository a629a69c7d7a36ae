export * from './deliver-jobs';
export * from './webhook-delivery.repository';
export * from './webhook-delivery-log';
export * from './webhook-resends';
export * from './webhooks-data.module';
