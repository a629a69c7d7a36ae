import { formatMoney, moneyToJson, parsePriceRule } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';
import { ApplicationRepository } from './application.repository';
import type { ApplicationEntity } from './entities';
import { InvalidArgumentError, NotFoundError } from './errors';
import { AuditLogRepository, type AuditActor } from './people/audit-log.repository';
import { PriceRepository } from './price.repository';
import { TemplateRepository } from './template.repository';

const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
/** Template ids are PostgreSQL integers. */
const MAX_TEMPLATE_ID = 2_147_483_647;

/** The repositories CatalogService writes with. */
export interface CatalogRepositories {
  applications: ApplicationRepository;
  templates: TemplateRepository;
  prices: PriceRepository;
  audit: AuditLogRepository;
}

/** CatalogService's repositories on this data source, for a caller that wires it by hand (the admin tool, tests). */
export function catalogRepositories(db: DataSource): CatalogRepositories {
  return {
    applications: new ApplicationRepository(db),
    templates: new TemplateRepository(db),
    prices: new PriceRepository(db),
    audit: new AuditLogRepository(db),
  };
}

/**
 * Who changes a template: `actor` for the audit log (null: the admin tool), and for the dashboard
 * the company (and application) it must belong to: anything else is not found.
 */
export interface TemplateChange {
  actor?: AuditActor;
  companyId?: string;
  appid?: string;
}

/** A template text and its language, checked as the database would (a clear error instead). */
function checkTemplateText(input: { text: string; lang?: string }): { lang: string; text: string } {
  const lang = parseTemplateLang(input.lang ?? 'en');
  if (input.text.length < 1 || input.text.length > 1600) throw new InvalidArgumentError('text must be 1 to 1600 characters');
  if (input.text.includes('\u0000')) throw new InvalidArgumentError('text must not contain a NUL character');
  return { lang, text: input.text };
}

function parseTemplateLang(text: string): string {
  const lang = text.trim();
  if (!LANG.test(lang)) throw new InvalidArgumentError('lang must be a language code such as en or pt-BR');
  return lang;
}

function parseTemplateId(text: string): number {
  const id = /^[1-9][0-9]{0,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(id <= MAX_TEMPLATE_ID)) throw new InvalidArgumentError('template must be a template id (a positive integer)');
  return id;
}

/**
 * What messages are made from and charged at: templates per application, prices per route. Every
 * change of a template is written to the audit log in its transaction, for the admin tool and the
 * dashboard alike.
 */
export class CatalogService {
  private readonly applications: ApplicationRepository;
  private readonly templates: TemplateRepository;
  private readonly prices: PriceRepository;
  private readonly audit: AuditLogRepository;

  constructor(
    private readonly db: DataSource,
    repositories: CatalogRepositories,
  ) {
    ({ applications: this.applications, templates: this.templates, prices: this.prices, audit: this.audit } = repositories);
  }

  /** A new template of the application, with its text in one language (`en` unless given). */
  async createTemplate(input: { appid: string; text: string; lang?: string }, change: TemplateChange = {}): Promise<{ template_id: number; lang: string }> {
    const { lang, text } = checkTemplateText(input);
    const application = await this.application(input.appid, change.companyId);
    return this.db.transaction(async (manager) => {
      const template = await this.templates.insert({ applicationId: application.id, lang, text }, manager);
      await this.audit.record(manager, {
        companyId: application.companyId,
        actor: change.actor ?? null,
        action: 'template.created',
        details: { appid: application.appid, template_id: template.id, lang, text },
      });
      return { template_id: template.id, lang };
    });
  }

  /**
   * The text of an existing template in another language (or a new text for a language it has):
   * an OTP sent with `template: <id>` and `lang` renders it, falling back to `en`, then to the
   * text the template was created with.
   */
  async translateTemplate(
    input: { template: string; lang: string; text: string },
    change: TemplateChange = {},
  ): Promise<{ template_id: number; lang: string; created: boolean }> {
    const id = parseTemplateId(input.template);
    const { lang, text } = checkTemplateText(input);
    const application = await this.templateApplication(id, change);
    return this.db.transaction(async (manager) => {
      const set = await this.templates.setText(id, lang, text, manager);
      if (!set) throw new NotFoundError(`no template ${id}`);
      await this.audit.record(manager, {
        companyId: application.companyId,
        actor: change.actor ?? null,
        action: 'template.text_set',
        details: { appid: application.appid, template_id: id, lang, text, created: set.created },
      });
      return { template_id: id, lang, created: set.created };
    });
  }

  /** Removes one translation of a template; its own text goes only with the whole template (removeTemplate). */
  async removeTemplateText(input: { template: string; lang: string }, change: TemplateChange = {}): Promise<{ template_id: number; lang: string }> {
    const id = parseTemplateId(input.template);
    const lang = parseTemplateLang(input.lang);
    const application = await this.templateApplication(id, change);
    const template = await this.templates.findTemplate(id);
    if (template?.lang === lang) throw new InvalidArgumentError(`${lang} is the language template ${id} was created in: delete the template instead`);
    return this.db.transaction(async (manager) => {
      const removed = await this.templates.removeTranslation(manager, id, lang);
      if (!removed) throw new NotFoundError(`Template ${id} has no text in ${lang}`);
      await this.audit.record(manager, {
        companyId: application.companyId,
        actor: change.actor ?? null,
        action: 'template.text_removed',
        details: { appid: application.appid, template_id: id, lang },
      });
      return { template_id: id, lang };
    });
  }

  /** Removes a template with its every language: OTPs sent with its id are refused from then on. */
  async removeTemplate(input: { template: string }, change: TemplateChange = {}): Promise<{ template_id: number; languages: string[] }> {
    const id = parseTemplateId(input.template);
    const application = await this.templateApplication(id, change);
    return this.db.transaction(async (manager) => {
      const languages = await this.templates.removeTemplate(manager, id);
      if (languages.length === 0) throw new NotFoundError('Template not found');
      await this.audit.record(manager, {
        companyId: application.companyId,
        actor: change.actor ?? null,
        action: 'template.deleted',
        details: { appid: application.appid, template_id: id, languages },
      });
      return { template_id: id, languages };
    });
  }

  /**
   * Sets the price of a prefix and route, audited in its transaction as a platform entry
   * (`price.set`, no company) naming `actor`: the operator, or null for the admin tool.
   */
  async setPrice(input: { prefix: string; route: string; price: string }, actor: AuditActor = null) {
    let rule;
    try {
      rule = parsePriceRule(input);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    await this.db.transaction(async (manager) => {
      const previous = await this.prices.findForUpdate(rule.prefix, rule.route, manager);
      await this.prices.upsert(rule, manager);
      await this.audit.record(manager, {
        companyId: null,
        actor,
        action: 'price.set',
        details: { prefix: rule.prefix, route: rule.route, price: formatMoney(rule.price), previous_price: previous === null ? null : formatMoney(previous) },
      });
    });
    return { prefix: rule.prefix, route: rule.route, price: moneyToJson(rule.price) };
  }

  /** The application by appid, of the company when one is named (another's is not found). */
  private async application(appid: string, companyId: string | undefined): Promise<ApplicationEntity> {
    const application = companyId === undefined ? await this.applications.findByAppid(appid) : await this.applications.findForCompany(companyId, appid);
    if (!application) throw new NotFoundError(companyId === undefined ? `no application ${appid}` : 'Application not found');
    return application;
  }

  /** The application of template `id`, which must be the one `change` names, if it names one. */
  private async templateApplication(id: number, change: TemplateChange): Promise<ApplicationEntity> {
    const scoped = change.appid !== undefined ? await this.application(change.appid, change.companyId) : null;
    const template = await this.templates.findTemplate(id);
    if (!template || (scoped && template.applicationId !== scoped.id)) throw new NotFoundError(scoped ? 'Template not found' : `no template ${id}`);
    if (scoped) return scoped;
    const application = await this.applications.findById(template.applicationId);
    if (!application || (change.companyId !== undefined && application.companyId !== change.companyId)) throw new NotFoundError(`no template ${id}`);
    return application;
  }
}
