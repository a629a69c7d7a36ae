export * from './part-references';
export * from './sms-acceptance';
