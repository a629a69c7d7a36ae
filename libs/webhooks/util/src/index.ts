export * from './signing';
export * from './signing-secrets';
export * from './address-guard';
export * from './guarded-lookup';
export * from './post-webhook';
export * from './retry-schedule';
