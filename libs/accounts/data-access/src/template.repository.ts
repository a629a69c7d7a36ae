import { DataSource } from 'typeorm';
import { TemplateEntity } from './entities';

/**
 * Templates of applications. A template is one id with a text per language: the row the id names
 * holds the text it was created with (in its `lang`), and each translation is a row of its own
 * whose `translation_of` is that id (one per language: a unique index on the template and lang).
 * Only the first row's id is a template id; a translation's own id is never used.
 */
export class TemplateRepository {
  constructor(private readonly db: DataSource) {}

  async insert(row: { applicationId: string; lang: string; text: string; translationOf?: number | null }): Promise<TemplateEntity> {
    const templates = this.db.getRepository(TemplateEntity);
    return templates.save(templates.create({ ...row, translationOf: row.translationOf ?? null }));
  }

  /**
   * Sets the text of template `id` in `lang`: adds the translation, or replaces the text that
   * language has (the template's own when `lang` is its language). Null when `id` is not a template.
   */
  async setText(id: number, lang: string, text: string): Promise<{ created: boolean } | null> {
    const rows: { created: boolean }[] = await this.db.query(
      `INSERT INTO templates (application_id, lang, text, translation_of)
       SELECT application_id, $2, $3, id FROM templates WHERE id = $1 AND translation_of IS NULL
       ON CONFLICT ((coalesce(translation_of, id)), lang) DO UPDATE SET text = EXCLUDED.text
       RETURNING (xmax = 0) AS created`,
      [id, lang, text],
    );
    return rows[0] ?? null;
  }

  /**
   * The text of template `id` of the application in `lang`, and the language it is in: its text
   * in `lang`, else in `en`, else the one it was created with. Null when the application has no
   * such template.
   */
  async findText(applicationId: string, id: number, lang: string): Promise<{ text: string; lang: string } | null> {
    const rows: { text: string; lang: string }[] = await this.db.query(
      `SELECT text, lang FROM templates
       WHERE application_id = $1 AND (id = $2 AND translation_of IS NULL OR translation_of = $2)
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
