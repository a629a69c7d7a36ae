import type { ApplicationSettings } from '@mp/accounts-domain';
import { DataSource, EntityManager } from 'typeorm';
import { ApplicationEntity } from './entities';

export class ApplicationRepository {
  constructor(private readonly db: DataSource) {}

  async insert(manager: EntityManager, row: { appid: string; companyId: string; name: string }): Promise<ApplicationEntity> {
    const applications = manager.getRepository(ApplicationEntity);
    return applications.save(applications.create({ ...row, settings: {} }));
  }

  async findByAppid(appid: string): Promise<ApplicationEntity | null> {
    return this.db.getRepository(ApplicationEntity).findOneBy({ appid });
  }

  /** Company-scoped lookup, for requests made with a company's credentials. */
  async findForCompany(companyId: string, appid: string): Promise<ApplicationEntity | null> {
    return this.db.getRepository(ApplicationEntity).findOneBy({ appid, companyId });
  }

  async saveSettings(id: string, settings: Partial<ApplicationSettings>, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.getRepository(ApplicationEntity).update({ id }, { settings });
  }
}
