export * from './ledger.repository';
export * from './csv';
export * from './ledger-views';
export * from './billing-data.module';
