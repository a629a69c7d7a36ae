import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  /** The public half of the pair, sent as X-API-Key. */
  @Column({ type: 'text', unique: true })
  key: string;

  /** HMAC-SHA-256 of the secret with the server pepper; the secret itself is never stored. */
  @Column({ name: 'secret_hash', type: 'bytea' })
  secretHash: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** When the public API last accepted the key, to the minute (the gateway writes it at most once a minute). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true, insert: false, update: false })
  lastUsedAt: Date | null;
}
