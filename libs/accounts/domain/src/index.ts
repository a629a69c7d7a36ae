export * from './setting-error';
export * from './application-settings';
export * from './company-settings';
