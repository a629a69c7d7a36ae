import type { ApplicationSettings } from '@mp/accounts-domain';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'applications' })
export class ApplicationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The public id clients pass as `appid`. */
  @Column({ type: 'text', unique: true })
  appid: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @Column({ type: 'text' })
  name: string;

  /** Only the settings an operator changed; defaults fill the rest on read. */
  @Column({ type: 'jsonb' })
  settings: Partial<ApplicationSettings>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
