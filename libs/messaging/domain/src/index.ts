export * from './bulk-phone-validator';
export * from './concatenation';
export * from './phone-number';
export * from './recipients';
export * from './sender-id';
export * from './sms-text';
export * from './ucs2-character';
export * from './campaign-plan';
