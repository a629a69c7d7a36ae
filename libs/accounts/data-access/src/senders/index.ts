export * from './sender-registry';
export * from './messaging-settings';
