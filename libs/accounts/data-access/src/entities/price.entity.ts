import type { Money, PriceRoute } from '@mp/billing-domain';
import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { moneyTransformer } from './money.transformer';

@Entity({ name: 'prices' })
export class PriceEntity {
  /** Destination prefix, "+" for every number. */
  @PrimaryColumn({ type: 'text' })
  prefix: string;

  @PrimaryColumn({ type: 'text' })
  route: PriceRoute;

  /** Price per SMS part (or per WhatsApp message). */
  @Column({ type: 'numeric', precision: 12, scale: 4, transformer: moneyTransformer })
  price: Money;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
