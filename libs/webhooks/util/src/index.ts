export * from './signing';
export * from './address-guard';
export * from './guarded-lookup';
export * from './post-webhook';
export * from './retry-schedule';
