import type { DataSource } from 'typeorm';

const transactionPooledSources = new WeakSet<DataSource>();

/** Marks a data source as connected through a transaction-mode pooler (DataSourceOptions.pooler). */
export function markTransactionPooled(dataSource: DataSource): void {
  transactionPooledSources.add(dataSource);
}

/**
 * Whether this data source's connections are PgBouncer's in transaction pooling mode: a client
 * connection there is lent a server connection for one transaction at a time, so a statement
 * prepared on it (by the protocol or by PREPARE) may be missing, or another's, in the next one.
 */
export function transactionPooled(dataSource: DataSource): boolean {
  return transactionPooledSources.has(dataSource);
}
