import { DataSource } from 'typeorm';
import { TemplateEntity } from '../entities';

export class TemplateRepository {
  constructor(private readonly db: DataSource) {}

  async insert(row: { applicationId: string; lang: string; text: string }): Promise<TemplateEntity> {
    const templates = this.db.getRepository(TemplateEntity);
    return templates.save(templates.create(row));
  }

  async findForApplication(applicationId: string, id: number): Promise<TemplateEntity | null> {
    return this.db.getRepository(TemplateEntity).findOneBy({ applicationId, id });
  }
}
