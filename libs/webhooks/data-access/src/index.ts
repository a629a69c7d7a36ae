export * from './webhook-delivery.repository';
export * from './webhooks-data.module';
