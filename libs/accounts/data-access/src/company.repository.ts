import type { CompanySettings } from '@mp/accounts-domain';
import { DataSource, EntityManager } from 'typeorm';
import { CompanyEntity } from './entities';

export class CompanyRepository {
  constructor(private readonly db: DataSource) {}

  async insert(manager: EntityManager, row: { name: string; currency: string; otpRateLimit: number; webhookSecret: string }): Promise<CompanyEntity> {
    const companies = manager.getRepository(CompanyEntity);
    return companies.save(companies.create(row));
  }

  async findById(id: string): Promise<CompanyEntity | null> {
    return this.db.getRepository(CompanyEntity).findOneBy({ id });
  }

  /** Applies validated settings; null when the company does not exist. */
  async update(id: string, settings: Partial<CompanySettings>, manager: EntityManager = this.db.manager): Promise<CompanyEntity | null> {
    const changes: Partial<CompanyEntity> = {};
    if (settings.name !== undefined) changes.name = settings.name;
    if (settings.currency !== undefined) changes.currency = settings.currency;
    if (settings.otp_rate_limit !== undefined) changes.otpRateLimit = settings.otp_rate_limit;
    if (Object.keys(changes).length > 0) await manager.getRepository(CompanyEntity).update({ id }, changes);
    return manager.getRepository(CompanyEntity).findOneBy({ id });
  }
}
