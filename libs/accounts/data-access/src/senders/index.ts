export * from './sender-registry';
export * from './messaging-settings';
export * from './number-forms';
