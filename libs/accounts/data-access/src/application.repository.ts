import type { ApplicationSettings } from '@mp/accounts-domain';
import { DataSource, EntityManager } from 'typeorm';
import { ApplicationEntity } from './entities';

export class ApplicationRepository {
  constructor(private readonly db: DataSource) {}

  async insert(manager: EntityManager, row: { appid: string; companyId: string; name: string }): Promise<ApplicationEntity> {
    const applications = manager.getRepository(ApplicationEntity);
    return applications.save(applications.create({ ...row, settings: {} }));
  }

  async findById(id: string): Promise<ApplicationEntity | null> {
    return this.db.getRepository(ApplicationEntity).findOneBy({ id });
  }

  async findByAppid(appid: string): Promise<ApplicationEntity | null> {
    return this.db.getRepository(ApplicationEntity).findOneBy({ appid });
  }

  /** Company-scoped lookup, for requests made with a company's credentials. */
  async findForCompany(companyId: string, appid: string): Promise<ApplicationEntity | null> {
    return this.db.getRepository(ApplicationEntity).findOneBy({ appid, companyId });
  }

  /** The company's applications, oldest first (its first, `default`, leads). */
  async listForCompany(companyId: string): Promise<ApplicationEntity[]> {
    return this.db.getRepository(ApplicationEntity).find({ where: { companyId }, order: { createdAt: 'ASC', appid: 'ASC' } });
  }

  async saveSettings(id: string, settings: Partial<ApplicationSettings>, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.getRepository(ApplicationEntity).update({ id }, { settings });
  }

  /** A new name; the company's names are unique (PostgreSQL error 23505 otherwise). */
  async rename(manager: EntityManager, id: string, name: string): Promise<void> {
    await manager.getRepository(ApplicationEntity).update({ id }, { name });
  }
}
