import type { Money } from '@mp/billing-domain';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { moneyTransformer } from './money.transformer';

export const LEDGER_KINDS = ['topup', 'charge', 'refund', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE. */
@Entity({ name: 'ledger_entries' })
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @Column({ type: 'text' })
  kind: LedgerKind;

  /** Signed: positive credits the balance, negative debits it. */
  @Column({ type: 'numeric', precision: 20, scale: 4, transformer: moneyTransformer })
  amount: Money;

  @Column({ name: 'balance_after', type: 'numeric', precision: 20, scale: 4, transformer: moneyTransformer })
  balanceAfter: Money;

  /** What the entry is for (a message, a campaign); unique per company and kind, so it happens once. */
  @Column({ type: 'text', nullable: true })
  reference: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
