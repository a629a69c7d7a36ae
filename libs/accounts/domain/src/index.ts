export * from './setting-error';
export * from './application-settings';
export * from './company-settings';
export * from './people';
export * from './permissions';
export * from './session-timeouts';
export * from './sign-in-rules';
export * from './webhook-secret-rotation';
