import type { Money } from '@mp/billing-domain';
import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { moneyTransformer } from './money.transformer';

/** One row per company; a CHECK keeps it from going below zero. */
@Entity({ name: 'balances' })
export class BalanceEntity {
  @PrimaryColumn({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @Column({ type: 'numeric', precision: 20, scale: 4, transformer: moneyTransformer })
  balance: Money;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
