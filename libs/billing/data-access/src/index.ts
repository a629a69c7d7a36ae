export * from './ledger.repository';
export * from './billing-data.module';
