import { DataSource } from 'typeorm';
import { TemplateEntity } from '../entities';

export class TemplateRepository {
  constructor(private readonly db: DataSource) {}

  async insert(row: { applicationId: string; lang: string; text: string; translationOf?: number | null }): Promise<TemplateEntity> {
    const templates = this.db.getRepository(TemplateEntity);
    return templates.save(templates.create({ ...row, translationOf: row.translationOf ?? null }));
  }

  /**
   * The text of template `id` of the application in `lang`: its translation into `lang`, else into
   * `en`, else the template's own text. Null when the application has no such template.
   */
  async findText(applicationId: string, id: number, lang: string): Promise<{ text: string; lang: string } | null> {
    const rows: { text: string; lang: string }[] = await this.db.query(
      `SELECT text, lang FROM templates
       WHERE application_id = $1 AND (id = $2 OR translation_of = $2)
       ORDER BY (lang = $3) DESC, (lang = 'en') DESC, (translation_of IS NULL) DESC
       LIMIT 1`,
      [applicationId, id, lang],
    );
    return rows[0] ?? null;
  }

  async findForApplication(applicationId: string, id: number): Promise<TemplateEntity | null> {
    return this.db.getRepository(TemplateEntity).findOneBy({ applicationId, id });
  }
}
