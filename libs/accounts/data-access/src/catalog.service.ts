import { moneyToJson, parsePriceRule } from '@mp/billing-domain';
import { ApplicationRepository, PriceRepository, TemplateRepository } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { InvalidArgumentError, NotFoundError } from './errors';

const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

/** What messages are made from and charged at: templates per application, prices per route. */
export class CatalogService {
  private readonly applications: ApplicationRepository;
  private readonly templates: TemplateRepository;
  private readonly prices: PriceRepository;

  constructor(db: DataSource) {
    this.applications = new ApplicationRepository(db);
    this.templates = new TemplateRepository(db);
    this.prices = new PriceRepository(db);
  }

  async createTemplate(input: { appid: string; text: string; lang?: string }): Promise<{ template_id: number }> {
    const lang = (input.lang ?? 'en').trim();
    if (!LANG.test(lang)) throw new InvalidArgumentError('lang must be a language code such as en or pt-BR');
    if (input.text.length < 1 || input.text.length > 1600) {
      throw new InvalidArgumentError('text must be 1 to 1600 characters');
    }
    const application = await this.applications.findByAppid(input.appid);
    if (!application) throw new NotFoundError(`no application ${input.appid}`);
    const template = await this.templates.insert({ applicationId: application.id, lang, text: input.text });
    return { template_id: template.id };
  }

  async setPrice(input: { prefix: string; route: string; price: string }) {
    let rule;
    try {
      rule = parsePriceRule(input);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    await this.prices.upsert(rule);
    return { prefix: rule.prefix, route: rule.route, price: moneyToJson(rule.price) };
  }
}
