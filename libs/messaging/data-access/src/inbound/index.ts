export * from './inbound-store';
export * from './inbound-views';
export * from './keyword-responder';
export * from './contact-webhook-events';
