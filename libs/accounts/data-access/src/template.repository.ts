import { DataSource, EntityManager } from 'typeorm';
import { TemplateEntity } from './entities';

/** One language's text of a template, as the console lists them. */
export interface TemplateText {
  /** The template's id (its first row's), what OTP sends pass as `template`. */
  templateId: number;
  lang: string;
  text: string;
  /** Whether this is the text the template was created with (removed only with the template). */
  original: boolean;
  createdAt: Date;
}

/**
 * Templates of applications. A template is one id with a text per language: the row the id names
 * holds the text it was created with (in its `lang`), and each translation is a row of its own
 * whose `translation_of` is that id (one per language: a unique index on the template and lang).
 * Only the first row's id is a template id; a translation's own id is never used.
 */
export class TemplateRepository {
  constructor(private readonly db: DataSource) {}

  async insert(
    row: { applicationId: string; lang: string; text: string; translationOf?: number | null },
    manager: EntityManager = this.db.manager,
  ): Promise<TemplateEntity> {
    const templates = manager.getRepository(TemplateEntity);
    return templates.save(templates.create({ ...row, translationOf: row.translationOf ?? null }));
  }

  /**
   * Sets the text of template `id` in `lang`: adds the translation, or replaces the text that
   * language has (the template's own when `lang` is its language). Null when `id` is not a template.
   */
  async setText(id: number, lang: string, text: string, manager: EntityManager = this.db.manager): Promise<{ created: boolean } | null> {
    const rows: { created: boolean }[] = await manager.query(
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

  /** The template (its first row) with this id, whichever application has it; null for none or a translation's id. */
  async findTemplate(id: number): Promise<TemplateEntity | null> {
    const row = await this.db.getRepository(TemplateEntity).findOneBy({ id });
    return row?.translationOf === null ? row : null;
  }

  /** Every text of every template of the application: by template id, its own text first, then by language. */
  async listForApplication(applicationId: string): Promise<TemplateText[]> {
    const rows: { template_id: number; lang: string; text: string; original: boolean; created_at: Date }[] = await this.db.query(
      `SELECT coalesce(translation_of, id) AS template_id, lang, text, translation_of IS NULL AS original, created_at
       FROM templates WHERE application_id = $1
       ORDER BY template_id, original DESC, lang`,
      [applicationId],
    );
    return rows.map((row) => ({ templateId: row.template_id, lang: row.lang, text: row.text, original: row.original, createdAt: row.created_at }));
  }

  /** Removes the translation of template `id` into `lang`; its removed text, or null when it had none. */
  async removeTranslation(manager: EntityManager, id: number, lang: string): Promise<{ text: string } | null> {
    const rows: { text: string }[] = await manager.query(
      `WITH removed AS (DELETE FROM templates WHERE translation_of = $1 AND lang = $2 RETURNING text) SELECT text FROM removed`,
      [id, lang],
    );
    return rows[0] ?? null;
  }

  /** Removes template `id` with all its translations; the languages it had (none: no such template). */
  async removeTemplate(manager: EntityManager, id: number): Promise<string[]> {
    // A SELECT over the DELETE: TypeORM answers a bare DELETE … RETURNING as [rows, count].
    const rows: { lang: string }[] = await manager.query(
      `WITH removed AS (DELETE FROM templates WHERE id = $1 AND translation_of IS NULL OR translation_of = $1 RETURNING lang) SELECT lang FROM removed`,
      [id],
    );
    return rows.map((row) => row.lang).sort();
  }
}
