import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'companies' })
export class CompanyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ name: 'otp_rate_limit', type: 'integer' })
  otpRateLimit: number;

  /** Standard Webhooks signing secret (`whsec_…`); needed in clear to sign, never returned by the API. */
  @Column({ name: 'webhook_secret', type: 'text' })
  webhookSecret: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When an operator suspended the company; null while it is active. */
  @Column({ name: 'suspended_at', type: 'timestamptz', nullable: true, insert: false })
  suspendedAt: Date | null;
}
