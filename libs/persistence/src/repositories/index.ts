export * from './api-key.repository';
export * from './application.repository';
export * from './company.repository';
export * from './price.repository';
export * from './template.repository';
export * from './webhook-delivery.repository';
