export * from './api-error';
export * from './error-body';
export * from './api-exception.filter';
export * from './validation';
export * from './request-id';
export * from './create-http-app';
export * from './public.decorator';
export * from './replayed-response';
